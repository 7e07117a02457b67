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
//   node bench/billing-engine.mjs [--target postgres|embedded|all] [--subscriptions 100000]
//        [--batch 50] [--quick] [--out FILE]
//
// Self-contained module for the bench runner: export { name, description, run(opts) } with
// run -> { results, skipped }.

import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberFlag, parseArgs } from './lib/args.mjs';
import { recordFigure } from './lib/figures.mjs';
import { cpuTimes, machineLoad } from './lib/machine.mjs';
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
};

export function targetAvailability(env = process.env) {
  return {
    postgres: env.DATABASE_URL
      ? { ok: true }
      : { ok: false, reason: 'DATABASE_URL is not set (eval "$(bash infra/infra-up.sh)")' },
    embedded: { ok: true },
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

/** Bills `subscriptions` due subscriptions with one engine; returns the figures. */
export async function runTarget(target, { subscriptions, batch, say = () => {} }) {
  const { EmbeddedBus, ManualClock, randomBase62 } = platform();
  const { createInvoicing, readInvoicingConfig } = invoicingDist();
  const database = await openDatabase(target);
  const logger = silentLogger();
  const start = new Date('2030-01-01T00:00:00Z');
  const clock = new ManualClock(start);
  const bus = new EmbeddedBus(database.url, logger);
  await bus.connect();
  const mailDir = join(os.tmpdir(), `paygrid-bench-mail-${randomBytes(4).toString('hex')}`);
  const service = await createInvoicing(
    readInvoicingConfig({
      // On PostgreSQL the engine runs as the distributed invoicing service does (named prepared
      // statements, the outbox's NOTIFY), its bus the in-process one (nothing is relayed).
      PAYGRID_MODE: target === 'postgres' ? 'distributed' : 'embedded',
      // Required of distributed config, never dialled: the bus is passed in.
      ...(target === 'postgres' ? { KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092' } : {}),
      DATABASE_URL: database.url,
      INTERNAL_SIGNING_SECRET: randomBase62(48),
      PORT: '0',
      OUTBOX_RELAY_ENABLED: 'false',
      MAIL_DIR: mailDir,
    }),
    { bus, clock, logger },
  );
  const db = service.runtime.db;
  try {
    const account = `acct_bench${randomBase62(16)}`;
    const customer = `cus_bench${randomBase62(16)}`;
    await db.query(
      `insert into invoicing.customers (id, account_id, livemode, name, email, currency, default_mandate, metadata, created_at, updated_at)
       values ($1, $2, false, 'Bench Ltd', 'ap@bench.test', 'EUR', 'mdt_benchmandate0001', '{}'::jsonb, $3, $3)`,
      [customer, account, start],
    );
    const due = new Date(start.getTime() + 86_400_000);
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
    const { BillingEngine } = require(
      join(HERE, '..', 'apps', 'invoicing', 'dist', 'billing', 'billing-engine.js'),
    );
    const engine = new BillingEngine(db, service.invoices, clock, logger, { batchSize: batch });
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
    );
    say(
      `${target}: ${result.subscriptions_per_second} subscriptions/s (${subscriptions} in ${result.seconds} s)`,
    );
    return result;
  } finally {
    await service.stop();
    await bus.close();
    await database.close();
  }
}

export const billingEngine = {
  name: 'billing-engine',
  description:
    'one billing engine billing N due subscriptions (invoice created, finalized, charge command emitted), subscriptions per second',
  async run({ targets, quick = false, subscriptions, batch = DEFAULTS.batch, say, out = RESULTS_FILE } = {}) {
    const availability = targetAvailability();
    const wanted = targets ?? Object.keys(availability).filter((t) => availability[t].ok);
    const countFor = (target) =>
      subscriptions ??
      (quick
        ? DEFAULTS.quickSubscriptions
        : target === 'embedded'
          ? DEFAULTS.embeddedSubscriptions
          : DEFAULTS.subscriptions);
    const { run: chosen, skipped } = selectRuns(['postgres', 'embedded'], wanted, availability, 'target');
    const results = [];
    for (const target of chosen)
      results.push(await runTarget(target, { subscriptions: countFor(target), batch, say }));
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
      'usage: node bench/billing-engine.mjs [--target postgres|embedded|all] [--subscriptions N] [--batch N] [--quick] [--out FILE]\n',
    );
    return;
  }
  const target = flags.target ?? 'all';
  if (!['postgres', 'embedded', 'all'].includes(target))
    throw new Error('--target must be postgres|embedded|all');
  const report = await billingEngine.run({
    targets: target === 'all' ? undefined : [target],
    quick: Boolean(flags.quick),
    subscriptions: numberFlag(flags, 'subscriptions', undefined, { min: 1 }),
    batch: numberFlag(flags, 'batch', DEFAULTS.batch, { min: 1 }),
    out: typeof flags.out === 'string' ? flags.out : RESULTS_FILE,
    say: toStderr,
  });
  process.stdout.write(`${JSON.stringify(report.results, null, 2)}\n`);
  if (report.skipped.length) process.stdout.write(`skipped: ${JSON.stringify(report.skipped)}\n`);
}

runIfMain(import.meta.url, 'billing-engine', main);
