// Expiry on time, with the injected clock: a sent estimate past expires_at can no longer be
// accepted (API or page), the expiry job marks it `expired` once (estimate.expired once, even
// when two sweeps run together), and its page says so. A customer on a test clock lives on
// the clock's time, on the public page too.

import { rm } from 'node:fs/promises';
import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { createLogger, ManualClock } from '@paygrid/platform';
import { csrfOf, pathOf } from '../support/pages';
import { eventually } from '../support/platform';

let embedded: Embedded;
const clock = new ManualClock(new Date());
let key: string;

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${embedded.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

beforeAll(async () => {
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    clock,
    env: { MAIL_DIR: `/tmp/paygrid-expiry-mail-${process.pid}` },
    logger: createLogger('test', 'silent'),
  });
  key = embedded.demo?.secret_key as string;
});

afterAll(async () => {
  await embedded?.stop();
  await rm(`/tmp/paygrid-expiry-mail-${process.pid}`, { recursive: true, force: true });
});

it('expires a sent estimate at expires_at, once, and refuses a late acceptance', async () => {
  const customer = await api('POST', '/v1/customers', {
    name: 'Ada',
    email: 'ada@example.test',
    currency: 'USD',
  });
  const expiresAt = new Date(clock.now().getTime() + 7 * 24 * 3_600_000);
  const estimate = await api('POST', '/v1/estimates', {
    customer: customer.body.id,
    lines: [{ description: 'Audit', quantity: 1, unit_amount: 250_000 }],
    expires_at: expiresAt.toISOString(),
  });
  expect(estimate.status).toBe(200);
  const sent = await api('POST', `/v1/estimates/${estimate.body.id}/send`);
  expect(sent.body.status).toBe('sent');
  const estimates = embedded.services.invoicing.estimates;

  // Before the expiry nothing happens.
  clock.advance(6 * 24 * 3_600_000);
  expect(await estimates.runExpiry(clock.now())).toBe(0);

  // Past it: too late to accept, even before the sweep ran; the page offers no buttons.
  clock.set(new Date(expiresAt.getTime() + 1000));
  const late = await api('POST', `/v1/estimates/${estimate.body.id}/accept`);
  expect(late.status).toBe(409);
  expect(late.body.error.code).toBe('invalid_state_transition');
  const page = await (await fetch(`${embedded.url}${new URL(sent.body.public_url).pathname}`)).text();
  expect(page).toContain('has expired');
  expect(page).not.toContain('csrf_token');

  // Two sweeps at once expire it once.
  const counts = await Promise.all([estimates.runExpiry(clock.now()), estimates.runExpiry(clock.now())]);
  expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
  const after = await api('GET', `/v1/estimates/${estimate.body.id}`);
  expect(after.body.status).toBe('expired');
  expect(after.body.status_transitions.expired_at).toBe(clock.now().toISOString());
  expect(await estimates.runExpiry(clock.now())).toBe(0);
  const events = await eventually(async () => {
    const list = await api('GET', '/v1/events?type=estimate.expired');
    return list.body.data.length ? list.body.data : undefined;
  });
  expect(events).toHaveLength(1);
  expect(events[0].data.object).toMatchObject({ id: estimate.body.id, status: 'expired' });
  expect((await api('POST', `/v1/estimates/${estimate.body.id}/cancel`)).status).toBe(409);
});

it("judges a quote's expiry on its customer's test clock, on the public page too", async () => {
  const day = 24 * 3_600_000;
  const frozen = new Date(clock.now().getTime() + 30 * day);
  const testClock = await api('POST', '/v1/test-clocks', { frozen_time: frozen.toISOString() });
  expect(testClock.status).toBe(200);
  const customer = await api('POST', '/v1/customers', {
    name: 'Grace',
    email: 'grace@example.test',
    currency: 'USD',
    test_clock: testClock.body.id,
  });
  expect(customer.status).toBe(200);
  const quote = await api('POST', '/v1/estimates', {
    customer: customer.body.id,
    kind: 'quote',
    lines: [{ description: 'Workshop', quantity: 1, unit_amount: 90_000 }],
    expires_at: new Date(frozen.getTime() + 7 * day).toISOString(),
  });
  expect(quote.status).toBe(200);
  const sent = await api('POST', `/v1/estimates/${quote.body.id}/send`);
  expect(sent.body.status).toBe('sent');

  // Real time moves past expires_at; the customer's clock stays frozen before it.
  clock.set(new Date(frozen.getTime() + 60 * day));
  const html = await (await fetch(`${embedded.url}${pathOf(sent.body.public_url)}`)).text();
  expect(html).not.toContain('has expired');
  const accepted = await fetch(`${embedded.url}${pathOf(sent.body.public_url)}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf_token: csrfOf(html) }).toString(),
    redirect: 'manual',
  });
  expect(accepted.status).toBe(200);
  expect(await accepted.text()).toContain('you accepted this quote');
  const after = await api('GET', `/v1/estimates/${quote.body.id}`);
  expect(after.body.status).toBe('accepted');
});
