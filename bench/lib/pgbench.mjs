// pgbench as a load generator for the references of the report (bench/references.mjs) and the
// checkout baseline (bench/pgbench-baseline.mjs): finds the binary, runs a script with
// per-transaction logging (-l) so the report has exact percentiles (pgbench's summary has
// only the mean), and parses its summary.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { summarize } from './stats.mjs';

/** pgbench comes with PostgreSQL (postgresql-contrib on Debian): $PGBENCH, the server's bin, or PATH. */
export function pgbenchBinary() {
  const candidates = [
    process.env.PGBENCH,
    ...[17, 16, 15, 14].map((v) => `/usr/lib/postgresql/${v}/bin/pgbench`),
    '/usr/bin/pgbench',
    '/usr/local/bin/pgbench',
  ].filter(Boolean);
  return candidates.find((c) => existsSync(c));
}

/** Runs pgbench with `args`; resolves its output (stdout + stderr), rejects on a non-zero exit. */
export function spawnPgbench(binary, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out + err) : reject(new Error(`pgbench exited ${code}: ${err.slice(-2000)}`)),
    );
  });
}

/** pgbench's summary: tps, mean latency, transactions and failures. */
export function parseSummary(output) {
  const num = (re) => {
    const m = re.exec(output);
    return m ? Number(m[1]) : undefined;
  };
  return {
    tps: num(/tps = ([\d.]+) \(without initial connection time\)/),
    latency_avg_ms: num(/latency average = ([\d.]+) ms/),
    latency_stddev_ms: num(/latency stddev = ([\d.]+) ms/),
    transactions: num(/number of transactions actually processed: (\d+)/),
    failed: num(/number of failed transactions: (\d+)/) ?? 0,
  };
}

/**
 * Runs `script` (a file) with `clients` clients for `seconds` on `url`; `vars` become -D
 * name=value. Returns the summary, the exact latency percentiles of every transaction (from
 * the per-transaction log: client, transaction, time in µs, ...) and the output's tail.
 */
export async function runPgbench({
  binary = pgbenchBinary(),
  script,
  url,
  clients,
  seconds,
  vars = {},
  protocol = process.env.BENCH_PGBENCH_PROTOCOL ?? 'prepared',
}) {
  const logDir = mkdtempSync(join(os.tmpdir(), 'paygrid-pgbench-'));
  try {
    const args = [
      '-n',
      '-M',
      protocol,
      '-f',
      script,
      '-c',
      String(clients),
      '-j',
      String(Math.min(clients, os.availableParallelism())),
      '-T',
      String(seconds),
      '-l',
      `--log-prefix=${join(logDir, 'tx')}`,
      ...Object.entries(vars).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
      url,
    ];
    const output = await spawnPgbench(binary, args);
    const latencies = [];
    for (const file of readdirSync(logDir)) {
      for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
        const fields = line.split(' ');
        if (fields.length >= 3) latencies.push(Number(fields[2]) / 1000);
      }
    }
    return {
      ...parseSummary(output),
      latency_ms: summarize(latencies),
      params: { clients, seconds, protocol },
      output_tail: output.split('\n').slice(-12).join('\n'),
    };
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}
