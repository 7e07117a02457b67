// Costs that stay flat, payments (docs/scaling.md): the statements the real checkout, refund,
// list and outbox-relay code sends, recorded as it runs against 1,000,000 rows of each large
// table, then EXPLAINed with their own parameters. A Seq Scan of a large table, or a node
// estimated to produce more rows than a page bounds, fails the path.

import { createLogger, OutboxRelay, type BusMessage, type EventBus } from '@paygrid/platform';
import { PAYMENTS_MIGRATIONS } from '../../apps/payments/src/payments';
import { CheckoutFormTokens } from '../../apps/payments/src/card-payments/checkout-form-token';
import { PayByCard } from '../../apps/payments/src/card-payments/pay-by-card';
import { ConnectorRouter } from '../../apps/payments/src/connectors/connector-router';
import { SandboxConnector } from '../../apps/payments/src/connectors/sandbox.connector';
import { StripeProcessor } from '../../apps/payments/src/connectors/stripe';
import { MandatesService } from '../../apps/payments/src/mandates/mandates.service';
import { PaymentLinksService } from '../../apps/payments/src/payment-links/payment-links.service';
import { ProcessorConnectionsService } from '../../apps/payments/src/processor-connections/processor-connections.service';
import { RefundsService } from '../../apps/payments/src/refunds/refunds.service';
import { TransactionsService } from '../../apps/payments/src/transactions/transactions.service';
import type { ListTransactionsQuery } from '../../apps/payments/src/transactions/transactions.dto';
import { LARGE, planFixture, planTable, problemsOf, type PlanFixture } from './support/plans';

/** 50 accounts: the tested one (account 0, test mode) holds 2 % of each table (20,000 rows of 1,000,000). */
const ACCOUNTS = 50;
const LINKS = 2_000;
const tenant = { account: 'acct_plans00000000', livemode: false };
const id = (prefix: string, expr: string) => `'${prefix}_' || lpad((${expr})::text, 10, '0')`;
const account = (expr: string) =>
  `case when (${expr}) % ${ACCOUNTS} = 0 then '${tenant.account}' else 'acct_' || lpad(((${expr}) % ${ACCOUNTS})::text, 12, '0') end`;
/** Values of one account vary with i / ACCOUNTS, so they do not correlate with the account. */
const within = `(i / ${ACCOUNTS})`;

/**
 * One INSERT ... SELECT per table, $1 being the seed's "now" (the services run on a clock
 * frozen there). At both sizes transactions and refunds span a year and checkout submissions
 * the last hour, so the larger table is ten times the traffic: the in-flight count's
 * two-minute window holds 1/30 of the submissions (33,000 at 1,000,000, ~280 checkouts/s).
 */
const SEED = (n: number) => [
  `insert into payments.payment_links (id, account_id, livemode, type, amount, currency, amount_total,
     max_completions, status, created_at, updated_at)
   select ${id('plink', 'i')}, ${account('i')}, false, 'one_time', 1000, 'eur', 1000,
     case when ${within} % 2 = 0 then 1000000 end, 'active', $1::timestamptz - i * interval '1 minute', $1
   from generate_series(0, ${LINKS - 1}) i`,
  `insert into payments.checkout_submissions (token_hash, payment_link_id, transaction_id, created_at)
   select md5(i::text), ${id('plink', `i % ${LINKS}`)}, case when i % 50 <> 7 then ${id('txn', 'i')} end,
     $1::timestamptz - i * interval '1 second' * ${3600 / n}
   from generate_series(1, ${n}) i`,
  `insert into payments.transactions (id, account_id, livemode, merchant_id, type, status, amount, currency,
     payment_link, processor_reference, created_at, updated_at)
   select ${id('txn', 'i')}, ${account('i')}, i % 10 = 3, ${id('mer', `(i % ${ACCOUNTS}) * 100 + ${within} % 10`)},
     'payment', (array['succeeded', 'succeeded', 'succeeded', 'failed', 'pending'])[1 + ${within} % 5],
     100 + (${within} * 7919) % 100000, (array['eur', 'usd', 'gbp'])[1 + ${within} % 3],
     case when ${within} % 3 = 0 then ${id('plink', `i % ${LINKS}`)} end,
     'sbx_' || i, $1::timestamptz - i * interval '1 second' * ${31_536_000 / n}, $1
   from generate_series(1, ${n}) i`,
  `insert into payments.refunds (id, account_id, livemode, transaction_id, refund_transaction_id, amount, currency,
     status, created_at, updated_at)
   select ${id('re', 'i')}, ${account('i')}, i % 10 = 3, ${id('txn', 'i')}, ${id('txn', 'i')}, 100, 'eur',
     case when ${within} % 100 = 0 then 'failed' else 'succeeded' end,
     $1::timestamptz - i * interval '1 second' * ${31_536_000 / n}, $1
   from generate_series(1, ${n}) i`,
  `insert into payments.outbox (topic, key, message_id, payload, published_at)
   select 'payments.transactions', 'k' || i, 'evt_' || i, '{}'::jsonb,
     case when i <= ${n} - 20 then $1::timestamptz - interval '1 minute' end
   from generate_series(1, ${n}) i`,
];

/** The relay publishes to whatever bus it is given; here the messages are only counted. */
class CountingBus implements EventBus {
  readonly transport = 'none' as const;
  published = 0;
  async connect(): Promise<void> {}
  async publish(_topic: string, messages: BusMessage[]): Promise<void> {
    this.published += messages.length;
  }
  async subscribe(): Promise<void> {}
  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}

const silent = createLogger('plans', 'silent');

let fixture: PlanFixture;

let transactions: TransactionsService;
let refunds: RefundsService;
let links: PaymentLinksService;
let payByCard: PayByCard;
let checkoutForms: CheckoutFormTokens;

beforeAll(async () => {
  fixture = await planFixture([{ schema: 'payments', migrations: PAYMENTS_MIGRATIONS }], SEED);
  const { db, seededAt } = fixture;
  // Frozen at the seed's "now", so the windows the code computes (the last two minutes) fall
  // where the seed put them however long seeding took.
  const clock = { now: () => new Date(seededAt) };
  const processorConnections = new ProcessorConnectionsService(
    db,
    clock,
    { stripe: new StripeProcessor({ host: '127.0.0.1', port: 9, protocol: 'http' }) },
    undefined,
  );
  const connectors = new ConnectorRouter(new SandboxConnector(), processorConnections);
  transactions = new TransactionsService(db, clock, connectors);
  refunds = new RefundsService(db, clock, connectors);
  links = new PaymentLinksService(db, clock, 'http://localhost');
  payByCard = new PayByCard(transactions, new MandatesService(db, clock, connectors, transactions, silent));
  checkoutForms = new CheckoutFormTokens(db, clock, links);
}, 600_000);

afterAll(async () => {
  if (!fixture) return;
  console.log(
    `Plans of the payments hot paths (${LARGE.toLocaleString('en')} rows per large table):\n${planTable(fixture.reports)}`,
  );
  await fixture.close();
});

const plans = (path: string, work: () => Promise<unknown>) => fixture.plans(path, work);

test('the seed is large: 1,000,000 rows in each large table, the tested account holding 20,000', () => {
  for (const table of ['checkout_submissions', 'transactions', 'refunds', 'outbox']) {
    expect(fixture.rows.get(`payments.${table}`)).toBeGreaterThan(0.9 * LARGE);
  }
});

test('checkout: a hosted-form card payment of a link with a completion limit (claim, in-flight count, charge, completion)', async () => {
  const link = await links.findPublic(`plink_${'0'.repeat(10)}`);
  if (!link) throw new Error('seeded link missing');
  expect(link.max_completions).not.toBeNull();
  const found = await plans('checkout', async () => {
    const result = await payByCard.pay({
      tenant,
      charge: { amount: 1000n, currency: link.currency, payment_link: link.id },
      card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' },
      form: checkoutForms.of(link, `plans-${Date.now()}`),
    });
    expect(result.kind).toBe('charged');
  });
  expect(found.some((r) => /checkout_submissions\s+where payment_link_id/.test(r.statement))).toBe(true);
  expect(problemsOf(found)).toEqual([]);
});

test('refund: a partial refund of a succeeded payment (reserve, saga, settle)', async () => {
  const found = await plans('refund', async () => {
    const { refund } = await refunds.create(tenant, { transaction: `txn_${'0'.repeat(7)}100`, amount: 100 });
    expect(refund.status).toBe('succeeded');
  });
  expect(problemsOf(found)).toEqual([]);
});

test('refund: a full refund, its amount the remainder read under the lock of the reserving statement', async () => {
  const found = await plans('full refund', async () => {
    const { refund } = await refunds.create(tenant, { transaction: `txn_${'0'.repeat(7)}250` });
    expect(refund).toMatchObject({ status: 'succeeded', amount: String(100 + ((5 * 7919) % 100_000)) });
  });
  expect(found.some((r) => /with remaining as/.test(r.statement))).toBe(true);
  expect(problemsOf(found)).toEqual([]);
});

const transactionFilters: [string, Partial<ListTransactionsQuery>][] = [
  ['no filter', {}],
  ['merchant', { merchant: `mer_${'0'.repeat(10)}` }],
  ['type', { type: 'payment' }],
  ['status', { status: 'pending' }],
  ['payment_link', { payment_link: `plink_${'0'.repeat(10)}` }],
  ['currency', { currency: 'usd' }],
  ['amount range', { amount: { gte: 50_000 } as ListTransactionsQuery['amount'] }],
  ['created range', { created: { gte: new Date(Date.now() - 7 * 86_400_000) } }],
  ['3 filters', { status: 'succeeded', currency: 'eur', created: { lt: new Date() } }],
  ['starting_after', { starting_after: `txn_${'0'.repeat(7)}500` }],
  ['ending_before', { ending_before: `txn_${'0'.repeat(7)}500` }],
];

test.each(transactionFilters)('list transactions, page of 100, filter: %s', async (name, filter) => {
  const found = await plans(`transactions list (${name})`, () =>
    transactions.list(tenant, { limit: 100, ...filter } as ListTransactionsQuery),
  );
  expect(problemsOf(found)).toEqual([]);
});

test.each([
  ['no filter', {}],
  ['created range', { created: { gte: new Date(Date.now() - 7 * 86_400_000) } }],
  ['starting_after', { starting_after: `re_${'0'.repeat(7)}500` }],
])('list refunds, page of 100, filter: %s', async (name, filter) => {
  const found = await plans(`refunds list (${name})`, () => refunds.list(tenant, { limit: 100, ...filter }));
  expect(problemsOf(found)).toEqual([]);
});

test('outbox relay: one batch of unpublished rows out of 1,000,000', async () => {
  const bus = new CountingBus();
  const relay = new OutboxRelay(fixture.db, bus, silent);
  const found = await plans('outbox relay', () => relay.publishBatch());
  expect(bus.published).toBeGreaterThan(0);
  expect(problemsOf(found)).toEqual([]);
});
