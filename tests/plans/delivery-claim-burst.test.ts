// The webhook delivery claim when the statistics lie (docs/scaling.md "Costs that stay flat").
// A queue's statistics are those of its last ANALYZE: taken while every delivery had succeeded,
// they say no row is pending, and a burst that arrives before the next autoanalyze is planned
// as if it were one row. On those estimates the claim's plan joined the backlog to itself: 9.3 s
// for one claim of 20 over 4,000 queued (15.9 million rows read in its anti-join; bench/README.md
// finding 34). This suite builds that state (autovacuum off for the tables, so no ANALYZE lands
// during it) and runs the claim under EXPLAIN ANALYZE at 4,000 and 16,000 queued: what it reads
// must not grow with the backlog, whatever the statistics say (never taken, taken on an empty
// table, on 200 or 2,000 delivered rows, or on the burst itself), on every plan PostgreSQL may
// run it on. That is the custom plan of each call; and, were the claim sent as a named prepared
// statement, the generic plan made before the burst (a plan cached while the queue was empty,
// finding 33) and the one made during it (a connection preparing the statement afresh).

import { Client, escapeLiteral } from 'pg';
import { WEBHOOKS_MIGRATIONS } from '../../apps/webhooks/src/webhooks';
import { claimDue } from '../../apps/webhooks/src/delivery/claim';
import {
  freshDatabase,
  migratedDatabase,
  rowsTouched,
  StatementRecorder,
  type AnalyzedNode,
  type Statement,
} from './support/plans';

const ENDPOINTS = 20;
const PER_ENDPOINT = 10;

let drop: () => Promise<void>;
let client: Client;
let claimStatement: Statement;
const recorder = new StatementRecorder();
const now = new Date('2026-12-01T12:00:00Z');

/**
 * When the table's statistics were taken: never (a new table), before the burst (with
 * `delivered` rows in it), or after it.
 */
type Statistics = 'never' | { before: number } | 'after';

/** The plan a claim runs on: its own (planned for the call), or a generic one made before or during the burst. */
type Plan = 'custom' | 'generic, made before the burst' | 'generic, made during the burst';

/** The plans PostgreSQL may run the claim on, as it is sent (`named`), under `statistics`. */
function plansOf(named: boolean, statistics: Statistics): Plan[] {
  if (!named) return ['custom'];
  // An ANALYZE after the burst invalidates a plan made before it: the next one is made on the burst.
  if (statistics === 'after') return ['custom', 'generic, made during the burst'];
  return ['custom', 'generic, made before the burst', 'generic, made during the burst'];
}

/** The claim's parameters (timestamps and integers) as SQL literals, for EXECUTE. */
const literal = (value: unknown): string => {
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  if (typeof value === 'number') return String(value);
  throw new Error(`no literal for ${typeof value}`);
};

/**
 * Prepares the claim and makes its generic plan now (EXPLAIN EXECUTE): PostgreSQL keeps it
 * until something invalidates it (an ANALYZE, DDL), which nothing in `burst` does after this.
 */
async function prepareGeneric(): Promise<void> {
  await client.query('set plan_cache_mode = force_generic_plan');
  await client.query(`prepare claim as ${claimStatement.sql}`);
  await client.query(`explain (format json) execute claim(${claimStatement.params.map(literal).join(', ')})`);
}

/**
 * `queued` pending deliveries due now, over ENDPOINTS endpoints, each about an object of its
 * own, beside `delivered` that succeeded; half of the endpoints full (PER_ENDPOINT leased),
 * the rest with half their slots taken. Returns the rows the claim read and how many it
 * claimed, on `plan`, under EXPLAIN ANALYZE, rolled back.
 */
async function burst(
  queued: number,
  statistics: Statistics,
  plan: Plan,
): Promise<{ touched: number; claimed: number }> {
  const delivered = statistics === 'after' ? 2_000 : statistics === 'never' ? 0 : statistics.before;
  // TRUNCATE leaves the table as never analysed (reltuples -1), as a new one is.
  await client.query('truncate webhooks.deliveries, webhooks.events cascade');
  await client.query(
    `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, payload, account_id,
       livemode, status, attempts, created_at, updated_at)
     select 'wd_ok_' || i, 'we_' || (i % ${ENDPOINTS}), 'evt_ok_' || i, 'transaction.succeeded', 'txn_ok_' || i,
       '{}'::jsonb, 'acct_1', false, 'succeeded', 1, $1, $1
     from generate_series(1, $2::int) i`,
    [now, delivered],
  );
  if (typeof statistics === 'object') await client.query('analyze webhooks.deliveries');
  if (plan === 'generic, made before the burst') await prepareGeneric();
  await client.query(
    `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, payload, account_id,
       livemode, status, next_attempt_at, lease_until, created_at, updated_at)
     select 'wd_' || i, 'we_' || (i % ${ENDPOINTS}), 'evt_' || i, 'transaction.succeeded', 'txn_' || i,
       '{}'::jsonb, 'acct_1', false, 'pending', $1,
       case when i <= ${ENDPOINTS * PER_ENDPOINT} and (i % ${ENDPOINTS} < ${ENDPOINTS / 2} or i <= ${(ENDPOINTS * PER_ENDPOINT) / 2})
         then $1::timestamptz + interval '1 minute' end,
       $1, $1
     from generate_series(1, $2::int) i`,
    [now, queued],
  );
  if (statistics === 'after') await client.query('analyze webhooks.deliveries');
  if (plan === 'generic, made during the burst') await prepareGeneric();
  await client.query('begin');
  try {
    const { rows } =
      plan === 'custom'
        ? await client.query<{ 'QUERY PLAN': { Plan: AnalyzedNode }[] }>(
            `explain (analyze, format json) ${claimStatement.sql}`,
            claimStatement.params,
          )
        : await client.query<{ 'QUERY PLAN': { Plan: AnalyzedNode }[] }>(
            `explain (analyze, format json) execute claim(${claimStatement.params.map(literal).join(', ')})`,
          );
    const root = rows[0]['QUERY PLAN'][0].Plan;
    return { touched: rowsTouched(root), claimed: root['Actual Rows'] };
  } finally {
    await client.query('rollback');
    if (plan !== 'custom') {
      // Both executions ran the generic plan (none was planned for its call).
      const [used] = (
        await client.query<{ generic_plans: string; custom_plans: string }>(
          `select generic_plans, custom_plans from pg_prepared_statements where name = 'claim'`,
        )
      ).rows;
      await client.query('deallocate claim');
      await client.query('reset plan_cache_mode');
      expect(used).toEqual({ generic_plans: '2', custom_plans: '0' });
    }
  }
}

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  // Statements named as in distributed mode: the claim is recorded as the worker sends it.
  const db = await migratedDatabase(fresh.url, 'webhooks', WEBHOOKS_MIGRATIONS, recorder, {
    preparedStatements: true,
  });
  client = new Client({ connectionString: fresh.url });
  await client.connect();
  // No ANALYZE during a burst: it would refresh the statistics and invalidate a generic plan.
  for (const table of ['deliveries', 'events', 'endpoints'])
    await client.query(`alter table webhooks.${table} set (autovacuum_enabled = false)`);
  await client.query(
    `insert into webhooks.endpoints (id, account_id, livemode, url, enabled_events, secret, created_at, updated_at)
     select 'we_' || i, 'acct_1', false, 'https://receiver.example/' || i, array['*'], 'whsec_x', $1, $1
     from generate_series(0, ${ENDPOINTS - 1}) i`,
    [now],
  );
  // The statement as the worker sends it (text, parameters, named or not), recorded from
  // claimDue itself; a text is named from its second use on (StatementNames), hence three.
  const statements = await recorder.record(async () => {
    for (let i = 0; i < 3; i++) await claimDue(db, now, new Date(now.getTime() + 60_000), 20, PER_ENDPOINT);
  });
  claimStatement = statements[statements.length - 1];
  await db.close();
}, 120_000);

afterAll(async () => {
  await client?.end();
  await drop?.();
});

const STATISTICS: [string, Statistics][] = [
  ['never taken', 'never'],
  ['taken on the empty table', { before: 0 }],
  ['taken when 200 deliveries had all succeeded', { before: 200 }],
  ['taken when 2,000 deliveries had all succeeded', { before: 2_000 }],
  ['taken on the burst itself', 'after'],
];

test.each(STATISTICS)(
  'the claim reads as many rows at 16,000 queued as at 4,000 on every plan it may run on: statistics %s',
  async (_, statistics) => {
    const read = [];
    for (const plan of plansOf(claimStatement.named === true, statistics)) {
      const small = await burst(4_000, statistics, plan);
      const large = await burst(16_000, statistics, plan);
      read.push({ plan, claimed: [small.claimed, large.claimed], rows: [small.touched, large.touched] });
    }
    // Custom plans, before (finding 34): 161,840 and 641,840 rows with statistics of 200 or 2,000
    // delivered rows (the anti-join read every pending row per candidate). Now about 1,400
    // either way. Its generic plan is no such bound: made before the burst on the statistics of
    // an empty table it read 8,132,981 and 128,528,981 rows, on those of 200 delivered 93,631
    // and 357,631 (a Seq Scan per candidate), which is why the claim is planned for each call.
    expect(
      read.filter(
        ({ claimed, rows: [small, large] }) =>
          claimed[0] !== 20 || claimed[1] !== 20 || large >= 1.5 * small || small >= 4_000,
      ),
    ).toEqual([]);
  },
  60_000,
);
