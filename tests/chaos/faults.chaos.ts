// The reliability suite (npm run test:chaos; scripts/chaos.mjs gives it its own PostgreSQL,
// Redis and Kafka). The distributed platform (four processes) runs a steady mixed load:
// payments through the hosted checkout, refunds (several at once on one payment), POSTs
// replayed with their Idempotency-Key (twice at once, then again), customers and payment
// links, reads; webhook endpoints: a healthy receiver, one that always hangs, one that hangs
// during its phase. In turn: kill -9 each app and restart it, restart PostgreSQL, restart
// Kafka, make a receiver hang. Then the invariants of ./invariants.ts are checked with SQL
// and the API, and what was checked is printed, with the load's counts per fault.
//
// The receivers are in faults/receiver.helpers.ts and the load in faults/load.helpers.ts; this
// file owns the platform, the faults and the phases, and checks the invariants.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  ROOT,
  startDistributedPlatform,
  type DistributedPlatform,
  type ServiceName,
  type TestAccount,
} from '../support/platform';
import { checkInvariants, formatResults, type Observed } from './invariants';
import { chaosLoad, sleep, type PhaseStats } from './faults/load.helpers';
import { Receiver } from './faults/receiver.helpers';

const LOAD_AFTER_FAULT_MS = Number(process.env.CHAOS_PHASE_MS ?? 8_000);
const SETTLE_MS = Number(process.env.CHAOS_SETTLE_MS ?? 120_000);
const WORKERS = Number(process.env.CHAOS_WORKERS ?? 2);

const phases: PhaseStats[] = [];
let phase: PhaseStats;
let platform: DistributedPlatform;
let account: TestAccount;
let stopping = false;
/** The database's time once the endpoints exist: events logged later are owed to them. */
let healthySince: Date;
const idempotencyKeys: string[] = [];
const { worker } = chaosLoad({
  platform: () => platform,
  account: () => account,
  phase: () => phase,
  stopping: () => stopping,
  idempotencyKeys,
});

const healthy = new Receiver();
const alwaysHangs = new Receiver(true);
const sometimesHangs = new Receiver();

// ---------------------------------------------------------------------------------------
// Faults
// ---------------------------------------------------------------------------------------

function infra(command: string): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'chaos-infra.mjs'), command], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function killAndRestart(service: ServiceName): Promise<void> {
  await platform.kill(service, 'SIGKILL');
  await sleep(1_000);
  await platform.start(service);
}

const FAULTS: [string, () => Promise<void>][] = [
  ['baseline (no fault)', async () => {}],
  ...(['gateway', 'payments', 'invoicing', 'webhooks'] as ServiceName[]).map(
    (service) =>
      [`kill -9 ${service}, restart`, () => killAndRestart(service)] as [string, () => Promise<void>],
  ),
  ['restart PostgreSQL (pg_ctl restart -m fast)', async () => infra('restart-postgres')],
  ['restart Kafka (controlled stop, start)', async () => infra('restart-kafka')],
  [
    'a webhook receiver hangs for the phase',
    async () => {
      sometimesHangs.hanging = true;
      await sleep(LOAD_AFTER_FAULT_MS);
      sometimesHangs.hanging = false;
      sometimesHangs.release();
    },
  ],
];

async function allEvents(): Promise<string[]> {
  const ids: string[] = [];
  let after = '';
  for (;;) {
    const page = await platform.api(account.testKey, 'GET', `/v1/events?limit=100${after}`);
    if (page.status !== 200) throw new Error(`GET /v1/events: ${page.status} ${JSON.stringify(page.body)}`);
    ids.push(...page.body.data.map((e: any) => e.id));
    if (!page.body.has_more) return ids;
    after = `&starting_after=${page.body.data.at(-1).id}`;
  }
}

async function unpublished(): Promise<number> {
  const schemas = await platform.sql<{ schema: string }>(
    'payments',
    `select table_schema as schema from information_schema.tables where table_name = 'outbox'`,
  );
  let n = 0;
  for (const { schema } of schemas) {
    const [row] = await platform.sql(
      'payments',
      `select count(*)::int as n from ${schema}.outbox where published_at is null`,
    );
    n += row.n;
  }
  return n;
}

beforeAll(async () => {
  platform = await startDistributedPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
  const raised = await platform.admin('POST', `/admin/v1/accounts/${account.id}`, {
    rate_limit_per_second: 100_000,
  });
  expect(raised.status).toBe(200);
  for (const receiver of [healthy, alwaysHangs, sometimesHangs]) {
    await receiver.start();
    const endpoint = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
      url: receiver.url,
      enabled_events: ['*'],
    });
    expect(endpoint.status).toBe(200);
  }
  [{ now: healthySince }] = await platform.sql('payments', 'select now() as now');
}, 300_000);

afterAll(async () => {
  stopping = true;
  await platform?.stop();
  for (const receiver of [healthy, alwaysHangs, sometimesHangs]) await receiver.stop().catch(() => undefined);
});

it('keeps every invariant through process kills, a PostgreSQL restart, a Kafka restart and a hanging receiver', async () => {
  phase = { name: 'warm-up', requests: 0, ok: 0, refused: 0, errors: 0, ms: 0 };
  const load = Array.from({ length: WORKERS }, () => worker());
  for (const [name, fault] of FAULTS) {
    const started = Date.now();
    phase = { name, requests: 0, ok: 0, refused: 0, errors: 0, ms: 0 };
    phases.push(phase);
    await sleep(2_000);
    await fault();
    await sleep(LOAD_AFTER_FAULT_MS);
    phase.ms = Date.now() - started;
    process.stderr.write(
      `chaos: ${name}: ${phase.requests} requests, ${phase.ok} ok, ${phase.refused} refused (4xx), ${phase.errors} errors (5xx/no answer) in ${phase.ms} ms\n`,
    );
  }
  stopping = true;
  phase = { name: 'drain', requests: 0, ok: 0, refused: 0, errors: 0, ms: 0 };
  await Promise.all(load);

  // Settle: every outbox row published, every logged event delivered to the healthy receiver.
  const settleStarted = Date.now();
  let observed: Observed | undefined;
  let results = await (async () => {
    for (;;) {
      const listed = await allEvents();
      observed = {
        accounts: [account.id],
        listedEventIds: listed,
        healthyDeliveries: [...healthy.ids],
        healthyEnabledEvents: ['*'],
        healthySince,
        idempotencyKeys,
      };
      const checked = await checkInvariants(
        (text, params) => platform.sql('payments', text, params),
        observed,
      );
      const pendingOutbox = await unpublished();
      if (
        (checked.every((r) => !r.violations.length) && pendingOutbox === 0) ||
        Date.now() - settleStarted > SETTLE_MS
      )
        return checked;
      await sleep(2_000);
    }
  })();
  const settledMs = Date.now() - settleStarted;
  results = results ?? [];

  const [counts] = await platform.sql(
    'payments',
    `select (select count(*) from payments.transactions where type = 'payment' and status = 'succeeded')::int as payments_succeeded,
            (select count(*) from payments.transactions where type = 'payment' and status = 'pending')::int as payments_pending,
            (select count(*) from payments.refunds where status = 'succeeded')::int as refunds_succeeded,
            (select count(*) from payments.refunds where status = 'pending')::int as refunds_pending,
            (select count(*) from payments.ledger_entries)::int as ledger_entries,
            (select count(*) from invoicing.customers)::int as customers,
            (select count(*) from invoicing.invoices where number is not null)::int as invoices_numbered,
            (select count(*) from webhooks.events)::int as events,
            (select count(*) from webhooks.deliveries where status = 'succeeded')::int as deliveries_succeeded`,
  );
  const table = phases
    .map(
      (p) =>
        `  ${p.name.padEnd(46)} ${String(p.requests).padStart(6)} requests ${String(p.ok).padStart(6)} ok ${String(p.refused).padStart(5)} refused ${String(p.errors).padStart(5)} errors  ${(p.ms / 1000).toFixed(1)} s`,
    )
    .join('\n');
  console.log(
    `chaos run\nload per fault:\n${table}\n` +
      `data: ${JSON.stringify(counts)}; healthy receiver got ${healthy.ids.length} deliveries (${new Set(healthy.ids).size} distinct), ` +
      `${observed?.listedEventIds.length} events listed, ${idempotencyKeys.length} Idempotency-Keys sent; settled in ${settledMs} ms\n` +
      `invariants:\n${formatResults(results)}`,
  );

  // Honest load: every phase carried traffic, and the platform served some of it.
  for (const p of phases) {
    expect({ phase: p.name, carried: p.requests > 10, served: p.ok > 0 }).toEqual({
      phase: p.name,
      carried: true,
      served: true,
    });
  }
  expect(counts.payments_succeeded).toBeGreaterThan(0);
  expect(counts.refunds_succeeded).toBeGreaterThan(0);
  expect(
    results.filter((r) => r.violations.length).map((r) => `${r.name}: ${r.violations.join('; ')}`),
  ).toEqual([]);
  expect(results.filter((r) => !r.skipped).every((r) => r.checked > 0)).toBe(true);
}, 1_200_000);
