// The dunning scenario through the real payments service, in whichever mode the project runs:
// a customer on a test clock pays its subscription's first invoice on the hosted page with
// the sandbox card 4000 0000 0000 0341 and saves it (the payments service creates the
// mandate, the invoicing service adopts it as default_mandate); that card succeeds once and
// fails every later mandate charge, so the next renewal walks through the retries at
// +1, +3, +5, +7 days to past_due and then the configured end state (unpaid), with every
// event in /v1/events.
//
// The same card stored with a test payment instead, failing from the first charge of a
// trial's end through both dunning end states, is tests/integration/billing-dunning.test.ts.

import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
});

const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);
const pathOf = (url: string) => {
  const u = new URL(url, 'http://x.invalid');
  return `${u.pathname}${u.search}`;
};
const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/** Fills the card form: every hidden field as given, the card fields, every checkbox ticked ("save card"). */
async function payOnHostedPage(hostedUrl: string, card: string): Promise<void> {
  const page = await platform.api(undefined, 'GET', pathOf(hostedUrl));
  expect(page.status).toBe(200);
  const pay = /href="([^"]*\/pay\/invoices\/[^"]+)"/.exec(String(page.body));
  expect(pay).not.toBeNull();
  const formPath = pathOf(decode(pay?.[1] ?? ''));
  const form = await platform.api(undefined, 'GET', formPath);
  expect(form.status).toBe(200);
  const html = String(form.body);
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  const fields = new URLSearchParams();
  for (const input of html.match(/<input[^>]*>/g) ?? []) {
    const name = /name="([^"]+)"/.exec(input)?.[1];
    if (!name) continue;
    const type = /type="([^"]+)"/.exec(input)?.[1] ?? 'text';
    const value = decode(/value="([^"]*)"/.exec(input)?.[1] ?? '');
    if (type === 'hidden') fields.set(name, value);
    if (type === 'checkbox') fields.set(name, value || 'on');
  }
  fields.set('cardholder_name', 'Ada Lovelace');
  fields.set('card_number', card);
  fields.set('exp_month', '12');
  fields.set('exp_year', '2099');
  fields.set('cvc', '123');
  // The card form answers 303 to the hosted invoice page at PUBLIC_BASE_URL: not followed here.
  const submitted = await fetch(`${platform.url}${action ? pathOf(decode(action)) : formPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  expect(submitted.status).toBe(303);
}

async function allEvents(): Promise<any[]> {
  const all: any[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await api('GET', `/v1/events?limit=100${after ? `&starting_after=${after}` : ''}`);
    all.push(...page.body.data);
    if (!page.body.has_more) return all.reverse();
    after = page.body.data[page.body.data.length - 1].id;
  }
}

it('card 0341: paid once on the hosted page, then the renewal fails through dunning to past_due and unpaid', async () => {
  const clock = await api('POST', '/v1/test-clocks', { frozen_time: '2028-01-01T00:00:00Z' });
  const customer = await api('POST', '/v1/customers', {
    name: 'Card 0341 Ltd',
    email: 'ap@card0341.test',
    currency: 'EUR',
    test_clock: clock.body.id,
  });
  const created = await api('POST', '/v1/subscriptions', {
    customer: customer.body.id,
    items: [{ description: 'Plan', unit_amount: 4900, currency: 'EUR', interval: 'month' }],
    dunning_end_state: 'unpaid',
  });
  expect(created.status).toBe(200);
  // No card on file yet: the first invoice is e-mailed and the subscription waits for it.
  expect(created.body.status).toBe('incomplete');
  const first = (await api('GET', `/v1/invoices/${created.body.latest_invoice}`)).body;
  expect(first).toMatchObject({ status: 'open', total: 4900, period_start: '2028-01-01T00:00:00.000Z' });

  await payOnHostedPage(first.hosted_url, '4000000000000341');
  await eventually(async () => {
    const sub = (await api('GET', `/v1/subscriptions/${created.body.id}`)).body;
    const cus = (await api('GET', `/v1/customers/${customer.body.id}`)).body;
    return sub.status === 'active' && cus.default_mandate ? true : undefined;
  }, 30_000);

  const advanced = await api('POST', `/v1/test-clocks/${clock.body.id}/advance`, {
    frozen_time: '2028-02-10T00:00:00Z',
  });
  expect(advanced.status).toBe(200);
  const sub = (await api('GET', `/v1/subscriptions/${created.body.id}`)).body;
  expect(sub.status).toBe('unpaid');
  const renewal = (await api('GET', `/v1/invoices/${sub.latest_invoice}`)).body;
  expect(renewal).toMatchObject({
    status: 'open',
    period_start: '2028-02-01T00:00:00.000Z',
    amount_due: 4900,
  });

  const events = await eventually(async () => {
    const all = await allEvents();
    return all.filter((e) => e.type === 'invoice.payment_failed' && e.data.object.id === renewal.id).length >=
      5
      ? all
      : undefined;
  }, 60_000);
  const subEvents = events
    .filter((e) => e.type.startsWith('subscription.') && e.data.object.id === sub.id)
    .map((e) => [e.type, e.data.object.status, e.created_at]);
  expect(subEvents).toEqual([
    ['subscription.created', 'incomplete', '2028-01-01T00:00:00.000Z'],
    ['subscription.updated', 'active', expect.any(String)],
    ['subscription.renewed', 'active', '2028-02-01T00:00:00.000Z'],
    ['subscription.past_due', 'past_due', '2028-02-01T00:00:00.000Z'],
    ['subscription.updated', 'unpaid', '2028-02-08T00:00:00.000Z'],
  ]);
  const types = events.map((e) => e.type);
  expect(types).toContain('mandate.created');
  expect(
    events.filter((e) => e.type === 'payment.failed' && e.data.object.invoice === renewal.id),
  ).toHaveLength(5);
  expect(
    events.filter((e) => e.type === 'payment.succeeded' && e.data.object.invoice === first.id),
  ).toHaveLength(1);
  expect(
    events
      .filter((e) => e.type === 'invoice.payment_failed' && e.data.object.id === renewal.id)
      .map((e) => e.created_at),
  ).toHaveLength(5);
});
