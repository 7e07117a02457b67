// Two billing engines (two invoicing processes) against one real PostgreSQL: 1,000 due
// subscriptions, each with two periods missed (the engines "were down" for 40 days), are
// billed by whichever engine claims them first. Every period must be billed exactly once,
// in order, none skipped: checked with SQL on the invoices themselves, not on the engine's
// own bookkeeping alone. Then 600 subscriptions of five accounts, mixed in due order: the two
// engines' batches name several accounts' invoice-number counters each, and PostgreSQL must
// count no deadlock between them (pg_stat_database.deadlocks; nine when each batch took its
// counters in due order).

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  eventually,
  freePort,
  ROOT,
  startDistributedPlatform,
  type DistributedPlatform,
  type TestAccount,
} from '../support/platform';

const SUBSCRIPTIONS = 1000;
const PERIODS_DUE = 2;

let platform: DistributedPlatform;
let account: TestAccount;
let second: ChildProcess | undefined;

beforeAll(async () => {
  platform = await startDistributedPlatform();
  account = await platform.newAccount(['invoicing']);
  // A second invoicing process on the same database: a second billing engine.
  const port = await freePort();
  second = spawn(process.execPath, [join(ROOT, 'apps', 'invoicing', 'dist', 'main.js')], {
    env: { ...platform.env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await eventually(
    async () =>
      (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined))?.status === 200
        ? true
        : undefined,
    60_000,
    200,
  );
});

afterAll(async () => {
  if (second && second.exitCode === null) {
    const exited = new Promise((resolve) => second?.once('exit', resolve));
    second.kill('SIGTERM');
    await exited;
  }
  await platform?.stop();
});

it('bills each period of 1,000 due subscriptions exactly once with two engines racing', async () => {
  const customer = await platform.api(account.testKey, 'POST', '/v1/customers', {
    name: 'Many Subs Ltd',
    email: 'ap@many.test',
    currency: 'EUR',
  });
  expect(customer.status).toBe(200);
  // A card on file, so each renewal is charged (a charge command) rather than e-mailed.
  await platform.sql(
    'invoicing',
    `update invoicing.customers set default_mandate = 'mdt_enginesrace0001' where id = $1`,
    [customer.body.id],
  );
  // Anchored 40 days ago: periods 0 and 1 have started; the engines must catch up both.
  const anchor = new Date(Date.now() - 40 * 86_400_000);
  await platform.sql(
    'invoicing',
    `insert into invoicing.subscriptions
       (id, account_id, livemode, customer_id, status, currency, interval, interval_count, items, time_zone,
        billing_cycle_anchor, start_date, bill_from, collection_method, dunning_end_state, next_period_index,
        next_action_at, created_at, updated_at)
     select 'sub_race' || lpad(g::text, 8, '0'), $1, false, $2, 'active', 'EUR', 'month', 1,
            '[{"description": "Plan", "unit_amount": 1000, "quantity": 1}]'::jsonb, 'UTC',
            $3, $3, $3, 'charge_automatically', 'canceled', 0, $3, $3, $3
       from generate_series(1, $4::int) g`,
    [account.id, customer.body.id, anchor, SUBSCRIPTIONS],
  );

  await eventually(
    async () => {
      const [left] = await platform.sql<{ n: number }>(
        'invoicing',
        `select count(*)::int as n from invoicing.subscriptions where account_id = $1 and next_period_index < $2`,
        [account.id, PERIODS_DUE],
      );
      return left.n === 0 ? true : undefined;
    },
    170_000,
    500,
  );

  // Exactly once: no (subscription, period) has two invoices...
  const duplicates = await platform.sql(
    'invoicing',
    `select subscription_id, period_start, count(*) from invoicing.invoices where account_id = $1
      group by subscription_id, period_start having count(*) > 1`,
    [account.id],
  );
  expect(duplicates).toEqual([]);
  // ... and every subscription has exactly periods 0 and 1, each with its invoice, finalized.
  const [totals] = await platform.sql<{ invoices: number; subs: number; numbered: number; ledger: number }>(
    'invoicing',
    `select (select count(*)::int from invoicing.invoices where account_id = $1) as invoices,
            (select count(distinct subscription_id)::int from invoicing.invoices where account_id = $1) as subs,
            (select count(distinct number)::int from invoicing.invoices where account_id = $1 and status = 'open') as numbered,
            (select count(*)::int from invoicing.subscription_periods p
               join invoicing.invoices i on i.id = p.invoice_id and i.period_end = p.period_end
              where p.account_id = $1 and p.period_index between 0 and $2 - 1) as ledger`,
    [account.id, PERIODS_DUE],
  );
  expect(totals).toEqual({
    invoices: SUBSCRIPTIONS * PERIODS_DUE,
    subs: SUBSCRIPTIONS,
    numbered: SUBSCRIPTIONS * PERIODS_DUE,
    ledger: SUBSCRIPTIONS * PERIODS_DUE,
  });
  // One charge command per invoice, attempt 1.
  const [commands] = await platform.sql<{ n: number; refs: number }>(
    'invoicing',
    `select count(*)::int as n, count(distinct payload->'data'->>'reference')::int as refs
       from invoicing.outbox where topic = 'payments.commands.v1' and payload->>'account' = $1`,
    [account.id],
  );
  expect(commands).toEqual({ n: SUBSCRIPTIONS * PERIODS_DUE, refs: SUBSCRIPTIONS * PERIODS_DUE });
  // Periods in order: each subscription's invoices cover consecutive periods from the anchor.
  const gaps = await platform.sql(
    'invoicing',
    `select subscription_id from (
       select subscription_id, period_start, lag(period_end) over (partition by subscription_id order by period_start) as prev_end
         from invoicing.invoices where account_id = $1) x
      where prev_end is not null and prev_end <> period_start`,
    [account.id],
  );
  expect(gaps).toEqual([]);
}, 200_000);

it('bills 600 due subscriptions of five accounts, mixed in due order, with two engines and no deadlock', async () => {
  // Each batch then names several accounts, whose invoice-number counters it holds until it
  // commits: an engine takes only the counters no other engine holds (billing-engine.ts
  // TAKE_COUNTERS) and works them in one order (inCounterOrder). Taken in batch order instead,
  // PostgreSQL aborted batches as deadlocks (nine in this test).
  const COUNT = 600;
  const accounts: string[] = [];
  const customers: string[] = [];
  for (let i = 0; i < 5; i++) {
    const owner = await platform.newAccount(['invoicing']);
    const customer = await platform.api(owner.testKey, 'POST', '/v1/customers', {
      name: `Mixed ${i} Ltd`,
      email: `ap${i}@mixed.test`,
      currency: 'EUR',
    });
    expect(customer.status).toBe(200);
    accounts.push(owner.id);
    customers.push(customer.body.id);
  }
  await platform.sql(
    'invoicing',
    `update invoicing.customers set default_mandate = 'mdt_enginesmixed001' where id = any($1)`,
    [customers],
  );
  const deadlocks = async () =>
    (
      await platform.sql<{ n: number }>(
        'invoicing',
        'select deadlocks::int as n from pg_stat_database where datname = current_database()',
      )
    )[0].n;
  const deadlocksBefore = await deadlocks();
  // Due one millisecond apart, each of an account drawn by a hash of its number: claimed in
  // that order, a batch of 50 names the five accounts in an order of its own.
  const anchor = new Date(Date.now() - 10 * 86_400_000);
  await platform.sql(
    'invoicing',
    `insert into invoicing.subscriptions
       (id, account_id, livemode, customer_id, status, currency, interval, interval_count, items, time_zone,
        billing_cycle_anchor, start_date, bill_from, collection_method, dunning_end_state, next_period_index,
        next_action_at, created_at, updated_at)
     select 'sub_mixed' || lpad(g::text, 8, '0'), ($1::text[])[x.i], false, ($2::text[])[x.i], 'active', 'EUR',
            'month', 1, '[{"description": "Plan", "unit_amount": 1000, "quantity": 1}]'::jsonb, 'UTC',
            t.at, t.at, t.at, 'charge_automatically', 'canceled', 0, t.at, t.at, t.at
       from generate_series(1, $4::int) g
       cross join lateral (select 1 + abs(hashtext(g::text)) % 5 as i) x
       cross join lateral (select $3::timestamptz + g * interval '1 millisecond' as at) t`,
    [accounts, customers, anchor, COUNT],
  );

  await eventually(
    async () => {
      const [left] = await platform.sql<{ n: number }>(
        'invoicing',
        `select count(*)::int as n from invoicing.subscriptions where id like 'sub_mixed%' and next_period_index < 1`,
      );
      return left.n === 0 ? true : undefined;
    },
    120_000,
    500,
  );

  // Every subscription billed once by its own account, numbers 1..n per account without a gap.
  const perAccount = await platform.sql<{ account_id: string; invoices: number; numbers: number[] }>(
    'invoicing',
    `select account_id, count(*)::int as invoices,
            array_agg(regexp_replace(number, '^.*-', '')::int order by regexp_replace(number, '^.*-', '')::int) as numbers
       from invoicing.invoices where account_id = any($1) group by account_id order by account_id`,
    [accounts],
  );
  expect(perAccount.reduce((sum, a) => sum + a.invoices, 0)).toBe(COUNT);
  for (const a of perAccount) expect(a.numbers).toEqual(Array.from({ length: a.invoices }, (_, k) => k + 1));
  const [ledger] = await platform.sql<{ n: number }>(
    'invoicing',
    `select count(*)::int as n from invoicing.subscription_periods where account_id = any($1) and period_index = 0`,
    [accounts],
  );
  expect(ledger.n).toBe(COUNT);
  // pg_stat_database counts at the end of each transaction; give it time to report.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect((await deadlocks()) - deadlocksBefore).toBe(0);
}, 200_000);
