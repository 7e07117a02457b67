#!/usr/bin/env node
// How fast one billing engine bills due subscriptions: N subscriptions fall due at once and
// one engine (BillingEngine.runDue, the call its timer makes) bills them all: for each one,
// the ledger row, an invoice created (lines, totals, invoice.created), finalized (gapless
// number from the account's counter row, invoice.finalized) and collected (a
// payment.charge_mandate command in the outbox), the subscription moved to its next period,
// all in the subscription's claim transaction. Reported in subscriptions per second.
//
// It runs the real invoicing service (createInvoicing from apps/invoicing/dist, migrations,
// the engine) against:
//   postgres  a fresh database on DATABASE_URL (eval "$(bash infra/infra-up.sh)"), dropped after;
//             the service configured as in distributed mode (named prepared statements, the
//             outbox's NOTIFY), as the invoicing service runs there (until 2026-12-02 it ran
//             with the embedded mode's settings: no prepared statements, finding 43)
//   embedded  PGlite in memory, in this process (the default install)
// with a manual clock (so the service's own timer finds nothing due while rows are loaded)
// and the outbox relay off (the figure is the engine's, not Kafka's). Subscriptions are
// loaded with one INSERT ... SELECT generate_series; all belong to one account (the worst
// case for the per-account invoice-number counter) and one customer with a mandate.
//
// Two instances against one (target `scaling`, PostgreSQL): the same N due subscriptions, now
// spread over many accounts (a multi-tenant platform; one account's renewals queue on its
// gapless invoice-number counter whatever the engine count), billed by one engine process,
// then on a fresh copy by two engine processes at once; the ratio is two ÷ one (issue 15:
// >= 1.6). Each engine is a process of its own (`--engine-worker`, forked), so two use two
// cores, as two invoicing instances would.
//
//   node bench/billing-engine.mjs [--target postgres|embedded|scaling|all] [--subscriptions 100000]
//        [--accounts 1000] [--batch 50] [--quick] [--out FILE]
//
// Self-contained module for the bench runner: export { name, description, run(opts) } with
// run -> { results, skipped }.

import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberFlag, parseArgs } from './lib/args.mjs';
import { recordFigure } from './lib/figures.mjs';
import { countAsPlatform, cpuTimes, machineLoad } from './lib/machine.mjs';
import { runIfMain } from './lib/module.mjs';
import { resultsFile, selectRuns, toStderr, writeReport } from './lib/report.mjs';

const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));
export const RESULTS_FILE = resultsFile('billing-engine');

const platform = () => require('@paygrid/platform');
const invoicingDist = () => require(join(HERE, '..', 'apps', 'invoicing', 'dist', 'index.js'));

// 100,000 is the figure, on PostgreSQL (the production path; ~20 min on 2 cores).
// PGlite, the single-process development default, bills 10,000 in the full run: it is
// measured for scale, not as a production path, and 100,000 there would take the run's hour.
export const DEFAULTS = {
  subscriptions: 100_000,
  embeddedSubscriptions: 10_000,
  quickSubscriptions: 500,
  batch: 50,
  // Two instances against one: 20,000 renewals of 1,000 accounts (20 each), twice.
  scalingSubscriptions: 20_000,
  quickScalingSubscriptions: 2_000,
  accounts: 1_000,
};

export function targetAvailability(env = process.env) {
  return {
    postgres: env.DATABASE_URL
      ? { ok: true }
      : { ok: false, reason: 'DATABASE_URL is not set (eval "$(bash infra/infra-up.sh)")' },
    embedded: { ok: true },
    scaling: env.DATABASE_URL
      ? { ok: true }
      : { ok: false, reason: 'DATABASE_URL is not set (eval "$(bash infra/infra-up.sh)")' },
  };
}

function silentLogger() {
  const { createLogger } = platform();
  return createLogger('bench', process.env.LOG_LEVEL ?? 'silent');
}

async function openDatabase(target) {
  const { startEmbeddedDatabase } = platform();
  if (target === 'embedded') {
    const db = await startEmbeddedDatabase('memory://');
    return { url: db.url, close: () => db.close() };
  }
  const pg = require(require.resolve('pg', { paths: [join(HERE, '..', 'libs', 'platform')] }));
  const name = `bench_billing_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async close() {
      const again = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

const START = new Date('2030-01-01T00:00:00Z');
const DUE = new Date(START.getTime() + 86_400_000);

/**
 * The invoicing service on `url` with a manual clock at START and the outbox relay off, as
 * the distributed service runs on PostgreSQL; `engine(batch)` gives a billing engine of it
 * (the class its timer drives) with that claim batch size.
 */
async function startService(target, url) {
  const { EmbeddedBus, ManualClock, randomBase62 } = platform();
  const { createInvoicing, readInvoicingConfig } = invoicingDist();
  const logger = silentLogger();
  const clock = new ManualClock(START);
  const bus = new EmbeddedBus(url, logger);
  await bus.connect();
  const mailDir = join(os.tmpdir(), `paygrid-bench-mail-${randomBytes(4).toString('hex')}`);
  const service = await createInvoicing(
    readInvoicingConfig({
      // On PostgreSQL the engine runs as the distributed invoicing service does (named prepared
      // statements, the outbox's NOTIFY), its bus the in-process one (nothing is relayed).
      PAYGRID_MODE: target === 'postgres' ? 'distributed' : 'embedded',
      // Required of distributed config, never dialled: the bus is passed in.
      ...(target === 'postgres' ? { KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092' } : {}),
      DATABASE_URL: url,
      INTERNAL_SIGNING_SECRET: randomBase62(48),
      PORT: '0',
      OUTBOX_RELAY_ENABLED: 'false',
      MAIL_DIR: mailDir,
    }),
    { bus, clock, logger },
  );
  const { BillingEngine } = require(
    join(HERE, '..', 'apps', 'invoicing', 'dist', 'billing', 'billing-engine.js'),
  );
  return {
    service,
    db: service.runtime.db,
    engine: (batch) =>
      new BillingEngine(service.runtime.db, service.invoices, clock, logger, { batchSize: batch }),
    async stop() {
      await service.stop();
      await bus.close();
    },
  };
}

/** Bills `subscriptions` due subscriptions with one engine; returns the figures. */
export async function runTarget(target, { subscriptions, batch, say = () => {} }) {
  const { randomBase62 } = platform();
  const database = await openDatabase(target);
  const started = await startService(target, database.url);
  const { db } = started;
  const start = START;
  const due = DUE;
  try {
    const account = `acct_bench${randomBase62(16)}`;
    const customer = `cus_bench${randomBase62(16)}`;
    await db.query(
      `insert into invoicing.customers (id, account_id, livemode, name, email, currency, default_mandate, metadata, created_at, updated_at)
       values ($1, $2, false, 'Bench Ltd', 'ap@bench.test', 'EUR', 'mdt_benchmandate0001', '{}'::jsonb, $3, $3)`,
      [customer, account, start],
    );
    say(`${target}: loading ${subscriptions} subscriptions due at ${due.toISOString()}`);
    await db.query(
      `insert into invoicing.subscriptions
         (id, account_id, livemode, customer_id, status, currency, interval, interval_count, items, time_zone,
          billing_cycle_anchor, start_date, bill_from, collection_method, dunning_end_state, next_period_index,
          current_period_index, current_period_start, current_period_end, next_action_at, created_at, updated_at)
       select 'sub_bench' || lpad(g::text, 9, '0'), $1, false, $2, 'active', 'EUR', 'month', 1,
              '[{"description": "Plan", "unit_amount": 1999, "quantity": 1}]'::jsonb, 'UTC',
              $3::timestamptz - interval '1 month', $4, $4, 'charge_automatically', 'canceled', 1,
              0, $3::timestamptz - interval '1 month', $3, $3, $4, $4
         from generate_series(1, $5::int) g`,
      [account, customer, due, start, subscriptions],
    );
    await db.query('analyze invoicing.subscriptions');
    // An engine of its own (same class the service's timer drives) to set the claim batch size.
    const engine = started.engine(batch);
    const cpuBefore = process.cpuUsage();
    const machineBefore = cpuTimes();
    const t0 = process.hrtime.bigint();
    const handled = await engine.runDue(new Date(due.getTime() + 1000), { testClock: null });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(cpuBefore);
    const machine = machineLoad(machineBefore, cpuTimes());
    const [check] = await db.query(
      `select (select count(*)::int from invoicing.invoices where account_id = $1 and status = 'open' and number is not null) as invoices,
              (select count(*)::int from invoicing.subscription_periods where account_id = $1) as periods,
              (select count(*)::int from invoicing.outbox where topic = 'payments.commands.v1') as commands,
              (select count(*)::int from invoicing.subscriptions where account_id = $1 and next_period_index <> 2) as left_over`,
      [account],
    );
    const result = {
      target,
      subscriptions,
      batch,
      seconds: Math.round(seconds * 100) / 100,
      subscriptions_per_second: Math.round((subscriptions / seconds) * 10) / 10,
      handled,
      invoices_finalized: check.invoices,
      ledger_rows: check.periods,
      charge_commands: check.commands,
      not_billed: check.left_over,
      bench_process_cpu_seconds: Math.round(((cpu.user + cpu.system) / 1e6) * 10) / 10,
      machine_load: machine,
    };
    if (check.invoices !== subscriptions || check.commands !== subscriptions || check.left_over !== 0) {
      throw new Error(`${target}: not every subscription was billed exactly once: ${JSON.stringify(result)}`);
    }
    recordFigure(
      target === 'postgres' ? 'distributed' : 'embedded',
      'billing_per_s',
      result.subscriptions_per_second,
      { machine_load: machine, ops: subscriptions },
    );
    say(
      `${target}: ${result.subscriptions_per_second} subscriptions/s (${subscriptions} in ${result.seconds} s)`,
    );
    return result;
  } finally {
    await started.stop();
    await database.close();
  }
}

/**
 * Loads `subscriptions` subscriptions due at DUE, of `accounts` accounts (one customer with a
 * mandate each), each drawn by a hash of its number: in due order the accounts are mixed, as on
 * a platform of many tenants, and every claimed batch names many of them.
 */
async function loadManyAccounts(db, { subscriptions, accounts }) {
  await db.query(
    `insert into invoicing.customers (id, account_id, livemode, name, email, currency, default_mandate, metadata, created_at, updated_at)
     select 'cus_bench' || lpad(a::text, 7, '0'), 'acct_bench' || lpad(a::text, 7, '0'), false, 'Bench Ltd',
            'ap@bench.test', 'EUR', 'mdt_benchmandate0001', '{}'::jsonb, $1, $1
       from generate_series(1, $2::int) a`,
    [START, accounts],
  );
  await db.query(
    `insert into invoicing.subscriptions
       (id, account_id, livemode, customer_id, status, currency, interval, interval_count, items, time_zone,
        billing_cycle_anchor, start_date, bill_from, collection_method, dunning_end_state, next_period_index,
        current_period_index, current_period_start, current_period_end, next_action_at, created_at, updated_at)
     select 'sub_bench' || lpad(g::text, 9, '0'), 'acct_bench' || lpad(x.a::text, 7, '0'), false,
            'cus_bench' || lpad(x.a::text, 7, '0'), 'active', 'EUR', 'month', 1,
            '[{"description": "Plan", "unit_amount": 1999, "quantity": 1}]'::jsonb, 'UTC',
            $1::timestamptz - interval '1 month', $2, $2, 'charge_automatically', 'canceled', 1,
            0, $1::timestamptz - interval '1 month', $1, $1, $2, $2
       from generate_series(1, $3::int) g
       cross join lateral (select 1 + abs(hashtext(g::text)) % $4 as a) x`,
    [DUE, START, subscriptions, accounts],
  );
  await db.query('analyze invoicing.subscriptions');
}

/** Runs `instances` engine processes at once over a freshly loaded database; their figures. */
async function billWithProcesses(instances, { subscriptions, accounts, batch, say }) {
  const database = await openDatabase('postgres');
  const workers = [];
  try {
    // This process migrates and loads; the engines are processes of their own.
    const loader = await startService('postgres', database.url);
    try {
      await loadManyAccounts(loader.db, { subscriptions, accounts });
    } finally {
      await loader.stop();
    }
    for (let i = 0; i < instances; i++) {
      const child = fork(fileURLToPath(import.meta.url), ['--engine-worker'], {
        env: { ...process.env, BENCH_BILLING_URL: database.url, BENCH_BILLING_BATCH: String(batch) },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      countAsPlatform(child.pid, `engine-${i + 1}`);
      workers.push({ child, next: messages(child) });
    }
    for (const w of workers) await w.next('ready');
    say(
      `scaling: ${instances} engine process(es) billing ${subscriptions} subscriptions of ${accounts} accounts`,
    );
    const [deadlocksBefore] = await deadlockCount(database.url);
    const machineBefore = cpuTimes();
    const t0 = process.hrtime.bigint();
    for (const w of workers) w.child.send({ due: new Date(DUE.getTime() + 1000).toISOString() });
    const done = await Promise.all(workers.map((w) => w.next('done')));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const machine = machineLoad(machineBefore, cpuTimes());
    // pg_stat_database reports at each transaction's end, flushed within a second.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [deadlocksAfter] = await deadlockCount(database.url);
    const check = await verifyBilled(database.url, subscriptions);
    return {
      instances,
      seconds: Math.round(seconds * 100) / 100,
      subscriptions_per_second: Math.round((subscriptions / seconds) * 10) / 10,
      handled_per_engine: done.map((d) => d.handled),
      engine_cpu_seconds: done.map((d) => d.cpu_seconds),
      deadlocks: deadlocksAfter - deadlocksBefore,
      ...check,
      machine_load: machine,
    };
  } finally {
    for (const w of workers) {
      if (w.child.exitCode === null) {
        const exited = new Promise((resolve) => w.child.once('exit', resolve));
        w.child.send({ stop: true });
        await exited;
      }
    }
    await database.close();
  }
}

/** `next(type)`: the child's next message of that type (an exit before it rejects). */
function messages(child) {
  const waiting = [];
  const queued = [];
  child.on('message', (m) => {
    const i = waiting.findIndex((w) => w.type === m.type);
    if (i >= 0) waiting.splice(i, 1)[0].resolve(m);
    else queued.push(m);
  });
  child.on('exit', (code) => {
    for (const w of waiting.splice(0))
      w.reject(new Error(`engine process exited (${code}) before ${w.type}`));
  });
  return (type) => {
    const i = queued.findIndex((m) => m.type === type);
    if (i >= 0) return Promise.resolve(queued.splice(i, 1)[0]);
    if (child.exitCode !== null) return Promise.reject(new Error(`engine process exited before ${type}`));
    return new Promise((resolve, reject) => waiting.push({ type, resolve, reject }));
  };
}

async function withClient(url, fn) {
  const pg = require(require.resolve('pg', { paths: [join(HERE, '..', 'libs', 'platform')] }));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const deadlockCount = (url) =>
  withClient(url, async (c) => [
    Number(
      (await c.query('select deadlocks from pg_stat_database where datname = current_database()')).rows[0]
        .deadlocks,
    ),
  ]);

/** Every subscription billed exactly once, each account's numbers 1..n without a gap. */
async function verifyBilled(url, subscriptions) {
  return withClient(url, async (c) => {
    const { rows } = await c.query(
      `select (select count(*)::int from invoicing.invoices where status = 'open' and number is not null) as invoices,
              (select count(*)::int from invoicing.outbox where topic = 'payments.commands.v1') as commands,
              (select count(*)::int from invoicing.subscriptions where next_period_index <> 2) as left_over,
              (select count(*)::int from (
                 select account_id from invoicing.invoices
                  group by account_id
                 having count(distinct number) <> count(*)
                     or max(regexp_replace(number, '^.*-', '')::int) <> count(*)) x) as accounts_with_gaps`,
    );
    const check = rows[0];
    if (
      check.invoices !== subscriptions ||
      check.commands !== subscriptions ||
      check.left_over !== 0 ||
      check.accounts_with_gaps !== 0
    )
      throw new Error(`scaling: not every subscription was billed exactly once: ${JSON.stringify(check)}`);
    return {
      invoices_finalized: check.invoices,
      charge_commands: check.commands,
      not_billed: check.left_over,
      accounts_with_gaps: check.accounts_with_gaps,
    };
  });
}

/** Two engine processes against one, on the same load; the ratio two ÷ one. */
export async function runScaling({ subscriptions, accounts, batch, say = () => {} }) {
  const one = await billWithProcesses(1, { subscriptions, accounts, batch, say });
  say(`scaling: one engine ${one.subscriptions_per_second} subscriptions/s`);
  const two = await billWithProcesses(2, { subscriptions, accounts, batch, say });
  say(`scaling: two engines ${two.subscriptions_per_second} subscriptions/s`);
  const ratio = Math.round((two.subscriptions_per_second / one.subscriptions_per_second) * 1000) / 1000;
  return { target: 'scaling', subscriptions, accounts, batch, one, two, ratio };
}

/**
 * Runs the engine until nothing is due, as its 1 s timer would: a run ends early when all it
 * claimed belongs to accounts another engine is billing (billing-engine.ts TAKE_COUNTERS), and
 * at the tail two engines can each end with the other's last rows still locked.
 */
async function billAllDue(db, engine, due) {
  let handled = 0;
  for (;;) {
    handled += await engine.runDue(due, { testClock: null });
    const [{ left }] = await db.query(
      'select count(*)::int as left from invoicing.subscriptions where next_action_at <= $1',
      [due],
    );
    if (left === 0) return handled;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `--engine-worker`: one billing engine on BENCH_BILLING_URL, billing when its parent says so. */
async function engineWorker() {
  const started = await startService('postgres', process.env.BENCH_BILLING_URL);
  const engine = started.engine(Number(process.env.BENCH_BILLING_BATCH));
  await new Promise((resolve, reject) => {
    process.on('message', (m) => {
      if (m.stop) return resolve();
      const cpuBefore = process.cpuUsage();
      billAllDue(started.db, engine, new Date(m.due)).then((handled) => {
        const cpu = process.cpuUsage(cpuBefore);
        process.send({
          type: 'done',
          handled,
          cpu_seconds: Math.round(((cpu.user + cpu.system) / 1e6) * 10) / 10,
        });
      }, reject);
    });
    process.send({ type: 'ready' });
  });
  await started.stop();
}

export const billingEngine = {
  name: 'billing-engine',
  description:
    'one billing engine billing N due subscriptions (invoice created, finalized, charge command emitted), subscriptions per second',
  async run({
    targets,
    quick = false,
    subscriptions,
    accounts = DEFAULTS.accounts,
    batch = DEFAULTS.batch,
    say,
    out = RESULTS_FILE,
  } = {}) {
    const availability = targetAvailability();
    const wanted = targets ?? Object.keys(availability).filter((t) => availability[t].ok);
    const countFor = (target) =>
      subscriptions ??
      (quick
        ? DEFAULTS.quickSubscriptions
        : target === 'embedded'
          ? DEFAULTS.embeddedSubscriptions
          : DEFAULTS.subscriptions);
    const { run: chosen, skipped } = selectRuns(
      ['postgres', 'scaling', 'embedded'],
      wanted,
      availability,
      'target',
    );
    const results = [];
    for (const target of chosen) {
      if (target === 'scaling') {
        const scalingCount =
          subscriptions ?? (quick ? DEFAULTS.quickScalingSubscriptions : DEFAULTS.scalingSubscriptions);
        results.push(
          await runScaling({
            subscriptions: scalingCount,
            accounts: Math.min(accounts, scalingCount),
            batch,
            say,
          }),
        );
      } else results.push(await runTarget(target, { subscriptions: countFor(target), batch, say }));
    }
    return writeReport(out, {
      benchmark: 'billing-engine',
      description: billingEngine.description,
      // Its own machine fields, kept so its results keep their shape (machineInfo() of
      // lib/machine.mjs says cores, cpu, memory_gib, os instead).
      machine: {
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model,
        memory_gb: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
      },
      note: 'engine and (embedded) PGlite in this one Node process; PostgreSQL shares the same cores',
      skipped,
      results,
    });
  },
};

export const { name, description, run } = billingEngine;

async function main() {
  const flags = parseArgs(process.argv.slice(2));
  if (flags.help) {
    process.stdout.write(
      'usage: node bench/billing-engine.mjs [--target postgres|embedded|scaling|all] [--subscriptions N] [--accounts N] [--batch N] [--quick] [--out FILE]\n',
    );
    return;
  }
  if (flags['engine-worker']) return engineWorker();
  const target = flags.target ?? 'all';
  if (!['postgres', 'embedded', 'scaling', 'all'].includes(target))
    throw new Error('--target must be postgres|embedded|scaling|all');
  const report = await billingEngine.run({
    targets: target === 'all' ? undefined : [target],
    quick: Boolean(flags.quick),
    subscriptions: numberFlag(flags, 'subscriptions', undefined, { min: 1 }),
    accounts: numberFlag(flags, 'accounts', DEFAULTS.accounts, { min: 1 }),
    batch: numberFlag(flags, 'batch', DEFAULTS.batch, { min: 1 }),
    out: typeof flags.out === 'string' ? flags.out : RESULTS_FILE,
    say: toStderr,
  });
  process.stdout.write(`${JSON.stringify(report.results, null, 2)}\n`);
  if (report.skipped.length) process.stdout.write(`skipped: ${JSON.stringify(report.skipped)}\n`);
}

runIfMain(import.meta.url, 'billing-engine', main);
