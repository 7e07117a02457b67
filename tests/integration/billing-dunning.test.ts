// Dunning on a test clock, in whichever mode the project runs, with the payments side played
// by a stand-in: it reads the payment.charge_mandate commands the invoicing service wrote
// and answers each with the payment event the payments service would emit, written to the
// payments service's own outbox so its real relay publishes it over the real bus (embedded
// bus or Kafka). It behaves like the sandbox card 4000 0000 0000 0341 on a mandate: the
// first charge succeeds, every later one fails. The same scenario through the real payments
// service (card form, mandate, charge consumer) is tests/integration/billing-card-0341.test.ts.
//
// Also checks that the advance waits for those asynchronous outcomes: the retry schedule
// (+1, +3, +5, +7 days after the first attempt) only exists if each failure came back
// before the clock moved on.

import { randomBytes } from 'node:crypto';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;

const hex = (n: number) => randomBytes(n).toString('hex');
const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  stopResponder = true;
  await responder;
  await platform?.stop();
});

/** Writes a payments event to the payments service's outbox; its relay publishes it. */
async function emitPaymentsEvent(type: string, object: Record<string, unknown>, at: string): Promise<void> {
  const event = {
    id: `evt_${hex(12)}`,
    object: 'event',
    type,
    created_at: at,
    livemode: false,
    account: account.id,
    data: { object },
  };
  await platform.sql(
    'payments',
    `insert into payments.outbox (topic, key, message_id, payload) values ('payments.events.v1', $1, $2, $3::jsonb)`,
    [account.id, event.id, JSON.stringify(event)],
  );
  await platform.sql('payments', `select pg_notify('paygrid_outbox_payments', '')`);
}

/** The stand-in's mandates (one per customer): each charges once, then fails. */
const mandates = new Map<string, number>();
let stopResponder = false;
let responder: Promise<void> = Promise.resolve();
const answered = new Set<string>();

/** Answers this account's charge commands for the stand-in mandates: each one's first succeeds, the rest fail (card 0341). */
function startResponder(): void {
  responder = (async () => {
    while (!stopResponder) {
      const commands = await platform.sql<{ payload: any }>(
        'invoicing',
        `select payload from invoicing.outbox where topic = 'payments.commands.v1' order by id`,
      );
      for (const { payload } of commands) {
        const charges = mandates.get(payload.data.mandate);
        if (payload.account !== account.id || charges === undefined || answered.has(payload.id)) continue;
        answered.add(payload.id);
        mandates.set(payload.data.mandate, charges + 1);
        const ok = charges === 0;
        await emitPaymentsEvent(
          ok ? 'payment.succeeded' : 'payment.failed',
          {
            id: `txn_${hex(12)}`,
            object: 'transaction',
            type: 'payment',
            status: ok ? 'succeeded' : 'failed',
            amount: payload.data.amount,
            currency: payload.data.currency,
            invoice: payload.data.invoice,
            customer: payload.data.customer,
            mandate: payload.data.mandate,
            reference: payload.data.reference,
            failure_code: ok ? null : 'card_declined',
            failure_message: ok ? null : 'The card was declined.',
          },
          new Date().toISOString(),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
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

it('walks a failing card through +1/+3/+5/+7-day retries to past_due, then unpaid or canceled per setting', async () => {
  const clock = await api('POST', '/v1/test-clocks', { frozen_time: '2028-01-01T00:00:00Z' });
  startResponder();

  /** A customer on the clock with a stand-in mandate, subscribed monthly with a 14-day trial. */
  const subscribe = async (end: 'unpaid' | 'canceled') => {
    const customer = await api('POST', '/v1/customers', {
      name: `Dunning ${end}`,
      email: 'ap@dunning.test',
      currency: 'EUR',
      test_clock: clock.body.id,
    });
    const mandate = `mdt_standin${hex(8)}`;
    mandates.set(mandate, 0);
    await emitPaymentsEvent(
      'mandate.created',
      { id: mandate, object: 'mandate', status: 'active', customer: customer.body.id },
      new Date().toISOString(),
    );
    await eventually(async () => {
      const got = await api('GET', `/v1/customers/${customer.body.id}`);
      return got.body.default_mandate === mandate ? true : undefined;
    });
    const created = await api('POST', '/v1/subscriptions', {
      customer: customer.body.id,
      items: [{ description: `Plan ${end}`, unit_amount: 2000, currency: 'EUR', interval: 'month' }],
      trial_period_days: 14,
      dunning_end_state: end,
    });
    expect(created.status).toBe(200);
    return created.body;
  };
  const unpaid = await subscribe('unpaid');
  const canceled = await subscribe('canceled');
  expect([unpaid.status, canceled.status]).toEqual(['trialing', 'trialing']);

  const advanced = await api('POST', `/v1/test-clocks/${clock.body.id}/advance`, {
    frozen_time: '2028-02-25T00:00:00Z',
  });
  expect(advanced.status).toBe(200);
  expect(advanced.body.status).toBe('ready');

  for (const [sub, end] of [
    [unpaid, 'unpaid'],
    [canceled, 'canceled'],
  ] as const) {
    const now = (await api('GET', `/v1/subscriptions/${sub.id}`)).body;
    expect(now).toMatchObject({ status: end, next_action_at: null });
    const invoices = (await api('GET', `/v1/invoices?subscription=${sub.id}&limit=100`)).body.data.reverse();
    expect(invoices.map((i: any) => [i.period_start, i.status, i.total])).toEqual([
      ['2028-01-15T00:00:00.000Z', 'paid', 2000],
      ['2028-02-15T00:00:00.000Z', 'open', 2000],
    ]);
    // Every collection attempt of the renewal, at the clock's time of the attempt.
    const commands = await platform.sql<{ payload: any }>(
      'invoicing',
      `select payload from invoicing.outbox where topic = 'payments.commands.v1'
        and payload->'data'->>'invoice' = $1 order by id`,
      [invoices[1].id],
    );
    expect(commands.map((c) => [c.payload.data.reference, c.payload.created_at])).toEqual([
      [`${invoices[1].id}:1`, '2028-02-15T00:00:00.000Z'],
      [`${invoices[1].id}:2`, '2028-02-16T00:00:00.000Z'],
      [`${invoices[1].id}:3`, '2028-02-18T00:00:00.000Z'],
      [`${invoices[1].id}:4`, '2028-02-20T00:00:00.000Z'],
      [`${invoices[1].id}:5`, '2028-02-22T00:00:00.000Z'],
    ]);
  }

  const events = await eventually(async () => {
    const all = await allEvents();
    return all.filter((e) => e.type === 'invoice.payment_failed').length >= 10 ? all : undefined;
  }, 30_000);
  const of = (id: string) =>
    events
      .filter((e) => e.type.startsWith('subscription.') && e.data.object.id === id)
      .map((e) => [e.type, e.data.object.status, e.created_at]);
  expect(of(unpaid.id)).toEqual([
    ['subscription.created', 'trialing', '2028-01-01T00:00:00.000Z'],
    ['subscription.trial_will_end', 'trialing', '2028-01-12T00:00:00.000Z'],
    ['subscription.updated', 'active', '2028-01-15T00:00:00.000Z'],
    ['subscription.renewed', 'active', '2028-02-15T00:00:00.000Z'],
    ['subscription.past_due', 'past_due', '2028-02-15T00:00:00.000Z'],
    ['subscription.updated', 'unpaid', '2028-02-22T00:00:00.000Z'],
  ]);
  expect(of(canceled.id).slice(-2)).toEqual([
    ['subscription.past_due', 'past_due', '2028-02-15T00:00:00.000Z'],
    ['subscription.canceled', 'canceled', '2028-02-22T00:00:00.000Z'],
  ]);
  for (const sub of [unpaid, canceled]) {
    const invoiceTypes = events
      .filter((e) => e.type.startsWith('invoice.') && e.data.object.subscription === sub.id)
      .map((e) => e.type);
    expect(invoiceTypes.filter((t) => t === 'invoice.paid')).toHaveLength(1);
    expect(invoiceTypes.filter((t) => t === 'invoice.payment_failed')).toHaveLength(5);
    expect(invoiceTypes.filter((t) => t === 'invoice.finalized')).toHaveLength(2);
  }

  // Unpaid bills nothing more; canceled neither.
  await api('POST', `/v1/test-clocks/${clock.body.id}/advance`, { frozen_time: '2028-04-01T00:00:00Z' });
  for (const sub of [unpaid, canceled]) {
    expect((await api('GET', `/v1/invoices?subscription=${sub.id}&limit=100`)).body.data).toHaveLength(2);
  }
});
