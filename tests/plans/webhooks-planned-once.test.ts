// The webhooks statements that run for every event and every delivered attempt are planned once
// per connection, not per call (issue 15). A named statement keeps a generic plan only when it
// costs no more than the custom plans did, and a custom plan sees the length of an array
// parameter where the generic plan guesses ten: the deliveries insert (the endpoints' ids, one
// or two) and the attempts' write (the attempts of one write, one to a few) were planned on
// every call once the deliveries table had some history. This suite runs the event intake and
// the attempts' write as the services do (named statements, EventLog.record and
// DeliveredRecorder themselves) on one connection, over 20,000 delivered rows and a backlog of
// 20,000 queued, counts how often PostgreSQL planned each (pg_prepared_statements), and runs
// each on its custom and its generic plan under EXPLAIN ANALYZE: a few rows read, not the
// backlog. And the intake once more on statistics taken before a backlog came (finding 34's
// state, autoanalyze not yet run): there its per-object probe, a plain max(), walked every
// queued delivery through deliveries_due (16,000 rows per endpoint over 16,000 queued, custom
// and generic plans alike), a burst quadratic until autoanalyze.

import { Client, escapeLiteral } from 'pg';
import type { EventEnvelope } from '@paygrid/contracts';
import { createLogger, ManualClock, PREPARE_AFTER, type Database } from '@paygrid/platform';
import { DeliveredRecorder } from '../../apps/webhooks/src/delivery/delivered';
import { EventLog, type DeliveryLessee } from '../../apps/webhooks/src/events/event-log';
import { PER_ENDPOINT_IN_FLIGHT } from '../../apps/webhooks/src/delivery/worker';
import { WEBHOOKS_MIGRATIONS } from '../../apps/webhooks/src/webhooks';
import {
  checkPlan,
  freshDatabase,
  migratedDatabase,
  rowsTouched,
  StatementRecorder,
  tableRows,
  type AnalyzedNode,
  type PlanNode,
  type Statement,
} from './support/plans';

const CALLS = 20;
const HISTORY = 20_000;
const BACKLOG = 20_000;
/** The backlog queued after the statistics were taken, in the last test. */
const STALE_BACKLOG = 16_000;
/** The most rows one event's intake or one attempt's write may read, on either plan. */
const MAX_ROWS = 100;
const now = new Date('2026-12-01T12:00:00Z');

let drop: () => Promise<void>;
let db: Database;
let connection: Client;
const recorder = new StatementRecorder();

/** Ten accounts of two endpoints each, every one subscribed to every event. */
function seedEndpoints(client: Client) {
  return client.query(
    `insert into webhooks.endpoints (id, account_id, livemode, url, enabled_events, secret, created_at, updated_at)
     select 'we_' || i, 'acct_' || (i % 10), false, 'https://receiver.example/' || i, array['*'], 'whsec_x', $1, $1
     from generate_series(0, 19) i`,
    [now],
  );
}

/** `count` deliveries that succeeded, each about an object of its own. */
function seedHistory(client: Client, count: number) {
  return client.query(
    `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, payload, account_id,
       livemode, status, attempts, created_at, updated_at)
     select 'wd_ok_' || i, 'we_' || (i % 20), 'evt_ok_' || i, 'payment.succeeded', 'txn_ok_' || i, '{}'::jsonb,
       'acct_' || (i % 10), false, 'succeeded', 1, $1, $1
     from generate_series(1, $2::int) i`,
    [now, count],
  );
}

/** `count` deliveries queued and due (wd_q_<i> to we_<i % 20>, about txn_q_<i>). */
function seedBacklog(client: Client, count: number) {
  return client.query(
    `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, payload, account_id,
       livemode, status, next_attempt_at, created_at, updated_at)
     select 'wd_q_' || i, 'we_' || (i % 20), 'evt_q_' || i, 'payment.succeeded', 'txn_q_' || i, '{}'::jsonb,
       'acct_' || (i % 10), false, 'pending', $1, $1, $1
     from generate_series(1, $2::int) i`,
    [now, count],
  );
}

/** Event `i` of acct_1 (both its endpoints subscribed), about `object`. */
const eventAbout = (i: number, object = `txn_new_${i}`): EventEnvelope => ({
  id: `evt_new_${i}`,
  object: 'event',
  type: 'payment.succeeded',
  created_at: now.toISOString(),
  livemode: false,
  account: 'acct_1',
  data: { object: { id: object } },
});

/**
 * A worker with every slot free, which posts nothing: the intake leases what may go at once
 * (its per-object order and per-endpoint count in the plan).
 */
const withLessee = (log: EventLog): EventLog => {
  const lessee: DeliveryLessee = {
    reserve: (wanted) => wanted,
    release: () => undefined,
    handOver: () => undefined,
  };
  log.lessee = lessee;
  return log;
};

beforeAll(async () => {
  const fresh = await freshDatabase();
  drop = fresh.drop;
  // One connection: pg_prepared_statements, read through it, is that of every statement here.
  db = await migratedDatabase(fresh.url, 'webhooks', WEBHOOKS_MIGRATIONS, recorder, {
    preparedStatements: true,
    connections: 1,
  });
  connection = new Client({ connectionString: fresh.url });
  await connection.connect();
  // HISTORY deliveries that succeeded and a BACKLOG queued, each about an object of its own;
  // CALLS pending ones, leased, whose attempts are recorded below.
  await seedEndpoints(connection);
  await seedHistory(connection, HISTORY);
  await seedBacklog(connection, BACKLOG);
  await connection.query(
    `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, payload, account_id,
       livemode, status, next_attempt_at, lease_until, created_at, updated_at)
     select 'wd_' || i, 'we_' || (i % 20), 'evt_' || i, 'payment.succeeded', 'txn_' || i, '{}'::jsonb,
       'acct_' || (i % 10), false, 'pending', $1, $1::timestamptz + interval '1 minute', $1, $1
     from generate_series(1, $2::int) i`,
    [now, CALLS],
  );
  await connection.query('analyze');
}, 120_000);

afterAll(async () => {
  await connection?.end();
  await db?.close();
  await drop?.();
});

/**
 * How the named statement whose text has `marker` ran: on a plan made for the call (custom) or
 * on the generic one. PostgreSQL makes five custom plans before it weighs the generic one.
 */
async function planned(marker: string): Promise<{ custom: number; generic: number }> {
  const rows = await db.query<{ custom_plans: string; generic_plans: string }>(
    `select custom_plans, generic_plans from pg_prepared_statements where statement like '%' || $1 || '%'`,
    [marker],
  );
  expect(rows).toHaveLength(1);
  return { custom: Number(rows[0].custom_plans), generic: Number(rows[0].generic_plans) };
}

/** Runs of a statement sent CALLS times as a named one: its first uses go unnamed (StatementNames). */
const NAMED_RUNS = CALLS - (PREPARE_AFTER - 1);

/** A parameter as a literal for EXECUTE (as pg sends it: arrays and objects as their text). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) {
    const element = (v: unknown) =>
      v === null
        ? 'NULL'
        : `"${(v instanceof Date ? v.toISOString() : String(v)).replace(/[\\"]/g, '\\$&')}"`;
    return escapeLiteral(`{${value.map(element).join(',')}}`);
  }
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  if (typeof value === 'object') return escapeLiteral(JSON.stringify(value));
  return escapeLiteral(String(value));
}

/**
 * `statement` run on its custom plan and on its generic one, under EXPLAIN ANALYZE in a
 * transaction rolled back: the rows each read, and what checkPlan finds wrong with each.
 */
async function bothPlans(
  { sql, params }: Statement,
  client: Client = connection,
): Promise<{ plan: string; rows: number; problems: string[] }[]> {
  const rowsOf = await tableRows(client, ['webhooks']);
  const run = async (
    plan: string,
    explain: () => Promise<{ rows: { 'QUERY PLAN': { Plan: AnalyzedNode & PlanNode }[] }[] }>,
  ) => {
    await client.query('begin');
    try {
      const root = (await explain()).rows[0]['QUERY PLAN'][0].Plan;
      return { plan, rows: rowsTouched(root), problems: checkPlan(root, rowsOf).problems };
    } finally {
      await client.query('rollback');
    }
  };
  const custom = await run('custom', () =>
    client.query(`explain (analyze, verbose, format json) ${sql}`, params),
  );
  await client.query('set plan_cache_mode = force_generic_plan');
  await client.query(`prepare generic as ${sql}`);
  try {
    const generic = await run('generic', () =>
      client.query(
        `explain (analyze, verbose, format json) execute generic(${params.map(literal).join(', ')})`,
      ),
    );
    return [custom, generic];
  } finally {
    await client.query('deallocate generic');
    await client.query('reset plan_cache_mode');
  }
}

/** The plans that read MAX_ROWS or more, or that checkPlan finds fault with. */
const flawed = (plans: { plan: string; rows: number; problems: string[] }[]) => {
  expect(plans.map((p) => p.plan)).toEqual(['custom', 'generic']);
  return plans.filter((p) => p.rows >= MAX_ROWS || p.problems.length);
};

test('the event intake (the event, its endpoints, their deliveries) is planned once', async () => {
  const log = withLessee(new EventLog(db, new ManualClock(now)));
  const statements = await recorder.record(async () => {
    for (let i = 0; i < CALLS; i++) await db.transaction((tx) => log.record(eventAbout(i), tx));
  });
  const [{ n }] = await db.query<{ n: number }>(
    `select count(*)::int as n from webhooks.deliveries where event_id like 'evt_new_%'`,
  );
  expect(n).toBe(2 * CALLS);
  // Leased at intake until each endpoint had PER_ENDPOINT_IN_FLIGHT leased, the one seeded
  // (wd_1, wd_11) included; the others queued for the claim.
  const leased = await db.query<{ endpoint_id: string; leased: number; queued: number }>(
    `select endpoint_id, count(*) filter (where lease_until is not null)::int as leased,
       count(*) filter (where lease_until is null)::int as queued
     from webhooks.deliveries where event_id like 'evt_new_%' group by endpoint_id order by endpoint_id`,
  );
  expect(leased).toEqual(
    ['we_1', 'we_11'].map((endpoint_id) => ({
      endpoint_id,
      leased: PER_ENDPOINT_IN_FLIGHT - 1,
      queued: CALLS - (PER_ENDPOINT_IN_FLIGHT - 1),
    })),
  );
  // Before: the deliveries insert was planned for each event (every run a custom plan).
  expect(await planned('insert into webhooks.deliveries')).toEqual({ custom: 5, generic: NAMED_RUNS - 5 });
  expect(statements.filter((s) => s.sql.includes('insert into webhooks.deliveries'))).toHaveLength(CALLS);
  // The statement of one more event, whose transaction is rolled back: run again below on
  // each plan, it has an event to insert and endpoints to queue to.
  const rollback = new Error('rolled back');
  const [statement] = await recorder.record(() =>
    db
      .transaction(async (tx) => {
        await log.record(eventAbout(CALLS), tx);
        throw rollback;
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
      }),
  );
  // The event, the account's endpoints (a Seq Scan of 20), a probe of deliveries_order per
  // endpoint, two deliveries: 44 rows. Probing by the endpoint's id as endpoints compare it
  // (collate "C"), no index served it and it read every queued delivery: 40,164 rows.
  expect(flawed(await bothPlans(statement))).toEqual([]);
});

test("the attempts' write (the attempts, the deliveries succeeded, the endpoints' streaks) is planned once", async () => {
  const delivered = new DeliveredRecorder(db, () => now, createLogger('test', 'silent'));
  const statements = await recorder.record(async () => {
    for (let i = 1; i <= CALLS; i++)
      await delivered.record({
        deliveryId: `wd_${i}`,
        attemptedAt: now,
        statusCode: 200,
        latencyMs: 5,
        excerpt: 'ok',
        error: null,
        attempts: 1,
      });
  });
  const [{ n }] = await db.query<{ n: number }>(
    `select count(*)::int as n from webhooks.deliveries where id = any($1) and status = 'succeeded'`,
    [Array.from({ length: CALLS }, (_, i) => `wd_${i + 1}`)],
  );
  expect(n).toBe(CALLS);
  // Before: planned for each write (every run a custom plan).
  expect(await planned('insert into webhooks.delivery_attempts')).toEqual({
    custom: 5,
    generic: NAMED_RUNS - 5,
  });
  const sent = statements.filter((s) => s.sql.includes('insert into webhooks.delivery_attempts'));
  expect(sent).toHaveLength(CALLS);
  // One attempt: its delivery by primary key, the attempt, the update, the endpoints' streaks.
  expect(flawed(await bothPlans(sent[sent.length - 1]))).toEqual([]);
});

test('the event intake reads a few rows on statistics taken before the backlog came', async () => {
  // A database of its own, analyzed with history and no pending delivery, then a backlog the
  // statistics do not know of (autovacuum off for the table, so autoanalyze cannot come first).
  const fresh = await freshDatabase();
  const recorder = new StatementRecorder();
  const stale = await migratedDatabase(fresh.url, 'webhooks', WEBHOOKS_MIGRATIONS, recorder, {
    preparedStatements: true,
    connections: 1,
  });
  const client = new Client({ connectionString: fresh.url });
  await client.connect();
  try {
    await seedEndpoints(client);
    await seedHistory(client, 200);
    await client.query('analyze');
    await client.query('alter table webhooks.deliveries set (autovacuum_enabled = false)');
    await seedBacklog(client, STALE_BACKLOG);
    const log = withLessee(new EventLog(stale, new ManualClock(now)));
    // Events about new objects, then one about an object with a delivery queued to each of
    // the account's two endpoints (wd_q_1 to we_1, due now; wd_q_11 to we_11, moved to it
    // and a minute out): its deliveries wait for those. Then the plans of the common case, an
    // event about a new object, whose probe finds nothing: walking deliveries_due for it read
    // the whole backlog.
    await recorder.record(async () => {
      for (let i = 0; i < CALLS; i++) await stale.transaction((tx) => log.record(eventAbout(i), tx));
    });
    await client.query(
      `update webhooks.deliveries set object_id = 'txn_q_1', next_attempt_at = $1
                        where id = 'wd_q_11'`,
      [new Date(now.getTime() + 60_000)],
    );
    await stale.transaction((tx) => log.record(eventAbout(CALLS, 'txn_q_1'), tx));
    const [{ waits }] = await stale.query<{ waits: number }>(
      `select count(*)::int as waits from webhooks.deliveries where event_id = $1 and next_attempt_at = $2`,
      [`evt_new_${CALLS}`, new Date(now.getTime() + 60_000)],
    );
    // we_11's delivery waits for the queued one a minute out; we_1's for its own, due now.
    expect(waits).toBe(1);
    const rollback = new Error('rolled back');
    const [statement] = await recorder.record(() =>
      stale
        .transaction(async (tx) => {
          await log.record(eventAbout(CALLS + 1), tx);
          throw rollback;
        })
        .catch((error: unknown) => {
          if (error !== rollback) throw error;
        }),
    );
    // The statistics still count no pending delivery: the state this test is about.
    const [{ pending }] = await stale.query<{ pending: number }>(
      `select reltuples::float8 as pending from pg_class where oid = 'webhooks.deliveries_due'::regclass`,
    );
    expect(pending).toBe(0);
    expect(flawed(await bothPlans(statement, client))).toEqual([]);
  } finally {
    await client.end();
    await stale.close();
    await fresh.drop();
  }
}, 120_000);
