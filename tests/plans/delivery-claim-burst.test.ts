// The webhook delivery claim when the statistics lie (docs/scaling.md "Costs that stay flat").
// A queue's statistics are those of its last ANALYZE: taken while every delivery had succeeded,
// they say no row is pending, and a burst that arrives before the next autoanalyze is planned
// as if it were one row. The claim is planned for each call (finding 33), but on those
// estimates its plan joined the backlog to itself: 9.3 s for one claim of 20 over 4,000 queued
// (15.9 million rows read in its anti-join; bench/README.md finding 34). This suite builds that
// state (autovacuum off for the table, so no ANALYZE lands during it) and runs the claim under
// EXPLAIN ANALYZE at 4,000 and 16,000 queued: what it reads must not grow with the backlog,
// whatever the statistics say (taken on an empty table, on 2,000 delivered rows, or on the
// burst itself).

import { Client } from 'pg';
import { WEBHOOKS_MIGRATIONS } from '../../apps/webhooks/src/webhooks';
import { claimDue } from '../../apps/webhooks/src/delivery/claim';
import { freshDatabase, migratedDatabase, StatementRecorder, type Statement } from './support/plans';

const ENDPOINTS = 20;
const PER_ENDPOINT = 10;

interface AnalyzedNode {
  'Node Type': string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: AnalyzedNode[];
}

/** Rows every node of the plan produced or threw away, over all of its loops. */
function rowsTouched(node: AnalyzedNode): number {
  const own =
    (node['Actual Rows'] +
      (node['Rows Removed by Filter'] ?? 0) +
      (node['Rows Removed by Join Filter'] ?? 0) +
      (node['Rows Removed by Index Recheck'] ?? 0)) *
    node['Actual Loops'];
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsTouched(child), 0);
}

let drop: () => Promise<void>;
let client: Client;
let claimStatement: Statement;
const recorder = new StatementRecorder();
const now = new Date('2026-12-01T12:00:00Z');

/** When the table's statistics were taken: before the burst (with `delivered` rows in it), or after it. */
type Statistics = { before: number } | 'after';

/**
 * `queued` pending deliveries due now, over ENDPOINTS endpoints, each about an object of its
 * own, beside `delivered` that succeeded; half of the endpoints full (PER_ENDPOINT leased),
 * the rest with half their slots taken. Returns the rows the claim read and how many it
 * claimed, under EXPLAIN ANALYZE, rolled back.
 */
async function burst(queued: number, statistics: Statistics): Promise<{ touched: number; claimed: number }> {
  const delivered = statistics === 'after' ? 2_000 : statistics.before;
  await client.query('truncate webhooks.deliveries, webhooks.events cascade');
  await client.query(
    `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, payload, account_id,
       livemode, status, attempts, created_at, updated_at)
     select 'wd_ok_' || i, 'we_' || (i % ${ENDPOINTS}), 'evt_ok_' || i, 'transaction.succeeded', 'txn_ok_' || i,
       '{}'::jsonb, 'acct_1', false, 'succeeded', 1, $1, $1
     from generate_series(1, $2::int) i`,
    [now, delivered],
  );
  if (statistics !== 'after') await client.query('analyze webhooks.deliveries');
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
  await client.query('begin');
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': { Plan: AnalyzedNode }[] }>(
      `explain (analyze, format json) ${claimStatement.sql}`,
      claimStatement.params,
    );
    const plan = rows[0]['QUERY PLAN'][0].Plan;
    return { touched: rowsTouched(plan), claimed: plan['Actual Rows'] };
  } finally {
    await client.query('rollback');
  }
}

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  const db = await migratedDatabase(fresh.url, 'webhooks', WEBHOOKS_MIGRATIONS, recorder);
  client = new Client({ connectionString: fresh.url });
  await client.connect();
  await client.query('alter table webhooks.deliveries set (autovacuum_enabled = false)');
  await client.query(
    `insert into webhooks.endpoints (id, account_id, livemode, url, enabled_events, secret, created_at, updated_at)
     select 'we_' || i, 'acct_1', false, 'https://receiver.example/' || i, array['*'], 'whsec_x', $1, $1
     from generate_series(0, ${ENDPOINTS - 1}) i`,
    [now],
  );
  // The statement as the worker sends it (text and parameters), recorded from claimDue itself.
  const [statement] = await recorder.record(() =>
    claimDue(db, now, new Date(now.getTime() + 60_000), 20, PER_ENDPOINT),
  );
  claimStatement = statement;
  await db.close();
}, 120_000);

afterAll(async () => {
  await client?.end();
  await drop?.();
});

const STATISTICS: [string, Statistics][] = [
  ['taken on the empty table', { before: 0 }],
  ['taken when 200 deliveries had all succeeded', { before: 200 }],
  ['taken when 2,000 deliveries had all succeeded', { before: 2_000 }],
  ['taken on the burst itself', 'after'],
];

test.each(STATISTICS)(
  'the claim reads as many rows at 16,000 queued as at 4,000: statistics %s',
  async (_, statistics) => {
    const small = await burst(4_000, statistics);
    const large = await burst(16_000, statistics);
    expect(small.claimed).toBe(20);
    expect(large.claimed).toBe(20);
    // Before (finding 34): 161,840 and 641,840 rows with statistics of 200 or 2,000 delivered
    // rows (the anti-join read every pending row per candidate). Now about 1,400 either way.
    expect(large.touched).toBeLessThan(1.5 * small.touched);
    expect(small.touched).toBeLessThan(4_000);
  },
  60_000,
);
