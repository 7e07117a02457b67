// The embedded default's database port (issue 14 item 6, docs/adr/0015-database-port.md): the
// same statements through each way the services could reach PGlite, interleaved round by
// round on the same machine, with medians over the rounds.
//
//   TypeORM + pg    TypeORM's DataSource as the pool (4), over pg -> the wire-protocol server
//                   (libs/platform/src/db/pglite-server.ts) -> PGlite: the port before ADR 0015
//   pg + wire       the platform's Database since ADR 0015: pg's Pool (4) -> the same server
//   PGlite direct   PGlite's own query() and transaction(), in process (no socket, no driver)
//   typeorm-pglite  TypeORM with the typeorm-pglite 0.3.4 driver (PGlite in process); loaded
//                   only when installed (it is not a dependency of the repository):
//                   npm install --prefix /tmp/tpl --legacy-peer-deps typeorm-pglite@0.3.4 @electric-sql/pglite@0.5.14
//                   TYPEORM_PGLITE=/tmp/tpl/node_modules node bench/db-port.mjs
//
// Per round and variant: a single-row read by primary key (sequential), a small write
// transaction (two inserts and an update, sequential), and N concurrent transactions that each
// read one counter row FOR UPDATE and write it back plus one: a correct port ends at N (no
// lost update) with no error.
//
//   node bench/db-port.mjs [--rounds 5] [--reads 300] [--writes 100] [--concurrent 32]
//   npm run bench -- --only db-port

import { createRequire } from 'node:module';
import os from 'node:os';
import { setImmediate } from 'node:timers/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Database, startEmbeddedDatabase } from '@paygrid/platform';
import { numberFlag, parseArgs } from './lib/args.mjs';
import { cpuSpeed } from './lib/machine.mjs';
import { runIfMain } from './lib/module.mjs';
import { resultsFile, toStderr, writeReport } from './lib/report.mjs';
import { markdownTable, round, summarize } from './lib/stats.mjs';

// pg, TypeORM and PGlite exactly as the platform resolves them (its own dependencies).
const fromPlatform = createRequire(import.meta.resolve('@paygrid/platform'));
const pg = fromPlatform('pg');
const { DataSource } = fromPlatform('typeorm');
const { PGlite } = await import(pathToFileURL(fromPlatform.resolve('@electric-sql/pglite')).href);

const SETUP = `
  create schema if not exists bench;
  create table bench.items (id text primary key, account_id text not null, amount bigint not null,
    created_at timestamptz not null default now());
  insert into bench.items (id, account_id, amount)
    select 'itm_' || g, 'acct_' || (g % 10), g * 100 from generate_series(1, 1000) g;
  create table bench.ledger (id bigserial primary key, item text not null, amount bigint not null);
  create table bench.counter (id int primary key, n bigint not null);
  insert into bench.counter values (1, 0);`;

/** { name, query(sql, params) -> rows, transaction(work(query)), close() } for each port. */
async function variants(say) {
  const made = [];
  const wire = await startEmbeddedDatabase('memory://');
  const setupClient = new pg.Client({ connectionString: wire.url });
  await setupClient.connect();
  await setupClient.query(SETUP);
  await setupClient.end();
  // The port as it was before ADR 0015: TypeORM's DataSource as the pool, over pg.
  const source = new DataSource({
    type: 'postgres',
    url: wire.url,
    schema: 'bench',
    synchronize: false,
    logging: false,
    extra: { max: 4 },
  });
  await source.initialize();
  made.push({
    name: 'TypeORM + pg -> wire server (before ADR 0015)',
    query: (sql, params) => source.query(sql, params),
    transaction: (work) => source.transaction((manager) => work((sql, params) => manager.query(sql, params))),
    close: async () => {
      await source.destroy();
      await wire.close();
    },
  });

  const wire2 = await startEmbeddedDatabase('memory://');
  const db = await Database.connect({ url: wire2.url, schema: 'bench', migrations: [], poolSize: 4 });
  await db.pool.query(SETUP);
  made.push({
    name: 'pg -> wire server (the platform Database since ADR 0015)',
    query: (sql, params) => db.query(sql, params),
    // What the services call (retries of serialization failures and deadlocks included).
    transaction: (work) => db.transaction((tx) => work((sql, params) => tx.query(sql, params))),
    close: async () => {
      await db.close();
      await wire2.close();
    },
  });

  const lite = await PGlite.create();
  await lite.exec(SETUP);
  made.push({
    name: 'PGlite direct',
    query: async (sql, params) => (await lite.query(sql, params)).rows,
    transaction: (work) =>
      lite.transaction((tx) => work(async (sql, params) => (await tx.query(sql, params)).rows)),
    close: () => lite.close(),
  });

  const skipped = [];
  const driverDir = process.env.TYPEORM_PGLITE;
  if (driverDir) {
    const { PGliteDriver, getPGliteInstance } = createRequire(join(driverDir, 'noop.js'))('typeorm-pglite');
    const source = new DataSource({
      type: 'postgres',
      driver: new PGliteDriver().driver,
      synchronize: false,
      logging: false,
    });
    await source.initialize();
    await (await getPGliteInstance()).exec(SETUP);
    made.push({
      name: 'typeorm-pglite 0.3.4',
      query: (sql, params) => source.query(sql, params),
      transaction: (work) =>
        source.transaction((manager) => work((sql, params) => manager.query(sql, params))),
      close: () => source.destroy(),
    });
  } else {
    skipped.push({
      variant: 'typeorm-pglite',
      reason: 'not installed here; see the head of bench/db-port.mjs (TYPEORM_PGLITE)',
    });
    say('[db-port] typeorm-pglite skipped: TYPEORM_PGLITE is not set');
  }
  return { made, skipped };
}

async function timed(count, op) {
  const samples = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await op(i);
    samples.push(performance.now() - t);
  }
  const seconds = (performance.now() - start) / 1000;
  return { p50: summarize(samples).p50, p99: summarize(samples).p99, per_s: round(count / seconds, 0) };
}

async function round1(variant, params) {
  const read = await timed(params.reads, (i) =>
    variant.query('select id, account_id, amount from bench.items where id = $1', [`itm_${(i % 1000) + 1}`]),
  );
  const write = await timed(params.writes, (i) =>
    variant.transaction(async (q) => {
      const item = `itm_${(i % 1000) + 1}`;
      await q('insert into bench.ledger (item, amount) values ($1, $2)', [item, 100]);
      await q('insert into bench.ledger (item, amount) values ($1, $2)', [item, -100]);
      await q('update bench.items set amount = amount + 1 where id = $1', [item]);
    }),
  );
  await variant.query('update bench.counter set n = 0 where id = 1');
  const start = performance.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: params.concurrent }, () =>
      variant.transaction(async (q) => {
        const [row] = await q('select n from bench.counter where id = 1 for update');
        // A turn of the event loop between the read and the write, as a service's code has.
        await setImmediate();
        await q('update bench.counter set n = $1 where id = 1', [Number(row.n) + 1]);
      }),
    ),
  );
  const wallMs = performance.now() - start;
  const [{ n }] = await variant.query('select n from bench.counter where id = 1');
  const errors = outcomes.filter((o) => o.status === 'rejected');
  return {
    read,
    write,
    concurrent: {
      ms: round(wallMs, 1),
      final: Number(n),
      lost_updates: params.concurrent - errors.length - Number(n),
      errors: errors.length,
      first_error: errors[0]?.reason?.message,
    },
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

export const dbPort = {
  name: 'db-port',
  description:
    'The embedded database port: TypeORM + pg through the wire-protocol server (today), pg through it, PGlite called directly, and typeorm-pglite when installed; medians over interleaved rounds.',
  async run(opts = {}) {
    const say = opts.say ?? toStderr;
    const params = {
      rounds: numberFlag(opts, 'rounds', opts.quick ? 3 : 5, { min: 1 }),
      reads: numberFlag(opts, 'reads', opts.quick ? 100 : 300, { min: 1 }),
      writes: numberFlag(opts, 'writes', opts.quick ? 40 : 100, { min: 1 }),
      concurrent: numberFlag(opts, 'concurrent', 32, { min: 2 }),
    };
    const machineBefore = { loadavg: os.loadavg().map((l) => round(l)), cpu_speed: cpuSpeed(500) };
    const { made, skipped } = await variants(say);
    const rounds = new Map(made.map((v) => [v.name, []]));
    try {
      for (let r = 0; r < params.rounds; r++) {
        // Interleaved, and the order rotated each round, so drift on the shared machine falls
        // on every variant alike.
        for (let k = 0; k < made.length; k++) {
          const variant = made[(r + k) % made.length];
          const result = await round1(variant, params);
          rounds.get(variant.name).push(result);
          say(`[db-port] round ${r + 1} ${variant.name}: ${JSON.stringify(result)}`);
        }
      }
    } finally {
      for (const variant of made) await variant.close().catch(() => undefined);
    }
    const results = made.map(({ name }) => {
      const runs = rounds.get(name);
      const m = (pick) => median(runs.map(pick));
      return {
        variant: name,
        params,
        read_p50_ms: m((x) => x.read.p50),
        read_p99_ms: m((x) => x.read.p99),
        reads_per_s: m((x) => x.read.per_s),
        write_tx_p50_ms: m((x) => x.write.p50),
        write_tx_per_s: m((x) => x.write.per_s),
        concurrent_ms: m((x) => x.concurrent.ms),
        lost_updates: runs.map((x) => x.concurrent.lost_updates),
        errors: runs.map((x) => x.concurrent.errors),
        first_error: runs.find((x) => x.concurrent.first_error)?.concurrent.first_error,
      };
    });
    const machine = {
      before: machineBefore,
      after: { loadavg: os.loadavg().map((l) => round(l)), cpu_speed: cpuSpeed(500) },
    };
    writeReport(opts.out ?? resultsFile('db-port'), {
      benchmark: dbPort.name,
      description: dbPort.description,
      params,
      machine_state: machine,
      results,
      skipped,
    });
    return { params, machine_state: machine, results, skipped };
  },
  // One row per variant (run.mjs calls it for each entry of results).
  rows: (x) => [
    {
      benchmark: 'db-port',
      transport: x.variant,
      load: `${x.params.rounds} rounds: ${x.params.reads} reads, ${x.params.writes} write transactions, ${x.params.concurrent} concurrent FOR UPDATE`,
      throughput: `${x.reads_per_s} reads/s, ${x.write_tx_per_s} tx/s`,
      p50: x.read_p50_ms,
      p99: x.read_p99_ms,
      unit: 'ms per primary-key read (median of rounds)',
      lost: x.lost_updates.reduce((a, b) => a + b, 0),
      notes: `write tx p50 ${x.write_tx_p50_ms} ms; ${x.params.concurrent} concurrent in ${x.concurrent_ms} ms, lost updates per round ${x.lost_updates.join('/')}, errors ${x.errors.join('/')}`,
    },
  ],
};

export function table(report) {
  return markdownTable(
    [
      'variant',
      'read p50 ms',
      'read p99 ms',
      'reads/s',
      'write tx p50 ms',
      'write tx/s',
      `${report.params.concurrent} concurrent FOR UPDATE, ms`,
      'lost updates per round',
      'errors per round',
    ],
    report.results.map((x) => [
      x.variant,
      x.read_p50_ms,
      x.read_p99_ms,
      x.reads_per_s,
      x.write_tx_p50_ms,
      x.write_tx_per_s,
      x.concurrent_ms,
      x.lost_updates.join('/'),
      x.errors.join('/') + (x.first_error ? ` (${x.first_error})` : ''),
    ]),
  );
}

runIfMain(import.meta.url, 'db-port', async () => {
  const report = await dbPort.run(parseArgs(process.argv.slice(2)));
  process.stdout.write(`${table(report)}\n\nmachine: ${JSON.stringify(report.machine_state)}\n`);
  if (report.skipped.length) process.stdout.write(`skipped: ${JSON.stringify(report.skipped)}\n`);
});
