// The customer portal's saved cards are a projection of the payments service's mandate events
// (docs/adr/0013): published here on the real embedded bus exactly as payments publishes them,
// with an invoicing-only account (no payments service involved). Covers an event delivered
// out of order (an older card never overwrites a newer one), a redelivered event, a mandate
// of another customer, and a canceled default mandate handing its place to the customer's
// other active card (customer.updated).

import { randomBytes } from 'node:crypto';
import { TOPICS, type EventType } from '@paygrid/contracts';
import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { buildEvent, createLogger } from '@paygrid/platform';
import { eventually } from '../support/platform';

let embedded: Embedded;
let key: string;
let accountId: string;

async function call(method: string, path: string, body?: unknown, token: string | undefined = key) {
  const response = await fetch(`${embedded.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a page
  }
  return { status: response.status, body: parsed };
}

function mandate(id: string, customer: string, last4: string, updatedAt: string, status = 'active') {
  return {
    id,
    object: 'mandate',
    livemode: false,
    status,
    type: 'on_demand',
    customer,
    payment_method: { brand: 'visa', last4, exp_month: 12, exp_year: 2099 },
    updated_at: updatedAt,
  };
}

async function publish(type: EventType, object: Record<string, unknown>, eventId?: string) {
  const event = buildEvent({ type, account: accountId, livemode: false, object, at: new Date() });
  if (eventId) event.id = eventId;
  await embedded.services.invoicing.runtime.bus.publish(TOPICS.paymentsEvents, [
    { key: accountId, value: JSON.stringify(event) },
  ]);
  return event;
}

const mandateId = () => `mdt_${randomBytes(12).toString('hex')}`;

async function portalHtml(customer: string): Promise<string> {
  const session = await call('POST', `/v1/customers/${customer}/portal-sessions`, {});
  expect(session.status).toBe(200);
  const page = await call('GET', new URL(session.body.url).pathname, undefined, undefined);
  expect(page.status).toBe(200);
  return String(page.body);
}

beforeAll(async () => {
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    demo: false,
    logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
  });
  const account = await call(
    'POST',
    '/admin/v1/accounts',
    { name: 'Acme GmbH', groupings: ['invoicing'] },
    embedded.operatorToken,
  );
  accountId = account.body.id;
  const created = await call(
    'POST',
    `/admin/v1/accounts/${accountId}/keys`,
    { mode: 'test', kind: 'secret' },
    embedded.operatorToken,
  );
  key = created.body.secret;
});

afterAll(async () => {
  await embedded?.stop();
});

it('keeps the newest card of each mandate, whatever the order and repetition of the events', async () => {
  const customer = (await call('POST', '/v1/customers', { name: 'Jenny Rosen' })).body.id;
  const other = (await call('POST', '/v1/customers', { name: 'Someone Else' })).body.id;
  const id = mandateId();
  await publish('mandate.created', mandate(id, customer, '4242', '2026-11-25T10:00:00.000Z'));
  // The replacement arrives, then the (older) creation again: the replacement stays.
  const updated = await publish('mandate.updated', mandate(id, customer, '0341', '2026-11-25T11:00:00.000Z'));
  await publish('mandate.created', mandate(id, customer, '4242', '2026-11-25T10:00:00.000Z'));
  await publish('mandate.updated', mandate(id, customer, '0341', '2026-11-25T11:00:00.000Z'), updated.id);
  await publish('mandate.created', mandate(mandateId(), other, '9995', '2026-11-25T10:00:00.000Z'));
  // The last event (same account key, so the same partition and order) is the marker: once
  // the other customer's card shows, every earlier event has been applied.
  await eventually(async () =>
    (await portalHtml(other)).includes('Visa ending in 9995') ? true : undefined,
  );
  const html = await portalHtml(customer);
  expect(html).toContain('Visa ending in 0341');
  expect(html).not.toContain('ending in 4242');
  // Another customer's card is not this customer's.
  expect(html).not.toContain('ending in 9995');
});

it('hands a canceled default mandate its place to the newest other active card, then to none', async () => {
  const customer = (await call('POST', '/v1/customers', { name: 'Ada Lovelace' })).body.id;
  const first = mandateId();
  const second = mandateId();
  await publish('mandate.created', mandate(first, customer, '4242', '2026-11-25T10:00:00.000Z'));
  await publish('mandate.created', mandate(second, customer, '0341', '2026-11-25T10:05:00.000Z'));
  await eventually(async () => {
    const got = await call('GET', `/v1/customers/${customer}`);
    return got.body.default_mandate === first ? true : undefined;
  });
  await publish('mandate.canceled', mandate(first, customer, '4242', '2026-11-25T10:10:00.000Z', 'canceled'));
  await eventually(async () => {
    const got = await call('GET', `/v1/customers/${customer}`);
    return got.body.default_mandate === second ? true : undefined;
  });
  const html = await portalHtml(customer);
  expect(html).not.toContain('ending in 4242');
  expect(html).toContain('Visa ending in 0341');
  expect(html).toContain('Used for automatic payments');
  await publish('mandate.failed', mandate(second, customer, '0341', '2026-11-25T10:20:00.000Z', 'failed'));
  await eventually(async () => {
    const got = await call('GET', `/v1/customers/${customer}`);
    return got.body.default_mandate === null ? true : undefined;
  });
  expect(await portalHtml(customer)).toContain('No saved cards.');
  // The merchant heard of each change of the default.
  const events = await call('GET', '/v1/events?type=customer.updated&limit=100');
  const mine = events.body.data
    .filter((e: any) => e.data.object.id === customer)
    .map((e: any) => [e.data.previous_attributes.default_mandate, e.data.object.default_mandate])
    .reverse();
  expect(mine).toEqual([
    [null, first],
    [first, second],
    [second, null],
  ]);
});
