// Dunning on a test clock through the real payments service, in whichever mode the project
// runs (embedded bus or Kafka): each customer stores the sandbox card 4000 0000 0000 0341 as
// an on-demand mandate with a test payment (`POST /v1/transactions/test-helpers/payments`,
// `save_card: true`, `customer`), which succeeds; the invoicing service adopts the mandate as
// the customer's default_mandate, and every later charge of that card through the mandate
// fails (the payments service's payment.charge_mandate consumer answers payment.failed).
// So the first invoice, at the end of a 14-day trial, walks through the retries at +1, +3,
// +5, +7 days to past_due and then the subscription's dunning_end_state (unpaid, canceled).
// The same card paid once on the hosted invoice page is tests/integration/billing-card-0341.test.ts.
//
// Also checks that the advance waits for those asynchronous outcomes: the retry schedule
// only exists if each failure came back before the clock moved on. A webhook endpoint
// subscribed to every event type receives each event of the account exactly once, signed.

import { Webhook } from 'standardwebhooks';
import { allEvents } from '../support/events';
import { eventually, usePlatform } from '../support/platform';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const suite = usePlatform();
const { api } = suite;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.stop();
});

it('walks a failing card through +1/+3/+5/+7-day retries to past_due, then unpaid or canceled per setting', async () => {
  const endpoint = await api('POST', '/v1/webhooks', { url: receiver.url, enabled_events: ['*'] });
  expect(endpoint.status).toBe(200);
  const clock = await api('POST', '/v1/test-clocks', { frozen_time: '2028-01-01T00:00:00Z' });

  /** A customer on the clock with a real 0341 mandate, subscribed monthly with a 14-day trial. */
  const subscribe = async (end: 'unpaid' | 'canceled') => {
    const customer = await api('POST', '/v1/customers', {
      name: `Dunning ${end}`,
      email: 'ap@dunning.test',
      currency: 'EUR',
      test_clock: clock.body.id,
    });
    expect(customer.status).toBe(200);
    const saved = await api('POST', '/v1/transactions/test-helpers/payments', {
      amount: 100,
      currency: 'EUR',
      card_number: '4000000000000341',
      save_card: true,
      customer: customer.body.id,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ status: 'succeeded', mandate: expect.stringMatching(/^mdt_/) });
    await eventually(async () => {
      const got = await api('GET', `/v1/customers/${customer.body.id}`);
      return got.body.default_mandate === saved.body.mandate ? true : undefined;
    }, 30_000);
    const created = await api('POST', '/v1/subscriptions', {
      customer: customer.body.id,
      items: [{ description: `Plan ${end}`, unit_amount: 2000, currency: 'EUR', interval: 'month' }],
      trial_period_days: 14,
      dunning_end_state: end,
    });
    expect(created.status).toBe(200);
    return { ...created.body, mandate: saved.body.mandate as string };
  };
  const unpaid = await subscribe('unpaid');
  const canceled = await subscribe('canceled');
  expect([unpaid.status, canceled.status]).toEqual(['trialing', 'trialing']);

  const advanced = await api('POST', `/v1/test-clocks/${clock.body.id}/advance`, {
    frozen_time: '2028-02-01T00:00:00Z',
  });
  expect(advanced.status).toBe(200);
  expect(advanced.body.status).toBe('ready');

  const firstInvoice = new Map<string, string>();
  for (const [sub, end] of [
    [unpaid, 'unpaid'],
    [canceled, 'canceled'],
  ] as const) {
    const now = (await api('GET', `/v1/subscriptions/${sub.id}`)).body;
    expect(now).toMatchObject({ status: end, next_action_at: null });
    const invoices = (await api('GET', `/v1/invoices?subscription=${sub.id}&limit=100`)).body.data;
    expect(invoices.map((i: any) => [i.period_start, i.status, i.total, i.amount_due])).toEqual([
      ['2028-01-15T00:00:00.000Z', 'open', 2000, 2000],
    ]);
    firstInvoice.set(sub.id, invoices[0].id);
    // Every collection attempt, at the clock's time of the attempt, through the customer's mandate.
    const commands = await suite.platform.sql<{ payload: any }>(
      'invoicing',
      `select payload from invoicing.outbox where topic = 'payments.commands.v1'
        and payload->'data'->>'invoice' = $1 order by id`,
      [invoices[0].id],
    );
    expect(
      commands.map((c) => [c.payload.data.reference, c.payload.data.mandate, c.payload.created_at]),
    ).toEqual([
      [`${invoices[0].id}:1`, sub.mandate, '2028-01-15T00:00:00.000Z'],
      [`${invoices[0].id}:2`, sub.mandate, '2028-01-16T00:00:00.000Z'],
      [`${invoices[0].id}:3`, sub.mandate, '2028-01-18T00:00:00.000Z'],
      [`${invoices[0].id}:4`, sub.mandate, '2028-01-20T00:00:00.000Z'],
      [`${invoices[0].id}:5`, sub.mandate, '2028-01-22T00:00:00.000Z'],
    ]);
  }

  // The bus keeps each object's events in order, not one object's against another's: wait for
  // the invoices' failures and for each subscription's last event (billing-card-0341.test.ts).
  const events = await eventually(async () => {
    const all = await allEvents(suite.platform, suite.account.testKey);
    const ended = (id: string, type: string, status: string) =>
      all.some((e) => e.type === type && e.data.object.id === id && e.data.object.status === status);
    return all.filter((e) => e.type === 'invoice.payment_failed').length >= 10 &&
      ended(unpaid.id, 'subscription.updated', 'unpaid') &&
      ended(canceled.id, 'subscription.canceled', 'canceled')
      ? all
      : undefined;
  }, 30_000);
  const of = (id: string) =>
    events
      .filter((e) => e.type.startsWith('subscription.') && e.data.object.id === id)
      .map((e) => [e.type, e.data.object.status, e.created_at]);
  expect(of(unpaid.id)).toEqual([
    ['subscription.created', 'trialing', '2028-01-01T00:00:00.000Z'],
    ['subscription.trial_will_end', 'trialing', '2028-01-12T00:00:00.000Z'],
    ['subscription.updated', 'active', '2028-01-15T00:00:00.000Z'],
    ['subscription.past_due', 'past_due', '2028-01-15T00:00:00.000Z'],
    ['subscription.updated', 'unpaid', '2028-01-22T00:00:00.000Z'],
  ]);
  expect(of(canceled.id).slice(-2)).toEqual([
    ['subscription.past_due', 'past_due', '2028-01-15T00:00:00.000Z'],
    ['subscription.canceled', 'canceled', '2028-01-22T00:00:00.000Z'],
  ]);
  for (const sub of [unpaid, canceled]) {
    const invoice = firstInvoice.get(sub.id);
    const invoiceTypes = events
      .filter((e) => e.type.startsWith('invoice.') && e.data.object.subscription === sub.id)
      .map((e) => e.type);
    expect(invoiceTypes.filter((t) => t === 'invoice.paid')).toHaveLength(0);
    expect(invoiceTypes.filter((t) => t === 'invoice.payment_failed')).toHaveLength(5);
    expect(invoiceTypes.filter((t) => t === 'invoice.finalized')).toHaveLength(1);
    // The payments side: the saving payment succeeded, each mandate charge failed, once each.
    expect(
      events.filter((e) => e.type === 'mandate.created' && e.data.object.id === sub.mandate),
    ).toHaveLength(1);
    const failed = events.filter((e) => e.type === 'payment.failed' && e.data.object.invoice === invoice);
    expect(failed.map((e) => [e.data.object.mandate, e.data.object.reference]).sort()).toEqual(
      [1, 2, 3, 4, 5].map((n) => [sub.mandate, `${invoice}:${n}`]),
    );
    expect(
      events.filter((e) => e.type === 'payment.succeeded' && e.data.object.invoice === invoice),
    ).toHaveLength(0);
  }

  // Every event of the account was delivered to the endpoint, signed with its secret, once.
  const verifier = new Webhook(endpoint.body.secret);
  const { listed, delivered } = await eventually(async () => {
    // Listed afresh each time: the comparison is with everything committed so far.
    const now = await allEvents(suite.platform, suite.account.testKey);
    const ids = new Set(receiver.received.map((r) => r.id));
    return now.every((e) => ids.has(e.id)) ? { listed: now, delivered: [...receiver.received] } : undefined;
  }, 60_000);
  expect(listed.length).toBeGreaterThanOrEqual(events.length);
  const payloads = delivered.map((r) => verifier.verify(r.body, r.headers) as { id: string; type: string });
  expect(payloads.map((p) => p.id).sort()).toEqual(listed.map((e) => e.id).sort());
  expect(payloads.map((p) => p.id)).toEqual(delivered.map((r) => r.id));
  // The dunning walk itself was among them: five failed collections per subscription.
  expect(payloads.filter((p) => p.type === 'invoice.payment_failed')).toHaveLength(10);
  expect(payloads.filter((p) => p.type === 'subscription.past_due')).toHaveLength(2);

  // Unpaid bills nothing more; canceled neither.
  await api('POST', `/v1/test-clocks/${clock.body.id}/advance`, { frozen_time: '2028-04-01T00:00:00Z' });
  for (const sub of [unpaid, canceled]) {
    expect((await api('GET', `/v1/invoices?subscription=${sub.id}&limit=100`)).body.data).toHaveLength(1);
  }
});
