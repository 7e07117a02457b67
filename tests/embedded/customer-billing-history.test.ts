// A customer's billing history and billing summary from real payment facts, at the service
// level against the embedded database. The facts go through the payments feed's consumer
// function (recordPaymentFact), as payments.events.v1 delivers them. The end-to-end case (a
// payment made for a customer through the public API) waits until payments can name a
// customer.

import type { EventEnvelope } from '@paygrid/contracts';
import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { buildEvent, createLogger, type Database, type EventInput } from '@paygrid/platform';
import { CustomersService } from '../../apps/invoicing/src/customers/customers.service';
import { recordPaymentFact } from '../../apps/invoicing/src/payments-feed/payments-feed';

let embedded: Embedded;
let db: Database;
let customers: CustomersService;
const tenant = { account: 'acct_history01', livemode: false };
const minute = (n: number) => new Date(Date.UTC(2026, 0, 15, 12, n));

async function record(type: EventInput['type'], object: Record<string, unknown>, at: Date) {
  const event = buildEvent({
    type,
    account: tenant.account,
    livemode: false,
    object,
    at,
  }) as EventEnvelope<any>;
  await db.transaction((tx) => recordPaymentFact(event, tx));
  return event;
}

beforeAll(async () => {
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    demo: false,
    logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
  });
  db = embedded.services.invoicing.runtime.db;
  customers = new CustomersService(db, embedded.services.invoicing.runtime.clock);
});

afterAll(async () => {
  await embedded?.stop();
});

it("pages the customer's payments and their refunds, newest first, and sums what was paid", async () => {
  const customer = await customers.create(tenant, { name: 'Jenny', currency: 'GBP' });
  const other = await customers.create(tenant, { name: 'Someone else', currency: 'GBP' });
  const payment = (id: string, customer: string, amount: number, currency = 'GBP') => ({
    id,
    object: 'transaction',
    customer,
    amount,
    currency,
  });

  const succeeded = await record(
    'payment.succeeded',
    payment('txn_paid00000001', customer.id, 1500),
    minute(1),
  );
  await record('payment.failed', payment('txn_failed000001', customer.id, 700), minute(2));
  await record('payment.succeeded', payment('txn_dollars00001', customer.id, 900, 'USD'), minute(3));
  await record('payment.succeeded', payment('txn_others000001', other.id, 5000), minute(4));
  const refund = {
    id: 're_refund0000001',
    object: 'refund',
    transaction: 'txn_paid00000001',
    amount: 500,
    currency: 'GBP',
  };
  await record('refund.created', refund, minute(5));
  await record('refund.succeeded', refund, minute(6));
  // A redelivered event is recorded once.
  await db.transaction((tx) => recordPaymentFact(succeeded, tx));

  const all = await customers.billingHistory(tenant, customer.id, { limit: 100 });
  expect(all.url).toBe(`/v1/customers/${customer.id}/billing-history`);
  expect(all.has_more).toBe(false);
  expect(all.data).toEqual([
    {
      object: 'billing_history_item',
      type: 'refund',
      id: 're_refund0000001',
      status: 'succeeded',
      amount: 500,
      currency: 'GBP',
      occurred_at: minute(5).toISOString(),
      updated_at: minute(6).toISOString(),
    },
    expect.objectContaining({
      type: 'payment',
      id: 'txn_dollars00001',
      status: 'succeeded',
      currency: 'USD',
    }),
    expect.objectContaining({ type: 'payment', id: 'txn_failed000001', status: 'failed', amount: 700 }),
    expect.objectContaining({ type: 'payment', id: 'txn_paid00000001', status: 'succeeded', amount: 1500 }),
  ]);

  const first = await customers.billingHistory(tenant, customer.id, { limit: 2 });
  expect(first.data.map((i) => i.id)).toEqual(['re_refund0000001', 'txn_dollars00001']);
  expect(first.has_more).toBe(true);
  const second = await customers.billingHistory(tenant, customer.id, {
    limit: 2,
    starting_after: 'txn_dollars00001',
  });
  expect(second.data.map((i) => i.id)).toEqual(['txn_failed000001', 'txn_paid00000001']);
  expect(second.has_more).toBe(false);
  const back = await customers.billingHistory(tenant, customer.id, {
    limit: 2,
    ending_before: 'txn_failed000001',
  });
  expect(back.data.map((i) => i.id)).toEqual(['re_refund0000001', 'txn_dollars00001']);
  expect(back.has_more).toBe(false);
  const newest = await customers.billingHistory(tenant, customer.id, {
    limit: 2,
    ending_before: 'txn_paid00000001',
  });
  expect(newest.data.map((i) => i.id)).toEqual(['txn_dollars00001', 'txn_failed000001']);
  expect(newest.has_more).toBe(true);
  const ranged = await customers.billingHistory(tenant, customer.id, {
    created: { gte: minute(2), lt: minute(5) },
  });
  expect(ranged.data.map((i) => i.id)).toEqual(['txn_dollars00001', 'txn_failed000001']);
  await expect(
    customers.billingHistory(tenant, customer.id, { starting_after: 'txn_others000001' }),
  ).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after' });
  await expect(
    customers.billingHistory(tenant, customer.id, { ending_before: 'txn_others000001' }),
  ).rejects.toMatchObject({ code: 'resource_missing', param: 'ending_before' });
  await expect(
    customers.billingHistory(tenant, customer.id, {
      starting_after: 'txn_dollars00001',
      ending_before: 'txn_failed000001',
    }),
  ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'ending_before' });

  // Succeeded payments in the customer's currency; invoices do not exist yet.
  expect(await customers.billingSummary(customer)).toEqual({
    total_invoiced: 0,
    total_paid: 1500,
    balance_due: 0,
    currency: 'GBP',
    invoice_count: 0,
  });
  const otherHistory = await customers.billingHistory(tenant, other.id, {});
  expect(otherHistory.data.map((i) => i.id)).toEqual(['txn_others000001']);
  await expect(
    customers.billingHistory({ ...tenant, livemode: true }, customer.id, {}),
  ).rejects.toMatchObject({ code: 'resource_missing' });
});
