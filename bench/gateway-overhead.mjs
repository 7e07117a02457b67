#!/usr/bin/env node
// The gateway's added latency: the same authenticated GET (`GET /v1/merchants?limit=1`, a key
// of an account with the payments grouping) sent through the gateway and straight to the
// payments service, at a fixed concurrency (closed model: autocannon, N connections, each
// sending its next request when the previous one is answered). Through the gateway a request
// pays: key authentication (in-memory cache, warm), the per-key rate limit (a Redis script
// round trip when distributed, in memory when embedded), the grouping check, signing the
// internal context, and forwarding (HTTP through an undici pool when distributed, in-process
// injection when embedded). Straight to the service, the bench signs the same internal
// context itself (signContext with the INTERNAL_SIGNING_SECRET of the processes it started),
// once per run: a signature stays valid for 60 s.
//
//   node bench/gateway-overhead.mjs [--mode distributed|embedded|all] [--seconds 10]
//        [--warmup 2] [--connections 16] [--out FILE]
//
// distributed: the four apps as processes (apps/*/dist/main.js, like `npm run
// start:distributed` and the test harness) against the running infrastructure (DATABASE_URL,
// KAFKA_BROKERS, REDIS_URL: eval "$(bash infra/infra-up.sh)"), on a fresh database that is
// dropped at the end. embedded: bench/lib/embedded-target.mjs in a process of its own.
// Either way the load generator is this process, on the same cores.
//
// The account gets `rate_limit_per_second` = 100,000 through the admin API so the limiter
// is exercised (every request takes a token) but never refuses.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { numberFlag, parseArgs } from './lib/args.mjs';
import { cpuTimes, machineInfo, machineLoad } from './lib/machine.mjs';
import { markdownTable, round, summarize } from './lib/stats.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const { signContext } = require('@paygrid/platform');
const { Client } = require(createRequire(require.resolve('@paygrid/platform')).resolve('pg'));

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
export const RESULTS_FILE = join(HERE, 'results', 'gateway-overhead.json');
const PATH = '/v1/merchants?limit=1';
const RATE_LIMIT = 100_000; // the admin API's maximum, far above what one machine sends

export const DEFAULTS = { seconds: 10, warmup: 2, connections: 16 };

/** Which modes can run here, and why not when one cannot. */
export function modeAvailability(env = process.env) {
  const missing = ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL'].filter((name) => !env[name]);
  return {
    distributed: missing.length
      ? { ok: false, reason: `${missing.join(', ')} not set (eval "$(bash infra/infra-up.sh)")` }
      : { ok: true },
    embedded: { ok: true },
  };
}

const sleep = (millis) => new Promise((r) => setTimeout(r, millis));

/** CPU ticks (utime + stime, 1/100 s on Linux) of the given processes; 0 for any that is gone. */
function ticksOf(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // not Linux, or the process ended
    }
  }
  return ticks;
}

async function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function waitFor(url, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}

function stopProcess(child) {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}

/** The four apps as processes on a fresh database; returns URLs, secrets and stop(). */
async function startDistributed(say) {
  const suffix = randomBytes(5).toString('hex');
  const database = `paygrid_bench_${suffix}`;
  const admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const databaseUrl = new URL(process.env.DATABASE_URL);
  databaseUrl.pathname = `/${database}`;
  const names = ['payments', 'invoicing', 'webhooks', 'gateway'];
  const ports = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await freePort()])));
  const secret = randomBytes(32).toString('hex');
  const operatorToken = `op_${randomBytes(24).toString('hex')}`;
  const env = {
    PATH: process.env.PATH ?? '',
    PAYGRID_MODE: 'distributed',
    DATABASE_URL: databaseUrl.toString(),
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: `bench-${suffix}.`,
    REDIS_URL: process.env.REDIS_URL,
    INTERNAL_SIGNING_SECRET: secret,
    OPERATOR_TOKEN: operatorToken,
    PAYMENTS_URL: `http://127.0.0.1:${ports.payments}`,
    INVOICING_URL: `http://127.0.0.1:${ports.invoicing}`,
    WEBHOOKS_URL: `http://127.0.0.1:${ports.webhooks}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  const children = [];
  const startApp = async (name) => {
    const child = spawn(process.execPath, [join(ROOT, 'apps', name, 'dist', 'main.js')], {
      env: { ...env, PORT: String(ports[name]) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    await waitFor(`http://127.0.0.1:${ports[name]}/ready`);
  };
  const stop = async () => {
    await Promise.all(children.map(stopProcess));
    const cleanup = new Client({ connectionString: process.env.DATABASE_URL });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${database} with (force)`);
    await cleanup.end();
  };
  try {
    say(`[gateway-overhead] distributed: starting the four apps on database ${database}`);
    // Services first (they own their migrations), then the gateway.
    await Promise.all(names.slice(0, 3).map(startApp));
    await startApp('gateway');
    await waitFor(`http://127.0.0.1:${ports.gateway}/health`);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    gateway: `http://127.0.0.1:${ports.gateway}`,
    payments: `http://127.0.0.1:${ports.payments}`,
    internalSecret: secret,
    operatorToken,
    pids: children.map((c) => c.pid),
    gatewayPid: children.find((c) => c.spawnargs.some((a) => a.includes(join('apps', 'gateway')))).pid,
    stop,
  };
}

/** bench/lib/embedded-target.mjs as a child process. */
async function startEmbeddedTarget(say) {
  say('[gateway-overhead] embedded: starting the embedded platform (PGlite in memory)');
  const child = spawn(process.execPath, [join(HERE, 'lib', 'embedded-target.mjs')], {
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise((resolveLine, reject) => {
    const timer = setTimeout(() => reject(new Error('embedded target did not start within 120 s')), 120_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolveLine(line);
    });
    child.once('exit', (code) => reject(new Error(`embedded target exited (${code})`)));
  });
  const info = JSON.parse(first);
  return {
    gateway: info.gateway,
    payments: info.payments,
    internalSecret: info.internal_secret,
    operatorToken: info.operator_token,
    pids: [child.pid],
    stop: () => stopProcess(child),
  };
}

async function adminCall(target, method, path, body) {
  const response = await fetch(`${target.gateway}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.operatorToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status !== 200)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** An account with the payments grouping, a test secret key, and a limit that never refuses. */
async function provision(target) {
  const account = await adminCall(target, 'POST', '/admin/v1/accounts', {
    name: 'Bench',
    groupings: ['payments'],
  });
  const key = await adminCall(target, 'POST', `/admin/v1/accounts/${account.id}/keys`, {
    mode: 'test',
    kind: 'secret',
  });
  await adminCall(target, 'POST', `/admin/v1/accounts/${account.id}`, { rate_limit_per_second: RATE_LIMIT });
  return { account, key };
}

/** Headers for the service, as the gateway would sign them for this key. */
function directHeaders(target, { account, key }) {
  const requestId = `req_bench${randomBytes(8).toString('hex')}`;
  const context = {
    kind: 'api',
    account: account.id,
    livemode: false,
    key_id: key.id,
    scopes: ['merchants:read'],
    groupings: account.groupings,
    request_id: requestId,
    issued_at: Date.now(),
  };
  return { ...signContext(target.internalSecret, context, 'GET', PATH), 'request-id': requestId };
}

/** One autocannon run; latencies recorded exactly (autocannon's histogram has 1 ms buckets). */
async function load(url, headers, { seconds, connections }) {
  const samples = [];
  const statuses = {};
  const instance = autocannon({ url, headers, connections, duration: seconds, pipelining: 1 });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    if (statusCode === 200) samples.push(responseTime);
  });
  const result = await instance;
  return {
    latency_ms: summarize(samples),
    requests_per_s: round(samples.length / seconds, 1),
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

async function check(url, headers) {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body}`);
  return response;
}

export async function runMode(mode, options = {}) {
  const opts = { ...DEFAULTS, ...options };
  const say = opts.say ?? ((line) => process.stderr.write(`${line}\n`));
  // A target provided by the caller (run.mjs shares one platform per mode) is not stopped here.
  const target = opts.targetFor
    ? await opts.targetFor(mode)
    : mode === 'distributed'
      ? await startDistributed(say)
      : await startEmbeddedTarget(say);
  try {
    const credentials = await provision(target);
    const viaGateway = {
      url: `${target.gateway}${PATH}`,
      headers: { authorization: `Bearer ${credentials.key.secret}` },
    };
    const gatewayResponse = await check(viaGateway.url, viaGateway.headers);
    const limitPolicy = gatewayResponse.headers.get('ratelimit-policy');
    const direct = () => ({ url: `${target.payments}${PATH}`, headers: directHeaders(target, credentials) });
    await check(direct().url, direct().headers);

    const results = {};
    // Warm-up of both paths (JIT, pools, caches), then the measured runs back to back.
    for (const path of [viaGateway, direct()]) {
      if (opts.warmup > 0) await load(path.url, path.headers, { ...opts, seconds: opts.warmup });
    }
    for (const [name, make] of [
      ['gateway', () => viaGateway],
      ['direct', direct],
    ]) {
      const path = make();
      say(`[gateway-overhead] ${mode}: ${name}, ${opts.connections} connections, ${opts.seconds} s`);
      const before = cpuTimes();
      const targetTicks = ticksOf(target.pids);
      const gatewayTicks = target.gatewayPid ? ticksOf([target.gatewayPid]) : 0;
      const measured = await load(path.url, path.headers, opts);
      const gatewayCores = target.gatewayPid
        ? (ticksOf([target.gatewayPid]) - gatewayTicks) / 100 / opts.seconds
        : 0;
      results[name] = {
        ...measured,
        // Distributed only: the gateway process alone, and its CPU time per request.
        ...(target.gatewayPid
          ? {
              gateway_cpu_cores: round(gatewayCores, 2),
              gateway_cpu_us_per_request: round((gatewayCores * 1e6) / measured.requests_per_s, 0),
            }
          : {}),
        // CPU of the platform's own processes (gateway and services; embedded: the one
        // process), in cores; the machine's other groups are in machine_load.
        platform_cpu_cores: round((ticksOf(target.pids) - targetTicks) / 100 / opts.seconds, 2),
        machine_load: machineLoad(before, cpuTimes()),
      };
    }
    const g = results.gateway.latency_ms;
    const d = results.direct.latency_ms;
    return {
      mode,
      params: {
        path: `GET ${PATH}`,
        connections: opts.connections,
        seconds: opts.seconds,
        warmup: opts.warmup,
      },
      rate_limit_policy_seen: limitPolicy,
      gateway: results.gateway,
      direct: results.direct,
      added_ms: { p50: round(g.p50 - d.p50, 3), p90: round(g.p90 - d.p90, 3), p99: round(g.p99 - d.p99, 3) },
      throughput_ratio: round(results.gateway.requests_per_s / results.direct.requests_per_s, 3),
    };
  } finally {
    if (!opts.targetFor) await target.stop();
  }
}

export function resultTable(results) {
  return markdownTable(
    [
      'mode',
      'path',
      'req/s',
      'p50 ms',
      'p90 ms',
      'p99 ms',
      'max ms',
      'added p50 / p99 ms',
      'throughput ratio',
    ],
    results.flatMap((r) =>
      ['gateway', 'direct'].map((path) => [
        r.mode,
        path === 'gateway' ? 'through the gateway' : 'straight to payments',
        r[path].requests_per_s,
        r[path].latency_ms.p50,
        r[path].latency_ms.p90,
        r[path].latency_ms.p99,
        r[path].latency_ms.max,
        path === 'gateway' ? `${r.added_ms.p50} / ${r.added_ms.p99}` : '',
        path === 'gateway' ? r.throughput_ratio : '',
      ]),
    ),
  );
}

/** The benchmark as a module for run.mjs: runs each requested mode and writes its file. */
export const gatewayOverhead = {
  name: 'gateway-overhead',
  description:
    "the gateway's added latency: an authenticated GET through the gateway vs straight to the service",
  async run({ modes, quick = false, say, out = RESULTS_FILE, ...overrides } = {}) {
    const availability = modeAvailability();
    const wanted = modes ?? Object.keys(availability).filter((m) => availability[m].ok);
    const opts = { ...(quick ? { seconds: 3, warmup: 1 } : {}), ...overrides, say };
    const results = [];
    const skipped = [];
    for (const mode of ['distributed', 'embedded']) {
      if (!wanted.includes(mode)) {
        if (!availability[mode].ok) skipped.push({ transport: mode, reason: availability[mode].reason });
        continue;
      }
      if (!availability[mode].ok) throw new Error(`${mode}: ${availability[mode].reason}`);
      results.push(await runMode(mode, opts));
    }
    const report = {
      benchmark: 'gateway-overhead',
      description: gatewayOverhead.description,
      date: new Date().toISOString(),
      machine: machineInfo(),
      note: 'autocannon runs in this process; the apps, PostgreSQL and Redis share the same cores',
      skipped,
      results,
    };
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    return report;
  },
};

async function main() {
  const flags = parseArgs(process.argv.slice(2));
  if (flags.help) {
    process.stdout.write(
      'usage: node bench/gateway-overhead.mjs [--mode distributed|embedded|all] [--seconds N] [--warmup N]\n' +
        '         [--connections N] [--quick] [--out FILE]\n',
    );
    return;
  }
  const mode = flags.mode ?? 'all';
  if (!['distributed', 'embedded', 'all'].includes(mode))
    throw new Error('--mode must be distributed|embedded|all');
  const quick = Boolean(flags.quick);
  const opts = {
    seconds: numberFlag(flags, 'seconds', quick ? 3 : DEFAULTS.seconds, { min: 1, max: 600 }),
    warmup: numberFlag(flags, 'warmup', quick ? 1 : DEFAULTS.warmup, { min: 0, max: 600 }),
    connections: numberFlag(flags, 'connections', DEFAULTS.connections, { min: 1, max: 1024 }),
  };
  const availability = modeAvailability();
  let modes;
  if (mode === 'all') {
    modes = Object.keys(availability).filter((m) => availability[m].ok);
    if (!availability.distributed.ok)
      process.stderr.write(`[gateway-overhead] skipping distributed: ${availability.distributed.reason}\n`);
  } else {
    modes = [mode];
  }
  // Bounded: start-up, warm-up and both measured runs per mode, plus slack.
  const budgetMs = modes.length * (2 * (opts.warmup + opts.seconds) + 240) * 1000;
  setTimeout(() => {
    process.stderr.write(`[gateway-overhead] did not finish within ${budgetMs / 1000} s; giving up\n`);
    process.exit(3);
  }, budgetMs).unref();
  const out = flags.out ? resolve(String(flags.out)) : RESULTS_FILE;
  const report = await gatewayOverhead.run({ modes, out, ...opts });
  process.stdout.write(`\n${resultTable(report.results)}\n\nresults: ${out}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (error) => {
      process.stderr.write(`[gateway-overhead] ${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
