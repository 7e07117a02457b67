#!/usr/bin/env node
// `npm run bench` (from the repo root: builds, then runs this). Runs every benchmark in
// BENCHMARKS (benchmarks.mjs) with the transports available here and writes bench/report.json
// and bench/report.md. Each benchmark also leaves its own file in bench/results/ (gitignored).
//
//   npm run bench                          # full: 200 events/s, 10 s measured per transport
//   npm run bench -- --quick               # 3 s measured per transport
//   npm run bench -- --only outbox-latency --transport embedded --rate 500 --seconds 20
//
// Adding a benchmark: see benchmarks.mjs. opts carries { transports, quick, ...flags }; a module that needs the platform running
// takes it from lib/platform-target.mjs (sharedTarget(mode), modesFor(opts)) so a run starts
// it once per mode; lib/report.mjs's perModeBenchmark makes such a module from its
// runMode(mode, params, say). The machine column is added to every row by run.mjs.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberFlag, parseArgs } from './lib/args.mjs';
import { cpuSpeed, machineInfo } from './lib/machine.mjs';
import { runIfMain } from './lib/module.mjs';
import { figure, figureLoad } from './lib/figures.mjs';
import { BUSY_SATURATED, verdict } from './lib/held-by.mjs';
import { markdownTable, round } from './lib/stats.mjs';
import { BENCHMARKS } from './benchmarks.mjs';
import { curves, renderCurves } from './curves.mjs';
import { stopSharedTargets } from './lib/platform-target.mjs';
import { transportAvailability } from './lib/outbox-rig.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

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
  const targets = [...rows.filter((r) => r.target).map((r) => r.target), ...embeddedTargets()];
  const targetsTable = targets.length
    ? [
        '## Targets: each figure against its reference (same run, same machine)',
        '',
        markdownTable(
          ['figure', 'service', 'reference (same run)', 'ratio', 'target', 'met', 'what holds it (not met)'],
          targets.map((t) => [
            t.figure,
            t.service,
            t.reference,
            t.ratio ?? '',
            t.target,
            t.met,
            t.held ?? '',
          ]),
        ),
        '',
        'Ratio: service ÷ reference for rates, service p99 ÷ reference p99 for the lists.',
        `What holds it: the machine's CPU while the service's figure was measured (/proc): from ${Math.round(BUSY_SATURATED * 100)} % of both cores busy the figure is CPU-bound, and the groups are named largest first, with each platform process's CPU per operation and the cores it used; below that, what held it was a wait or one thread at its limit. The findings of bench/README.md named hold the profiles that show which.`,
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
 * Issue 15's embedded rows: the embedded checkout and read against the distributed figures of
 * the same run (lib/figures.mjs), when both modes ran.
 */
function embeddedTargets() {
  return [
    ['checkout_per_s', 'checkout payment', 'payments/s'],
    ['read_per_s', 'authenticated read', 'req/s'],
  ].flatMap(([name, label, unit]) => {
    const distributed = figure('distributed', name);
    const embedded = figure('embedded', name);
    if (!distributed || !embedded) return [];
    const ratio = round(embedded / distributed, 3);
    const load = figureLoad('embedded', name);
    return [
      {
        figure: `embedded ${label} ÷ distributed`,
        service: `${embedded} ${unit} embedded`,
        reference: `${distributed} ${unit} distributed (same run)`,
        ratio,
        target: '≥ 0.8',
        ...verdict(ratio >= 0.8, {
          load: load?.machine_load,
          ops: load?.ops,
          profile: 'findings 38, 53, 61',
        }),
      },
    ];
  });
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
  // The curves' own report carries the time it was written; the run's is when it started.
  const measured = Object.assign({}, result);
  delete measured.date;
  const report = {
    date: started.toISOString(),
    duration_s: Math.round((Date.now() - started.getTime()) / 100) / 10,
    quick,
    machine,
    ...measured,
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
    ...(result.axes && !result.axes.rows.includes(10_000_000) && !quick && (!parts || parts.includes('list'))
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
