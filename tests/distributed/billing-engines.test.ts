// Two billing engines (two invoicing processes) against one real PostgreSQL: 1,000 due
// subscriptions, each with two periods missed (the engines "were down" for 40 days), are
// billed by whichever engine claims them first. Every period must be billed exactly once,
// in order, none skipped: checked with SQL on the invoices themselves, not on the engine's
// own bookkeeping alone.

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
