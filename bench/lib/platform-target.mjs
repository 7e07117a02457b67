// The platform under test, started once per mode and shared by the benchmark modules of one
// `npm run bench` run (start-up and seeding are paid once; run.mjs stops them at the end).
//
//   distributed: the four apps as processes (apps/*/dist/main.js, the environment of
//                `npm run start:distributed` and the test harness) on a fresh database
//                `paygrid_bench_<random>` of the PostgreSQL from infra/infra-up.sh, with Kafka
//                and Redis; dropped at the end. More webhooks instances can be added.
//   embedded:    bench/lib/embedded-target.mjs in a process of its own (PGlite in memory,
//                the embedded bus); its database is reachable over the wire protocol.
//
// Either way the load generator is the bench process: a process of its own, on the same cores.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { countAsPlatform } from './machine.mjs';
import { sharedStripeMock, stopStripeMock } from './stripe-mock.mjs';

const require = createRequire(import.meta.url);
const { Client } = require(createRequire(require.resolve('@paygrid/platform')).resolve('pg'));
const { deleteKafkaNamespace } = require('@paygrid/platform');

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

const sleep = (millis) => new Promise((r) => setTimeout(r, millis));

/** Which modes can run here, and why not when one cannot. */
export function targetAvailability(env = process.env) {
  const missing = ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL'].filter((name) => !env[name]);
  return {
    distributed: missing.length
      ? { ok: false, reason: `${missing.join(', ')} not set (eval "$(bash infra/infra-up.sh)")` }
      : { ok: true },
    embedded: { ok: true },
  };
}

/** The modes a run asked for: the kafka transport of run.mjs stands for distributed. */
export function modesFor(opts) {
  const available = targetAvailability();
  const wanted = (opts.transports ?? ['kafka', 'embedded']).map((t) => (t === 'kafka' ? 'distributed' : t));
  return {
    modes: ['distributed', 'embedded'].filter((m) => wanted.includes(m) && available[m].ok),
    skipped: ['distributed', 'embedded']
      .filter((m) => wanted.includes(m) && !available[m].ok)
      .map((m) => ({ transport: m, reason: available[m].reason })),
  };
}

export async function freePort() {
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

export function stopProcess(child, signal = 'SIGTERM') {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveStop();
    });
    child.kill(signal);
  });
}

/** Resident set size of a process in MiB (Linux), or undefined. */
export function rssMiB(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Math.round((Number(line.split(/\s+/)[1]) / 1024) * 10) / 10 : undefined;
  } catch {
    return undefined;
  }
}

/** One SQL client on the target's database; `sql(text, params)` returns rows. */
async function sqlClient(url) {
  const client = new Client({ connectionString: url });
  await client.connect();
  return {
    sql: async (text, params) => (await client.query(text, params)).rows,
    end: () => client.end().catch(() => undefined),
  };
}

async function startDistributed(say) {
  const stripe = await sharedStripeMock();
  // Counted with the platform's processes: it stands in for the processor of the Stripe row.
  countAsPlatform(stripe.pid, 'stripe-mock');
  const suffix = randomBytes(5).toString('hex');
  const database = `paygrid_bench_${suffix}`;
  const topicPrefix = `bench-${suffix}.`;
  const admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const databaseUrl = new URL(process.env.DATABASE_URL);
  databaseUrl.pathname = `/${database}`;
  const names = ['payments', 'invoicing', 'webhooks', 'gateway'];
  const ports = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await freePort()])));
  const env = {
    PATH: process.env.PATH ?? '',
    PAYGRID_MODE: 'distributed',
    DATABASE_URL: databaseUrl.toString(),
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: topicPrefix,
    REDIS_URL: process.env.REDIS_URL,
    INTERNAL_SIGNING_SECRET: randomBytes(32).toString('hex'),
    OPERATOR_TOKEN: `op_${randomBytes(24).toString('hex')}`,
    PAYMENTS_URL: `http://127.0.0.1:${ports.payments}`,
    INVOICING_URL: `http://127.0.0.1:${ports.invoicing}`,
    WEBHOOKS_URL: `http://127.0.0.1:${ports.webhooks}`,
    // The bench's receiver is local; only sandbox endpoints are used.
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // Live checkouts of the bench go to the Stripe connector, pointed at the run's stripe-mock;
    // the processor credentials are sealed under a key ring made for this run.
    STRIPE_API_BASE: stripe.url,
    PROCESSOR_SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    // An A/B of named prepared statements (false: every statement unnamed, as before them).
    ...(process.env.PAYGRID_DB_PREPARED_STATEMENTS
      ? { PAYGRID_DB_PREPARED_STATEMENTS: process.env.PAYGRID_DB_PREPARED_STATEMENTS }
      : {}),
  };
  const processes = {};
  const extras = [];
  const spawnApp = async (name, port) => {
    // BENCH_CPU_PROF=<dir>: each service writes V8 CPU profiles into <dir>/<service>-<port>/
    // when it stops, one per thread under Node's own names (CPU.<date>.<time>.<pid>.<tid>...):
    // a fixed file name made the worker threads (invoicing's PDF pool) overwrite one another
    // and the main thread. Open them in Chrome DevTools or summarise them with
    // bench/profile-summary.mjs.
    const profile = process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.BENCH_CPU_PROF, `${name}-${port}`)}`]
      : [];
    // BENCH_NODE_ARGS: more flags for every service's node (e.g. --perf-basic-prof for perf).
    const extraArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const child = spawn(
      process.execPath,
      [...profile, ...extraArgs, join(ROOT, 'apps', name, 'dist', 'main.js')],
      {
        env: { ...env, PORT: String(port) },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    countAsPlatform(child.pid, name);
    await waitFor(`http://127.0.0.1:${port}/ready`);
    return child;
  };
  let db;
  const target = {
    mode: 'distributed',
    database,
    databaseUrl: databaseUrl.toString(),
    gateway: `http://127.0.0.1:${ports.gateway}`,
    payments: `http://127.0.0.1:${ports.payments}`,
    internalSecret: env.INTERNAL_SIGNING_SECRET,
    operatorToken: env.OPERATOR_TOKEN,
    /** pid per process name (webhooks-2... for extra instances). */
    pids: () => ({
      ...Object.fromEntries(Object.entries(processes).map(([n, c]) => [n, c.pid])),
      ...Object.fromEntries(extras.map((c, i) => [`webhooks-${i + 2}`, c.pid])),
    }),
    sql: (text, params) => db.sql(text, params),
    async startExtraWebhooks() {
      const child = await spawnApp('webhooks', await freePort());
      extras.push(child);
      return { pid: child.pid, stop: () => stopProcess(child) };
    },
    /** Stops the apps but keeps the database (the pgbench baseline runs on it afterwards). */
    async stopApps() {
      await Promise.all([...extras, ...Object.values(processes)].map((c) => stopProcess(c)));
    },
    async stop() {
      await target.stopApps();
      await db?.end();
      const cleanup = new Client({ connectionString: process.env.DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${database} with (force)`);
      await cleanup.end();
      await deleteKafkaNamespace([process.env.KAFKA_BROKERS], topicPrefix).catch((error) =>
        say(`[bench] could not delete Kafka namespace ${topicPrefix}: ${error.message}`),
      );
    },
  };
  try {
    say(`[bench] distributed: starting the four apps on database ${database}`);
    await Promise.all(
      names.slice(0, 3).map(async (n) => {
        processes[n] = await spawnApp(n, ports[n]);
      }),
    );
    processes.gateway = await spawnApp('gateway', ports.gateway);
    await waitFor(`${target.gateway}/health`);
    db = await sqlClient(target.databaseUrl);
  } catch (error) {
    await target.stop();
    throw error;
  }
  return target;
}

async function startEmbedded(say) {
  const stripe = await sharedStripeMock();
  countAsPlatform(stripe.pid, 'stripe-mock');
  say('[bench] embedded: starting the embedded platform (PGlite in memory) in its own process');
  // BENCH_CPU_PROF=<dir>: the embedded process writes V8 CPU profiles into <dir>/embedded-<time>/
  // when it stops, one per thread under Node's own names (the database's thread, the PDF
  // threads and the main thread: a fixed file name made them overwrite one another).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${join(process.env.BENCH_CPU_PROF, `embedded-${Date.now()}`)}`]
    : [];
  const child = spawn(
    process.execPath,
    [
      ...profile,
      ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
      '--max-old-space-size=4096',
      join(HERE, 'embedded-target.mjs'),
    ],
    {
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', STRIPE_API_BASE: stripe.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  countAsPlatform(child.pid, 'embedded');
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
  const db = await sqlClient(info.database_url);
  return {
    mode: 'embedded',
    databaseUrl: info.database_url,
    gateway: info.gateway,
    payments: info.payments,
    internalSecret: info.internal_secret,
    operatorToken: info.operator_token,
    pids: () => ({ embedded: child.pid }),
    sql: (text, params) => db.sql(text, params),
    startExtraWebhooks: undefined,
    stopApps: undefined,
    async stop() {
      await db.end();
      await stopProcess(child);
    },
  };
}

/** The platform in `mode`, started for one caller (who stops it); see sharedTarget. */
export function startTarget(mode, say = (line) => process.stderr.write(`${line}\n`)) {
  return mode === 'distributed' ? startDistributed(say) : startEmbedded(say);
}

const shared = new Map();

/** The platform in `mode`, started on first use and shared until stopSharedTargets(). */
export function sharedTarget(mode, say = (line) => process.stderr.write(`${line}\n`)) {
  if (!shared.has(mode)) {
    const started = startTarget(mode, say);
    shared.set(mode, { started, state: {} });
  }
  const entry = shared.get(mode);
  return entry.started.then((target) => Object.assign(target, { state: entry.state }));
}

export async function stopSharedTargets() {
  const entries = [...shared.values()];
  shared.clear();
  for (const entry of entries) {
    try {
      await (await entry.started).stop();
    } catch (error) {
      process.stderr.write(`[bench] stopping a target: ${error?.message ?? error}\n`);
    }
  }
  await stopStripeMock();
}

/** An admin API call through the gateway. */
export async function adminCall(target, method, path, body) {
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

/** An API call with a key through the gateway; throws unless 200. */
export async function apiCall(target, key, method, path, body) {
  const response = await fetch(`${target.gateway}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status !== 200)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * An account with `groupings` (default: payments) and a test secret key (`key`, its id
 * `keyId`), with `rate_limit_per_second` set (default: 100,000, the admin API's maximum, so
 * the limiter runs but never refuses).
 */
export async function provisionAccount(
  target,
  { rateLimit = 100_000, name = 'Bench', groupings = ['payments'] } = {},
) {
  const account = await adminCall(target, 'POST', '/admin/v1/accounts', { name, groupings });
  const key = await adminCall(target, 'POST', `/admin/v1/accounts/${account.id}/keys`, {
    mode: 'test',
    kind: 'secret',
  });
  await adminCall(target, 'POST', `/admin/v1/accounts/${account.id}`, { rate_limit_per_second: rateLimit });
  return { account, key: key.secret, keyId: key.id };
}
