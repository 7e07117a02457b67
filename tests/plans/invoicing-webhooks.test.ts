// Costs that stay flat, invoicing and webhooks (docs/scaling.md): the webhooks delivery claim
// over 1,000,000 deliveries (and events), the billing engine's claim over 1,000,000
// subscriptions and the invoices list with each filter over 1,000,000 invoices, as the real
// DeliveryWorker, BillingEngine and InvoicesService send them, EXPLAINed at 1,000,000 and
// 100,000 rows.

import { createLogger } from '@paygrid/platform';
import { WEBHOOKS_MIGRATIONS } from '../../apps/webhooks/src/webhooks';
import { DeliveryWorker } from '../../apps/webhooks/src/delivery/worker';
import { anyClaimable, releaseExpiredLeases } from '../../apps/webhooks/src/delivery/claim';
import { INVOICING_MIGRATIONS } from '../../apps/invoicing/src/invoicing';
import { BillingEngine } from '../../apps/invoicing/src/billing/billing-engine';
import { InvoicesService } from '../../apps/invoicing/src/invoices/invoices.service';
import type { ListInvoicesQuery } from '../../apps/invoicing/src/invoices/invoices.dto';
import { LARGE, planFixture, planTable, problemsOf, type PlanFixture } from './support/plans';

const ENDPOINTS = 1_000;
const CUSTOMERS = 10_000;
const silent = createLogger('plans', 'silent');
/** 50 accounts; the tested one (account 0) holds 2 % of the invoices (20,000 of 1,000,000). */
const tenant = { account: `acct_${'0'.repeat(12)}`, livemode: false };
const acct = (expr: string) => `'acct_' || lpad(((${expr}) % 50)::text, 12, '0')`;
const within = '(i / 50)';

/**
 * Deliveries: 1 % pending (retries spread over the next hour, one in ten already due), the
 * rest delivered, over 1,000 endpoints. Subscriptions: next actions spread over 30 days from
 * the seed's "now" (none due: the claim's plan is the point, not the renewals), 1 in 100 on a
 * test clock; each has one billed period (1 in 100 failed, a retry due tomorrow) and one
 * proration (1 in 100 still pending). Invoices: a year of them, each of a customer of its own account, statuses mixed.
 * $1 is the seed's "now".
 */
const SEED = (n: number) => [
  `insert into webhooks.endpoints (id, account_id, livemode, url, enabled_events, secret, created_at, updated_at)
   select 'we_' || lpad(i::text, 10, '0'), 'acct_' || lpad((i % 50)::text, 12, '0'), false,
     'https://receiver.example/' || i, array['*'], 'whsec_x', $1, $1
   from generate_series(0, ${ENDPOINTS - 1}) i`,
  `insert into webhooks.events (id, account_id, livemode, type, payload, created_at)
   select 'evt_' || i, ${acct('i')}, false, 'transaction.succeeded', '{}'::jsonb, $1::timestamptz - i * interval '1 second'
   from generate_series(1, ${n}) i`,
  `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, payload, account_id, livemode,
     status, next_attempt_at, created_at, updated_at)
   select 'wd_' || lpad(i::text, 10, '0'), 'we_' || lpad((i % ${ENDPOINTS})::text, 10, '0'), 'evt_' || i,
     'transaction.succeeded', 'txn_' || (i % ${n / 10}), '{}'::jsonb, 'acct_' || lpad((i % 50)::text, 12, '0'), false,
     case when i % 100 = 0 then 'pending' else 'succeeded' end,
     case when i % 100 = 0 then $1::timestamptz + (i % 3600 - 360) * interval '1 second' end,
     $1::timestamptz - i * interval '1 second', $1
   from generate_series(1, ${n}) i`,
  `insert into invoicing.test_clocks (id, account_id, livemode, frozen_time, status, created_at, updated_at)
   select 'clock_' || i, 'acct_' || lpad((i % 50)::text, 12, '0'), false, $1, 'ready', $1, $1
   from generate_series(0, 999) i`,
  `insert into invoicing.customers (id, account_id, livemode, created_at, updated_at)
   select 'cus_' || lpad(i::text, 10, '0'), 'acct_' || lpad((i % 50)::text, 12, '0'), false, $1, $1
   from generate_series(0, ${CUSTOMERS - 1}) i`,
  `insert into invoicing.invoices (id, account_id, livemode, customer_id, status, currency, collection_method,
     lines, subtotal, discount_total, tax_total, total, amount_due, page_token, due_date, created_at, updated_at)
   select 'in_' || lpad(i::text, 10, '0'), ${acct('i')}, false,
     'cus_' || lpad((i % 50 + 50 * (${within} % ${CUSTOMERS / 50}))::text, 10, '0'),
     (array['paid', 'paid', 'paid', 'open', 'void', 'draft', 'uncollectible', 'paid'])[1 + ${within} % 8], 'eur',
     'send_invoice', '[]'::jsonb, 1000, 0, 0, 1000, 1000, md5('in' || i),
     $1::timestamptz - i * interval '1 second' * ${31_536_000 / n} + interval '30 days',
     $1::timestamptz - i * interval '1 second' * ${31_536_000 / n}, $1
   from generate_series(1, ${n}) i`,
  `insert into invoicing.subscriptions (id, account_id, livemode, customer_id, status, currency, interval,
     interval_count, items, time_zone, billing_cycle_anchor, start_date, bill_from, collection_method,
     dunning_end_state, next_period_index, next_action_at, test_clock, created_at, updated_at)
   select 'sub_' || lpad(i::text, 10, '0'), 'acct_' || lpad((i % 50)::text, 12, '0'), false,
     'cus_' || lpad((i % ${CUSTOMERS})::text, 10, '0'), 'active', 'eur', 'month', 1, '[]'::jsonb, 'UTC',
     $1, $1, $1, 'send_invoice', 'unpaid', 1,
     $1::timestamptz + (1 + i % 2592000) * interval '1 second',
     case when i % 100 = 0 then 'clock_' || (i % 1000) end, $1, $1
   from generate_series(1, ${n}) i`,
  `insert into invoicing.subscription_periods (subscription_id, period_index, account_id, livemode, test_clock,
     period_start, period_end, billed_from, outcome, invoice_id, amount, payment_status, attempts, next_retry_at,
     created_at)
   select id, 0, account_id, false, test_clock, $1::timestamptz - interval '1 month', $1, $1::timestamptz - interval '1 month',
     'invoiced', 'in_p' || id, 1000, case when right(id, 2) = '00' then 'failed' else 'paid' end, 1,
     case when right(id, 2) = '00' then $1::timestamptz + interval '1 day' end, $1
   from invoicing.subscriptions`,
  `insert into invoicing.subscription_prorations (id, subscription_id, description, amount, period_start, period_end,
     invoice_id, created_at)
   select 'pr_' || id, id, 'Plan (unused time)', -500, $1::timestamptz - interval '1 month', $1,
     case when right(id, 2) <> '00' then 'in_p' || id end, $1
   from invoicing.subscriptions`,
];

let fixture: PlanFixture;

beforeAll(async () => {
  fixture = await planFixture(
    [
      { schema: 'webhooks', migrations: WEBHOOKS_MIGRATIONS },
      { schema: 'invoicing', migrations: INVOICING_MIGRATIONS },
    ],
    SEED,
  );
}, 600_000);

afterAll(async () => {
  if (!fixture) return;
  console.log(
    `Plans of the background claims (${LARGE.toLocaleString('en')} rows per large table):\n${planTable(fixture.reports)}`,
  );
  await fixture.close();
});

test('the seed is large: 1,000,000 events, deliveries, subscriptions, their periods and prorations, invoices', () => {
  for (const table of [
    'webhooks.events',
    'webhooks.deliveries',
    'invoicing.subscriptions',
    'invoicing.subscription_periods',
    'invoicing.subscription_prorations',
    'invoicing.invoices',
  ]) {
    expect(fixture.rows.get(table)).toBeGreaterThan(0.9 * LARGE);
  }
});

test('webhooks delivery claim: due deliveries, per-object order, per-endpoint in-flight limit', async () => {
  const clock = { now: () => new Date(fixture.seededAt) };
  const worker = new DeliveryWorker(fixture.database('webhooks'), clock, silent, { allowPrivate: false });
  // The claim alone (no POST): the round's private first step, run as the worker runs it.
  const claim = (worker as unknown as { claim(): Promise<unknown[]> }).claim.bind(worker);
  const found = await fixture.plans('delivery claim', async () => {
    expect((await claim()).length).toBeGreaterThan(0);
    // Asked after a claim that took nothing (worker.ts idle): the first due unleased row.
    expect(await anyClaimable(fixture.database('webhooks'), clock.now())).toBe(true);
  });
  expect(problemsOf(found)).toEqual([]);
});

test('webhooks lease release: the leases that ran out, from the index of in-flight rows', async () => {
  const db = fixture.database('webhooks');
  const found = await fixture.plans('delivery lease release', async () => {
    expect(await releaseExpiredLeases(db, new Date(fixture.seededAt))).toBeGreaterThanOrEqual(0);
  });
  expect(problemsOf(found)).toEqual([]);
});

test.each([
  ['real time', { testClock: null }],
  ['one test clock', { testClock: 'clock_0' }],
] as const)('billing engine claim (%s)', async (name, scope) => {
  // The engine registers for payment outcomes when built; nothing else of the invoices
  // service is reached, since no subscription is due.
  const invoices = { onPaymentOutcome() {} } as unknown as ConstructorParameters<typeof BillingEngine>[1];
  const clock = { now: () => new Date(fixture.seededAt) };
  const engine = new BillingEngine(fixture.database('invoicing'), invoices, clock, silent);
  const found = await fixture.plans(`billing claim (${name})`, () => engine.runDue(clock.now(), scope));
  expect(problemsOf(found)).toEqual([]);
});

test('billing engine renewals: the batch reads, the invoice, its number, the ledger, the next actions, the outbox', async () => {
  // Three subscriptions of the tested account fall due an hour before the seed's "now", for a
  // customer with a card on file (charge_automatically: the charge command path); the real
  // engine renews them with the real invoices service, and every statement it sends is planned.
  const db = fixture.database('invoicing');
  const customer = `cus_${'0'.repeat(10)}`;
  await db.query(
    `update invoicing.customers set default_mandate = 'mdt_plans', email = 'ap@plans.test' where id = $1`,
    [customer],
  );
  await db.query(
    `insert into invoicing.subscriptions (id, account_id, livemode, customer_id, status, currency, interval,
       interval_count, items, time_zone, billing_cycle_anchor, start_date, bill_from, collection_method,
       dunning_end_state, next_period_index, current_period_index, current_period_start, current_period_end,
       next_action_at, created_at, updated_at)
     select 'sub_due' || i, $1, false, $2, 'active', 'EUR', 'month', 1,
       '[{"description": "Plan", "unit_amount": 1999, "quantity": 1}]'::jsonb, 'UTC',
       $3::timestamptz - interval '1 month 1 hour', $3::timestamptz - interval '1 month 1 hour',
       $3::timestamptz - interval '1 month 1 hour', 'charge_automatically', 'canceled', 1, 0,
       $3::timestamptz - interval '1 month 1 hour', $3::timestamptz - interval '1 hour',
       $3::timestamptz - interval '1 hour', $3, $3
       from generate_series(1, 3) i`,
    [tenant.account, customer, fixture.seededAt],
  );
  const clock = { now: () => new Date(fixture.seededAt) };
  const settings = { publicBaseUrl: 'http://localhost', numberPrefix: 'PLAN' };
  // The charge path sends no mail: the documents are not reached.
  const documents = undefined as unknown as ConstructorParameters<typeof InvoicesService>[3];
  const invoices = new InvoicesService(db, clock, settings, documents);
  const engine = new BillingEngine(db, invoices, clock, silent);
  const found = await fixture.plans('billing renewals', async () => {
    expect(await engine.runDue(clock.now(), { testClock: null })).toBe(3);
  });
  // Each statement of a renewal is there (the outbox's with the charge bookkeeping).
  for (const table of [
    'customers',
    'subscription_prorations',
    'invoices',
    'invoice_number_counters',
    'subscription_periods',
    'outbox',
  ]) {
    expect(found.some((r) => r.statement.includes(`invoicing.${table}`))).toBe(true);
  }
  expect(found.some((r) => r.statement.includes('unnest('))).toBe(true);
  expect(problemsOf(found)).toEqual([]);
});

const invoiceFilters: [string, Partial<ListInvoicesQuery>][] = [
  ['no filter', {}],
  ['status', { status: 'open' }],
  ['customer', { customer: `cus_${'0'.repeat(8)}50` }],
  ['subscription', { subscription: `sub_${'0'.repeat(10)}` }],
  ['due_date range', { due_date: { lt: new Date() } }],
  ['created range', { created: { gte: new Date(Date.now() - 7 * 86_400_000) } }],
  [
    '3 filters (status, customer, created)',
    { status: 'paid', customer: `cus_${'0'.repeat(8)}50`, created: { lt: new Date() } },
  ],
  ['starting_after', { starting_after: `in_${'0'.repeat(7)}500` }],
];

test.each(invoiceFilters)('list invoices, page of 100, filter: %s', async (name, filter) => {
  // list() reads the database only; the settings and documents serve other operations.
  const settings = { publicBaseUrl: 'http://localhost', numberPrefix: 'PLAN' };
  const documents = undefined as unknown as ConstructorParameters<typeof InvoicesService>[3];
  const clock = { now: () => new Date(fixture.seededAt) };
  const invoices = new InvoicesService(fixture.database('invoicing'), clock, settings, documents);
  const found = await fixture.plans(`invoices list (${name})`, () =>
    invoices.list(tenant, { limit: 100, ...filter } as ListInvoicesQuery),
  );
  expect(problemsOf(found)).toEqual([]);
});
