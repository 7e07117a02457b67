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

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberFlag, parseArgs } from './lib/args.mjs';
import { machineInfo } from './lib/machine.mjs';
import { markdownTable } from './lib/stats.mjs';
import { gatewayOverhead, modeAvailability } from './gateway-overhead.mjs';
import { outboxLatency, transportAvailability } from './outbox-latency.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

const pct = (f) => (f === undefined ? '?' : `${Math.round(f * 100)}%`);
const cpuNote = (load) => {
  const g = load.cpu_by_group ?? {};
  return `${pct(load.cpu_busy)} busy (bench process ${pct(g.this_process)}, postgres ${pct(g.postgres)}, kafka ${pct(g.kafka)}, other processes ${pct(g.others)})`;
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
    // The kafka transport stands for the distributed infrastructure (which also needs Redis).
    run: (opts) => {
      const available = modeAvailability();
      const modes = opts.transports
        .map((t) => (t === 'kafka' ? 'distributed' : t))
        .filter((m) => available[m]?.ok);
      return gatewayOverhead.run({ ...opts, modes });
    },
    rows: (r) =>
      ['gateway', 'direct'].map((path) => ({
        benchmark: 'gateway-overhead',
        mode: r.mode,
        transport: path === 'gateway' ? 'through the gateway' : 'straight to payments',
        load: `${r.params.path}, ${r.params.connections} connections, ${r.params.seconds} s, ${r[path].requests_per_s} req/s`,
        count: r[path].latency_ms.count,
        p50: r[path].latency_ms.p50,
        p90: r[path].latency_ms.p90,
        p99: r[path].latency_ms.p99,
        max: r[path].latency_ms.max,
        unit: 'ms per request (closed model)',
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
];

async function main() {
  const flags = parseArgs(process.argv.slice(2));
  if (flags.help) {
    process.stdout.write(
      'usage: npm run bench -- [--quick] [--only NAME[,NAME]] [--transport kafka|embedded|all]\n' +
        '         [--rate N] [--seconds N] [--warmup N] [--drain N] [--partitions N] [--instances N]\n' +
        '         [--relay-poll-ms N] [--connections N]\n' +
        `benchmarks: ${BENCHMARKS.map((b) => b.name).join(', ')}\n`,
    );
    return;
  }
  const quick = Boolean(flags.quick);
  const only = flags.only ? String(flags.only).split(',') : undefined;
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
  ]) {
    const value = numberFlag(flags, flag, undefined, { min: 0 });
    if (value !== undefined) overrides[key] = value;
  }

  // A hard bound on the whole run, so a wedged transport cannot hang CI.
  const perTransport =
    (overrides.warmup ?? 1) + (overrides.seconds ?? (quick ? 3 : 10)) + (overrides.drain ?? 30);
  const budgetMs = BENCHMARKS.length * transports.length * (perTransport + 150) * 1000;
  setTimeout(() => {
    process.stderr.write(`[bench] did not finish within ${budgetMs / 1000} s; giving up\n`);
    process.exit(3);
  }, budgetMs).unref();

  const started = new Date();
  const benchmarks = [];
  for (const bench of BENCHMARKS) {
    if (only && !only.includes(bench.name)) continue;
    process.stderr.write(`[bench] ${bench.name}: ${bench.description}\n`);
    const report = await bench.run({ transports, quick, ...overrides });
    benchmarks.push({
      name: bench.name,
      description: bench.description,
      ...report,
      rows: report.results.flatMap(bench.rows),
    });
  }

  const machine = machineInfo();
  const rows = benchmarks.flatMap((b) => b.rows);
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
  writeFileSync(join(HERE, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);

  const table = markdownTable(
    ['benchmark', 'transport', 'mode', 'load', 'n', 'p50', 'p90', 'p99', 'max', 'unit', 'notes'],
    rows.map((r) => [
      r.benchmark,
      r.transport,
      r.mode,
      r.load,
      r.count,
      r.p50,
      r.p90,
      r.p99,
      r.max,
      r.unit,
      r.notes,
    ]),
  );
  const md = [
    '# Paygrid benchmark report',
    '',
    `- Date: ${report.date}${quick ? ' (--quick)' : ''}`,
    `- Machine: ${machine.cores} cores, ${machine.cpu}, ${machine.memory_gib} GiB, ${machine.os}`,
    `- Node: ${machine.node}`,
    '- The load generator shares the cores with everything it measures.',
    '',
    table,
    '',
    ...skipped.map((s) => `- Skipped ${s.benchmark} on ${s.transport}: ${s.reason}`),
    ...(skipped.length ? [''] : []),
    'Details (stages, rates, parameters): report.json and results/*.json.',
    '',
  ].join('\n');
  writeFileSync(join(HERE, 'report.md'), md);
  process.stdout.write(`\n${md}`);
  const lost = rows.reduce((n, r) => n + (r.lost ?? 0), 0);
  if (lost) {
    process.stderr.write(`[bench] messages were lost (${lost})\n`);
    process.exitCode = 1;
  }
}

main().then(
  // Everything is closed by now; exit anyway so a stray handle cannot keep the run alive.
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    process.stderr.write(`[bench] ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
