#!/usr/bin/env node
// `npm run bench` (from the repo root: builds, then runs this). Runs every benchmark in
// BENCHMARKS with the transports available here and writes bench/report.json and
// bench/report.md. Each benchmark also leaves its own file in bench/results/ (gitignored).
//
//   npm run bench                          # full: 200 events/s, 10 s measured per transport
//   npm run bench -- --quick               # 3 s measured per transport
//   npm run bench -- --only outbox-latency --transport embedded --rate 500 --seconds 20
//
// Adding a benchmark: export { name, description, run(opts) } from a module, where run
// returns { results: [...], skipped: [...] } with one entry per figure (each saying its
// transport/mode), and add it to BENCHMARKS with a function turning a result into table rows.
// A module that also exports its own rows(result) is added with one line (`myBench,`).
// opts carries { transports, quick, ...flags }; a module that needs the platform running
// takes it from lib/platform-target.mjs (sharedTarget(mode), modesFor(opts)) so a run starts
// it once per mode; lib/report.mjs's perModeBenchmark makes such a module from its
// runMode(mode, params, say). The machine column is added to every row by run.mjs.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberFlag, parseArgs } from './lib/args.mjs';
import { cpuSpeed, machineInfo } from './lib/machine.mjs';
import { runIfMain } from './lib/module.mjs';
import { markdownTable } from './lib/stats.mjs';
import { api } from './api.mjs';
import { billingEngine } from './billing-engine.mjs';
import { curves, renderCurves } from './curves.mjs';
import { dbPort } from './db-port.mjs';
import { gatewayOverhead } from './gateway-overhead.mjs';
import { invoices } from './invoices.mjs';
import { modesFor, sharedTarget, stopSharedTargets } from './lib/platform-target.mjs';
import { outboxLatency, transportAvailability } from './outbox-latency.mjs';
import { overload } from './overload.mjs';
import { pgbenchBaseline } from './pgbench-baseline.mjs';
import { references } from './references.mjs';
import { soak } from './soak.mjs';
import { webhooks } from './webhooks.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

const statusNote = (statuses = {}, errors = {}) =>
  [
    ...Object.entries(statuses).map(([k, v]) => `${k}: ${v}`),
    ...Object.entries(errors).map(([k, v]) => `${k}: ${v}`),
  ].join(', ');
const lat = (l) => ({ count: l.count, p50: l.p50, p90: l.p90, p99: l.p99, max: l.max });

const pct = (f) => (f === undefined ? '?' : `${Math.round(f * 100)}%`);
const cpuNote = (load) => {
  const g = load.cpu_by_group ?? {};
  return `${pct(load.cpu_busy)} busy (bench process ${pct(g.this_process)}, platform apps ${pct(g.platform)}, postgres ${pct(g.postgres)}, kafka ${pct(g.kafka)}, other processes ${pct(g.others)})`;
};

/** CPU milliseconds per operation (a checkout: its two requests) of each platform process that did any work (machine.mjs). */
const cpuPerOpNote = (load, ops) => {
  const entries = Object.entries(load?.cpu_ms_by_process ?? {}).filter(([, ms]) => ms > 0);
  if (!ops || entries.length === 0) return '';
  return `; CPU per operation: ${entries.map(([name, ms]) => `${name} ${(ms / ops).toFixed(2)} ms`).join(', ')}`;
};

/**
 * name, description, run(opts) -> { results, skipped }, rows(result) -> summary rows
 * ({ benchmark, transport, mode, load, count, p50, p90, p99, max, unit, lost?, notes }).
 */
export const BENCHMARKS = [
  {
    ...outboxLatency,
    run: (opts) => outboxLatency.run(opts),
    rows: (r) => [
      {
        benchmark: 'outbox-latency',
        mode: r.mode,
        transport: r.transport,
        load: `${r.params.rate_per_s}/s target, ${r.achieved_rate_per_s.committed}/s achieved, ${r.params.seconds} s`,
        throughput: `${r.achieved_rate_per_s.committed} events/s`,
        count: r.latency_ms.count,
        p50: r.latency_ms.p50,
        p90: r.latency_ms.p90,
        p99: r.latency_ms.p99,
        max: r.latency_ms.max,
        unit: 'ms commit→consumer handler',
        lost: r.events.lost,
        notes:
          `lost ${r.events.lost}, duplicates ${r.events.duplicates}, redeliveries ${r.events.redeliveries}; ` +
          `CPU of both cores: ${cpuNote(r.machine_load)}`,
      },
    ],
  },
  {
    ...gatewayOverhead,
    // The kafka transport stands for the distributed infrastructure (which also needs Redis),
    // on the platform shared with the service benchmarks: one start-up per mode.
    run: (opts) =>
      gatewayOverhead.run({ ...opts, modes: modesFor(opts).modes, targetFor: (mode) => sharedTarget(mode) }),
    rows: (r) =>
      ['gateway', 'direct'].map((path) => ({
        benchmark: 'gateway-overhead',
        mode: r.mode,
        transport: path === 'gateway' ? 'through the gateway' : 'straight to payments',
        load: `${r.params.path}, ${r.params.connections} connections, ${r.params.seconds} s, ${r[path].requests_per_s} req/s`,
        throughput: `${r[path].requests_per_s} req/s`,
        count: r[path].latency_ms.count,
        p50: r[path].latency_ms.p50,
        p90: r[path].latency_ms.p90,
        p99: r[path].latency_ms.p99,
        max: r[path].latency_ms.max,
        unit: 'ms per request (closed model)',
        target:
          path === 'gateway'
            ? {
                figure: `gateway added latency p50 / p99 (${r.mode}, ${r.params.connections} connections)`,
                service: `${r.gateway.latency_ms.p50} / ${r.gateway.latency_ms.p99} ms through the gateway`,
                reference: `${r.direct.latency_ms.p50} / ${r.direct.latency_ms.p99} ms straight to payments`,
                ratio: `+${r.added_ms.p50} / +${r.added_ms.p99} ms`,
                target: '≤ +1 / +3 ms',
                met: r.added_ms.p50 <= 1 && r.added_ms.p99 <= 3 ? 'yes' : '**no**',
              }
            : undefined,
        notes:
          (path === 'gateway'
            ? `added p50 ${r.added_ms.p50} ms, p99 ${r.added_ms.p99} ms; throughput ratio ${r.throughput_ratio}; ` +
              (r.gateway.gateway_cpu_us_per_request !== undefined
                ? `gateway process ${r.gateway.gateway_cpu_us_per_request} µs CPU per request; `
                : '')
            : '') +
          `platform processes ${r[path].platform_cpu_cores} cores; CPU of both cores: ${cpuNote(r[path].machine_load)}`,
      })),
  },
  {
    ...api,
    rows: (r) =>
      r.results.map((x) => ({
        benchmark: 'api',
        mode: r.mode,
        transport: {
          read: 'GET /v1/merchants (authenticated read)',
          checkout: 'checkout payment (GET /pay/:link + POST card)',
          'checkout-stripe': 'live checkout payment through the Stripe connector (stripe-mock)',
          'list-transactions': `GET /v1/transactions page of 100, filtered, ${x.table_rows?.toLocaleString('en')} rows`,
          refund: 'POST /v1/refunds (full refund)',
        }[x.name],
        load: `${x.connections} connections, ${x.seconds} s`,
        throughput: `${x.ops_per_s} ${x.name.startsWith('checkout') ? 'payments' : x.name === 'refund' ? 'refunds' : 'req'}/s`,
        ...lat(x.latency_ms),
        unit: 'ms per operation (closed model)',
        notes:
          `${statusNote(x.statuses, x.errors)}` +
          (x.sandbox_checkouts_per_s
            ? `; **Stripe ÷ sandbox = ${Math.round((x.ops_per_s / x.sandbox_checkouts_per_s) * 100) / 100}** (sandbox ${x.sandbox_checkouts_per_s} payments/s, same run)`
            : '') +
          (x.seed_seconds !== undefined ? `; seeded in ${x.seed_seconds} s` : '') +
          (x.unbalanced_after !== undefined
            ? `; unbalanced ledger transactions after: ${x.unbalanced_after}`
            : '') +
          `; CPU of both cores: ${cpuNote(x.machine_load)}` +
          cpuPerOpNote(x.machine_load, x.ops_total),
      })),
  },
  {
    ...invoices,
    rows: (r) =>
      r.results.map((x) => ({
        benchmark: 'invoices',
        mode: r.mode,
        transport:
          x.name === 'create-and-send'
            ? 'POST /v1/invoices (create, finalize, mail queued)'
            : `GET /v1/invoices page of 100, status+customer+created, ${x.table_rows?.toLocaleString('en')} rows`,
        load: `${x.connections} connections, ${x.seconds} s`,
        throughput: `${x.ops_per_s} ${x.name === 'create-and-send' ? 'invoices' : 'req'}/s`,
        ...lat(x.latency_ms),
        unit: 'ms per request (closed model)',
        notes:
          `${statusNote(x.statuses, x.errors)}` +
          (x.seed_seconds !== undefined ? `; seeded in ${x.seed_seconds} s` : '') +
          (x.page_bytes ? `; a full page is ${(x.page_bytes / 1024).toFixed(1)} KiB` : '') +
          (x.mail_drain
            ? `; its e-mails all sent ${(x.mail_drain.waited_ms / 1000).toFixed(1)} s after the loop` +
              (x.mail_drain.left_due ? ` (${x.mail_drain.left_due} still due at 120 s)` : '') +
              `, ${x.sent_per_s} invoices/s created and mailed, warm-up included`
            : '') +
          (x.numbering
            ? `; numbers ${x.numbering.numbered}, distinct ${x.numbering.distinct_numbers}, counter ${x.numbering.counter}`
            : '') +
          `; CPU of both cores: ${cpuNote(x.machine_load)}` +
          cpuPerOpNote(x.machine_load, x.ops_total),
      })),
  },
  {
    ...billingEngine,
    // Its own targets (postgres: a fresh database on DATABASE_URL; embedded: PGlite in the
    // bench process), not the shared platform: it drives BillingEngine.runDue directly.
    run: (o) =>
      billingEngine.run({
        targets: o.transports.map((t) => (t === 'kafka' ? 'postgres' : t)),
        quick: o.quick,
        subscriptions: o.subscriptions,
      }),
    // One result per target.
    rows: (x) => [
      {
        benchmark: 'billing-engine',
        mode: x.target === 'postgres' ? 'distributed' : 'embedded',
        transport: `one engine billing ${x.subscriptions.toLocaleString('en')} due subscriptions (${x.target})`,
        load: `batch ${x.batch}, ${x.subscriptions.toLocaleString('en')} subscriptions due at once`,
        throughput: `${x.subscriptions_per_second} subscriptions/s`,
        count: x.subscriptions,
        unit: 'subscriptions billed per second (invoice created, finalized, charge command)',
        notes:
          `${x.seconds} s; invoices finalized ${x.invoices_finalized}, charge commands ${x.charge_commands}, not billed ${x.not_billed}; bench process ${x.bench_process_cpu_seconds} CPU s` +
          (x.machine_load ? `; CPU of both cores: ${cpuNote(x.machine_load)}` : ''),
      },
    ],
  },
  {
    ...webhooks,
    rows: (r) =>
      r.results.map((x) =>
        x.name === 'bare-delivery-loop'
          ? {
              benchmark: 'webhooks',
              mode: r.mode,
              transport: 'reference: bare undici loop posting the same signed payloads to the same receiver',
              load: `${x.params.backlog} deliveries over ${x.params.endpoints} endpoints, ${x.params.in_flight} in flight (10 per endpoint), keep-alive`,
              throughput: `${x.deliveries_per_s} deliveries/s`,
              count: x.delivered,
              unit: 'deliveries/s (10th–90th percentile of arrivals)',
              target: {
                figure: `webhook deliveries, one instance (${r.mode})`,
                service: `${x.service_deliveries_per_s} deliveries/s`,
                reference: `${x.deliveries_per_s} deliveries/s (bare undici loop, same receiver)`,
                ratio: x.ratio,
                target: '≥ 0.5',
                met: x.ratio === undefined ? '' : x.ratio >= 0.5 ? 'yes' : '**no**',
              },
              notes:
                `${x.ratio === undefined ? '' : `**ratio ${x.ratio}** (service ${x.service_deliveries_per_s} ÷ reference ${x.deliveries_per_s}; target ≥ 0.5); `}` +
                `sent ${x.sent}, failed ${x.failed}, whole drain ${x.deliveries_per_s_whole_run}/s; CPU of both cores: ${cpuNote(x.machine_load)}`,
            }
          : x.name === 'e2e-latency'
            ? {
                benchmark: 'webhooks',
                mode: r.mode,
                transport: 'end to end: API call → receiver handler',
                load: `${x.params.rate_per_s}/s steady (open model), ${x.params.seconds} s, ${x.params.cause}`,
                throughput: `${x.params.rate_per_s} events/s`,
                ...lat(x.latency_ms),
                unit: 'ms API call sent → receiver handler',
                lost: x.lost,
                notes: `delivered ${x.delivered}/${x.api_ok}, lost ${x.lost}, duplicates ${x.duplicates}; API call p50 ${x.api_latency_ms.p50} ms; CPU of both cores: ${cpuNote(x.machine_load)}`,
              }
            : {
                benchmark: 'webhooks',
                mode: r.mode,
                transport: `max deliveries/s, ${x.params.instances} webhooks instance${x.params.instances > 1 ? 's' : ''}`,
                load: `backlog of ${x.params.backlog} over ${x.params.endpoints} endpoints of a local receiver`,
                throughput: `${x.deliveries_per_s} deliveries/s`,
                count: x.delivered,
                unit: 'deliveries/s (10th–90th percentile of arrivals)',
                notes:
                  `whole drain ${x.deliveries_per_s_whole_run}/s in ${x.drain_seconds} s; ` +
                  `${x.undelivered_at_timeout ? `**${x.undelivered_at_timeout} still queued after ${x.wait_seconds} s**; ` : ''}` +
                  `duplicates ${x.duplicates}; CPU of both cores: ${cpuNote(x.machine_load)}`,
              },
      ),
  },
  {
    ...overload,
    rows: (r) =>
      r.phases.map((p) => ({
        benchmark: 'overload',
        mode: r.mode,
        transport: `${p.phase}: GET /v1/merchants at ${p.rate_per_s}/s (sustainable ${r.sustainable_per_s}/s = the key's limit = half the measured ${r.measured_capacity_per_s}/s)`,
        load: `open model, ${p.seconds} s, ${p.sent} sent`,
        throughput: `${p.ok_per_s} ok/s`,
        ...lat(p.latency_ms),
        unit: 'ms per 200 response',
        notes:
          `${statusNote(p.statuses, p.errors)}; unfinished ${p.unfinished}` +
          (p.phase === 'recovery'
            ? `; recovered: ${r.recovered ? `yes, from second ${r.recovered_after_s} (p99 ≤ ${r.recovery_p99_threshold_ms} ms, all 200)` : 'no'}`
            : '') +
          `; CPU of both cores: ${cpuNote(p.machine_load)}`,
      })),
  },
  {
    ...soak,
    rows: (r) =>
      Object.entries(r.memory).map(([name, m]) => ({
        benchmark: 'soak',
        mode: r.mode,
        transport: `RSS of ${name}`,
        load: `${r.seconds} s mixed load (40 reads/s, 5 links/s, 2 checkouts/s)`,
        throughput: '',
        unit: 'MiB RSS',
        notes: `start ${m.start_mib}, at 1 min ${m.at_1min_mib}, end ${m.end_mib}, max ${m.max_mib}, growth after 1 min ${m.growth_after_1min_mib} MiB`,
      })),
  },
  {
    ...pgbenchBaseline,
    rows: (r) => [
      {
        benchmark: 'pgbench-baseline',
        mode: r.mode,
        transport: "pgbench: a checkout payment's SQL (same PostgreSQL)",
        load: `${r.params.clients} clients, ${r.params.threads} threads, ${r.params.seconds} s`,
        throughput: `${Math.round(r.tps)} checkouts/s`,
        p50: r.latency_avg_ms,
        unit: 'ms average per checkout (pgbench reports no percentiles)',
        notes: `**service ÷ pgbench = ${r.ratio}** (service ${r.service_checkouts_per_s} checkouts/s); failed ${r.failed}; CPU of both cores: ${cpuNote(r.machine_load)}`,
      },
    ],
  },
  // The embedded database port (docs/adr/0015): in-process, no platform needed.
  dbPort,
  // Last: the references of issue 15 run after the service figures they are compared with.
  references,
];

async function main() {
  const flags = parseArgs(process.argv.slice(2));
  if (flags.help) {
    process.stdout.write(
      'usage: npm run bench -- [--quick] [--only NAME[,NAME]] [--transport kafka|embedded|all]\n' +
        '         [--rate N] [--seconds N] [--warmup N] [--drain N] [--partitions N] [--instances N]\n' +
        '         [--relay-poll-ms N] [--connections N] [--rows N] [--backlog N] [--webhook-rate N]\n' +
        '         [--soak SECONDS] [--subscriptions N] [--report NAME]\n' +
        '       npm run bench -- --curves [--quick] [--only curves.checkout,curves.list,curves.billing,curves.deliveries]\n' +
        '         [--curves-10m] [--curves-1m]\n' +
        `benchmarks: ${BENCHMARKS.map((b) => b.name).join(', ')}\n`,
    );
    return;
  }
  const quick = Boolean(flags.quick);
  // --report NAME writes NAME.json / NAME.md (e.g. a soak run next to the main report).
  // --quick writes report-quick.*, so a smoke run never replaces the committed full report.
  const reportName = flags.report
    ? String(flags.report).replace(/[^\w.-]/g, '')
    : quick
      ? 'report-quick'
      : 'report';
  // --only NAME[,NAME] runs those benchmarks; NAME.PART (e.g. references.read) runs a part of
  // one (the module receives `parts`), so a short run can check one row.
  const onlyEntries = flags.only ? String(flags.only).split(',') : undefined;
  const only = onlyEntries?.map((e) => e.split('.')[0]);
  const partsOf = (name) => {
    const parts = onlyEntries?.filter((e) => e.startsWith(`${name}.`)).map((e) => e.slice(name.length + 1));
    return parts?.length ? parts : undefined;
  };
  const availability = transportAvailability();
  let transports = Object.keys(availability).filter((t) => availability[t].ok);
  if (flags.transport && flags.transport !== 'all') {
    const t = String(flags.transport);
    if (!(t in availability)) throw new Error('--transport must be kafka|embedded|all');
    if (!availability[t].ok) throw new Error(`${t}: ${availability[t].reason}`);
    transports = [t];
  }
  for (const [t, a] of Object.entries(availability)) {
    if (!a.ok) process.stderr.write(`[bench] ${t} not available, running without it: ${a.reason}\n`);
  }
  const overrides = {};
  for (const [flag, key] of [
    ['rate', 'rate'],
    ['seconds', 'seconds'],
    ['warmup', 'warmup'],
    ['drain', 'drain'],
    ['partitions', 'partitions'],
    ['instances', 'instances'],
    ['relay-poll-ms', 'relayPollMs'],
    ['connections', 'connections'],
    ['rows', 'rows'],
    ['soak', 'soak'],
    ['backlog', 'backlog'],
    ['webhook-rate', 'webhookRate'],
    ['subscriptions', 'subscriptions'],
  ]) {
    const value = numberFlag(flags, flag, undefined, { min: 0 });
    if (value !== undefined) overrides[key] = value;
  }

  // A hard bound on the whole run, so a wedged transport cannot hang CI.
  const perTransport =
    (overrides.warmup ?? 1) + (overrides.seconds ?? (quick ? 3 : 10)) + (overrides.drain ?? 30);
  const budgetMs =
    (BENCHMARKS.length * transports.length * (perTransport + 150) +
      transports.length * (overrides.soak ?? 0)) *
    1000;
  setTimeout(() => {
    process.stderr.write(`[bench] did not finish within ${budgetMs / 1000} s; giving up\n`);
    setTimeout(() => process.exit(3), 30_000).unref();
    stopSharedTargets().finally(() => process.exit(3));
  }, budgetMs).unref();

  // Stopped by a signal (Ctrl-C, kill): stop the platforms first, or their processes would
  // outlive the run and load the machine of the next one.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      process.stderr.write(`[bench] ${signal}: stopping the platforms\n`);
      setTimeout(() => process.exit(130), 30_000).unref();
      stopSharedTargets().finally(() => process.exit(130));
    });
  }

  if (flags.curves) {
    await runCurves({ flags, quick, transports, overrides, parts: partsOf('curves') });
    return;
  }

  const started = new Date();
  const benchmarks = [];
  // The machine's single-thread speed before each benchmark and at the end (lib/machine.mjs).
  const speeds = [];
  try {
    for (const bench of BENCHMARKS) {
      if (only && !only.includes(bench.name)) continue;
      if (bench.name === 'soak' && !overrides.soak) continue;
      process.stderr.write(`[bench] ${bench.name}: ${bench.description}\n`);
      const speedBefore = cpuSpeed(500);
      speeds.push(speedBefore);
      const report = await bench.run({ transports, quick, parts: partsOf(bench.name), ...overrides });
      benchmarks.push({
        name: bench.name,
        description: bench.description,
        cpu_speed_before: speedBefore,
        ...report,
        // Every row says the single-thread speed the machine gave just before its benchmark.
        rows: report.results.flatMap(bench.rows).map((row) => ({ speed: speedBefore, ...row })),
      });
    }
  } finally {
    // The platforms shared by the service benchmarks (lib/platform-target.mjs).
    await stopSharedTargets();
  }

  speeds.push(cpuSpeed(500));
  const machine = { ...machineInfo(), cpu_speed: { unit: 'iterations/s', checks: speeds } };
  const machineLabel = `${machine.cores} cores, ${machine.cpu}`;
  const rows = benchmarks.flatMap((b) => b.rows).map((r) => ({ machine: machineLabel, ...r }));
  const skipped = benchmarks.flatMap((b) => (b.skipped ?? []).map((s) => ({ benchmark: b.name, ...s })));
  const report = {
    date: started.toISOString(),
    duration_s: Math.round((Date.now() - started.getTime()) / 100) / 10,
    quick,
    machine,
    note: 'the load generator runs on the same cores as the system under test',
    summary: rows,
    skipped,
    benchmarks: benchmarks.map((b) => ({ ...b, rows: undefined })),
  };
  writeFileSync(join(HERE, `${reportName}.json`), `${JSON.stringify(report, null, 2)}\n`);

  const table = markdownTable(
    [
      'benchmark',
      'what',
      'mode',
      'machine',
      'load',
      'speed',
      'throughput',
      'n',
      'p50',
      'p90',
      'p99',
      'max',
      'unit',
      'notes',
    ],
    rows.map((r) => [
      r.benchmark,
      r.transport,
      r.mode,
      r.machine,
      r.load,
      r.speed,
      r.throughput,
      r.count,
      r.p50,
      r.p90,
      r.p99,
      r.max,
      r.unit,
      r.notes,
    ]),
  );
  // Issue 15's targets: each service figure beside its reference measured in this run.
  const targets = rows.filter((r) => r.target).map((r) => r.target);
  const targetsTable = targets.length
    ? [
        '## Targets: each figure against its reference (same run, same machine)',
        '',
        markdownTable(
          ['figure', 'service', 'reference (same run)', 'ratio', 'target', 'met'],
          targets.map((t) => [t.figure, t.service, t.reference, t.ratio ?? '', t.target, t.met]),
        ),
        '',
        'Ratio: service ÷ reference for rates, service p99 ÷ reference p99 for the lists.',
        '',
      ]
    : [];
  const md = [
    '# Paygrid benchmark report',
    '',
    `- Date: ${report.date}${quick ? ' (--quick: 2–3 s runs, 20,000 seeded transactions and invoices instead of 1,000,000, 500 subscriptions billed instead of 100,000 (10,000 on PGlite), webhook backlogs of 500 instead of 4,000)' : ''}`,
    `- Duration: ${report.duration_s} s`,
    `- Machine: ${machine.cores} cores, ${machine.cpu}, ${machine.memory_gib} GiB, ${machine.os}`,
    `- Node: ${machine.node}`,
    `- CPU speed check (one thread, a fixed SHA-256 + JSON workload, iterations/s; before each benchmark and at the end): ${speeds.join(', ')}. Compare runs only at similar speeds (bench/README.md: a run with other sessions' builds beside it measured 2–4× lower).`,
    '- The load generator shares the cores with everything it measures.',
    "- speed: the CPU speed check just before the row's benchmark.",
    '',
    ...targetsTable,
    table,
    '',
    ...skipped.map((s) => `- Skipped ${s.benchmark} on ${s.transport}: ${s.reason}`),
    ...(skipped.length ? [''] : []),
    'Details (stages, rates, parameters): report.json and results/*.json.',
    '',
  ].join('\n');
  writeFileSync(join(HERE, `${reportName}.md`), md);
  process.stdout.write(`\n${md}`);
  const lost = rows.reduce((n, r) => n + (r.lost ?? 0), 0);
  if (lost) {
    process.stderr.write(`[bench] messages were lost (${lost})\n`);
    process.exitCode = 1;
  }
}

/**
 * `--curves`: how cost grows (curves.mjs), a longer mode of its own. Writes
 * report-curves.{json,md} and one SVG per curve under curves/ (`--quick` or `--report NAME`:
 * results/NAME.* and results/NAME-charts/, never the committed ones).
 */
async function runCurves({ flags, quick, overrides, parts }) {
  const started = new Date();
  const reportName = flags.report
    ? String(flags.report).replace(/[^\w.-]/g, '')
    : quick
      ? 'report-curves-quick'
      : 'report-curves';
  // A check run (--quick, --report) writes under results/ (gitignored); the full one beside report.md.
  const scratch = quick || Boolean(flags.report);
  const chartDir = scratch ? `${reportName}-charts` : 'curves';
  const outDir = scratch ? join(HERE, 'results') : HERE;
  // Bounded: the billing points alone take ~20 min at 100,000 on 2 cores (1 M: hours).
  const budgetMs = (quick ? 1800 : flags['curves-1m'] ? 6 * 3600 : 3 * 3600) * 1000;
  setTimeout(() => {
    process.stderr.write(`[bench] curves did not finish within ${budgetMs / 1000} s; giving up\n`);
    setTimeout(() => process.exit(3), 30_000).unref();
    stopSharedTargets().finally(() => process.exit(3));
  }, budgetMs).unref();
  const speeds = [cpuSpeed(500)];
  let result;
  try {
    result = await curves.run({
      quick,
      parts,
      seconds: overrides.seconds,
      backlog: overrides.backlog,
      curves10m: Boolean(flags['curves-10m']),
      curves1m: Boolean(flags['curves-1m']),
      out: join(HERE, 'results', 'curves.json'),
    });
  } finally {
    await stopSharedTargets();
  }
  speeds.push(cpuSpeed(500));
  const machine = { ...machineInfo(), cpu_speed: { unit: 'iterations/s', checks: speeds } };
  const note = `${machine.cores} cores, ${machine.cpu}; ${started.toISOString().slice(0, 16)} UTC; CPU speed check ${speeds.join(' / ')}${quick ? '; --quick (tooling check, not figures)' : ''}`;
  const { markdown, charts } = renderCurves(result, { note, chartDir });
  mkdirSync(join(outDir, chartDir), { recursive: true });
  for (const [file, svg] of Object.entries(charts)) writeFileSync(join(outDir, chartDir, file), svg);
  const report = {
    date: started.toISOString(),
    duration_s: Math.round((Date.now() - started.getTime()) / 100) / 10,
    quick,
    machine,
    ...result,
  };
  writeFileSync(join(outDir, `${reportName}.json`), `${JSON.stringify(report, null, 2)}\n`);
  const md = [
    '# Paygrid benchmark curves: how cost grows',
    '',
    `- Date: ${report.date}${quick ? ' (--quick: small axes, 2 s points; checks the tooling, not figures)' : ''}`,
    `- Duration: ${report.duration_s} s`,
    `- Machine: ${machine.cores} cores, ${machine.cpu}, ${machine.memory_gib} GiB, ${machine.os}; Node ${machine.node}`,
    `- CPU speed check (one thread, iterations/s) at the start and the end: ${speeds.join(', ')}`,
    '- Distributed mode, the load generator on the same cores; each point says how busy the cores were and by whom.',
    ...(result.axes && !result.axes.rows.includes(10_000_000) && !quick
      ? [
          '- 10 M rows left out of the list curve by default: seeding 10 M transactions with their 18 M ledger entries takes about ten times the 1 M seed (48 s on the quiet machine) and several GB of disk; `--curves-10m` adds the point.',
        ]
      : []),
    '',
    markdown,
    ...(result.skipped ?? []).map((x) => `- Skipped on ${x.transport}: ${x.reason}`),
    '',
  ].join('\n');
  writeFileSync(join(outDir, `${reportName}.md`), md);
  process.stdout.write(`\n${md}`);
}

// Only as the command (`npm run bench`): importing BENCHMARKS starts nothing. Everything is
// closed when main() returns; it exits anyway so a stray handle cannot keep the run alive.
runIfMain(import.meta.url, 'bench', main);
