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

import { allEvents } from '../support/events';
import { payInvoiceOnHostedPage } from '../support/pages';
import { eventually, usePlatform } from '../support/platform';

const suite = usePlatform();
const { api } = suite;

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

  // The card form answers 303 to the hosted invoice page at PUBLIC_BASE_URL: not followed.
  const submitted = await payInvoiceOnHostedPage(suite.platform, first.hosted_url, '4000000000000341', {
    save_card: 'yes',
  });
  expect(submitted.status).toBe(303);
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

  // /v1/events lists what the event log has taken from the bus, which keeps each object's
  // events in order but not one object's against another's (in distributed mode the renewal
  // invoice's failures can be listed before the subscription's last update): wait for both.
  const events = await eventually(async () => {
    const all = await allEvents(suite.platform, suite.account.testKey);
    const failures = all.filter(
      (e) => e.type === 'invoice.payment_failed' && e.data.object.id === renewal.id,
    );
    const unpaid = all.some(
      (e) =>
        e.type === 'subscription.updated' && e.data.object.id === sub.id && e.data.object.status === 'unpaid',
    );
    return failures.length >= 5 && unpaid ? all : undefined;
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
