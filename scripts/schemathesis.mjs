#!/usr/bin/env node
// Schemathesis (an independent OpenAPI fuzzer, pinned from PyPI) against the running platform
// (issue 12): `node scripts/schemathesis.mjs embedded|distributed`. Starts the platform in the
// mode asked on free ports (embedded: apps/embedded/dist/main.js with a temporary DATA_DIR;
// distributed: the four apps/*/dist processes on a database and Kafka topic prefix of their
// own, against DATABASE_URL, KAFKA_BROKERS and REDIS_URL), creates an account and a test key
// through the admin API, runs `st run` on /v1/openapi.json with every phase (examples,
// coverage, fuzzing, stateful) and every check, prints the counts, stops what it started and
// exits non-zero on any failure. Reviewed exceptions live in tests/schemathesis/schemathesis.toml
// and nowhere else. Needs `npm run build`.
//
// Arguments after the mode are passed to `st run` (e.g. `--include-path-regex payment-links`).
// Options (environment): ST_MAX_EXAMPLES (per operation and phase; default 200), ST_WORKERS
// (default 4), ST_MIN_REQUESTS (the run fails below it; default 20000), ST_SEED, LOG_LEVEL.

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCHEMATHESIS = 'schemathesis==4.32.5';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2];
if (mode !== 'embedded' && mode !== 'distributed' && mode !== '--prepare') {
  console.error('usage: node scripts/schemathesis.mjs embedded|distributed|--prepare');
  process.exit(2);
}
const log = (message) => console.error(`[schemathesis:${mode}] ${message}`);
const maxExamples = process.env.ST_MAX_EXAMPLES ?? '200';
const workers = process.env.ST_WORKERS ?? '4';
const minRequests = Number(process.env.ST_MIN_REQUESTS ?? 20_000);

/** The pinned CLI in a virtual environment of the tools cache (as scripts/check-deploy.sh does for hadolint). */
function schemathesisCli() {
  const tools =
    process.env.PAYGRID_TOOLS_DIR ?? join(process.env.HOME ?? homedir(), '.cache', 'paygrid-tools');
  const venv = join(tools, 'schemathesis-venv');
  const st = join(venv, 'bin', 'st');
  const version = existsSync(st) ? spawnSync(st, ['--version'], { encoding: 'utf8' }).stdout : '';
  if (!version.includes(SCHEMATHESIS.split('==')[1])) {
    log(`installing ${SCHEMATHESIS} (PyPI) into ${venv}`);
    if (spawnSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' }).status !== 0) {
      // Debian splits venv out of python3: install it (as root, or with passwordless sudo).
      log('installing python3-venv (Debian package)');
      const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
      for (const args of [
        ['apt-get', 'update', '-q'],
        ['apt-get', 'install', '-y', '-q', 'python3-venv'],
      ]) {
        const [command, ...rest] = [...sudo, ...args];
        if (spawnSync(command, rest, { stdio: 'inherit' }).status !== 0)
          throw new Error(`${args.join(' ')} failed`);
      }
      rmSync(venv, { recursive: true, force: true });
      if (spawnSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' }).status !== 0)
        throw new Error('python3 -m venv failed');
    }
    if (
      spawnSync(join(venv, 'bin', 'pip'), ['install', '-q', SCHEMATHESIS], { stdio: 'inherit' }).status !== 0
    ) {
      throw new Error(`pip install ${SCHEMATHESIS} failed`);
    }
  }
  return st;
}

// --prepare installs the pinned CLI and exits: CI runs both modes at once, which must not both
// create the virtual environment.
if (mode === '--prepare') {
  schemathesisCli();
  log('ready');
  process.exit(0);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function waitFor(url, child, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`a process exited (${child.exitCode}) before ${url} answered`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

// Where the platform sends Stripe requests (a processor connection's verify): stripe-mock when
// the infrastructure runs it (infra/infra-up.sh, STRIPE_MOCK_URL), else a closed local port, so
// a verify ends at once as `failed` rather than waiting out timeouts for Stripe (as tests/support
// does). Never api.stripe.com: the fuzz would send its generated keys to Stripe.
const stripeApiBase = process.env.STRIPE_MOCK_URL ?? 'http://127.0.0.1:9';

const children = [];
const cleanups = [];
function startApp(script, env) {
  const child = spawn(process.execPath, [join(root, script)], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: process.env.LOG_LEVEL ?? 'error', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

async function startEmbedded(operatorToken) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'paygrid-st-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = startApp('apps/embedded/dist/main.js', {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    OPERATOR_TOKEN: operatorToken,
    STRIPE_API_BASE: stripeApiBase,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/ready`, child);
  return url;
}

async function startDistributed(operatorToken) {
  for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL']) {
    if (!process.env[name]) throw new Error(`${name} is not set (run under scripts/with-infra.mjs)`);
  }
  const { default: pg } = await import('pg');
  const platform = await import('@paygrid/platform');
  const suffix = randomBytes(5).toString('hex');
  const database = `paygrid_st_${suffix}`;
  const topicPrefix = `st${suffix}.`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
    await platform
      .deleteKafkaNamespace([process.env.KAFKA_BROKERS], topicPrefix)
      .catch((error) => log(`could not delete Kafka namespace ${topicPrefix}: ${error.message}`));
  });
  const databaseUrl = new URL(process.env.DATABASE_URL);
  databaseUrl.pathname = `/${database}`;
  const services = ['payments', 'invoicing', 'webhooks', 'gateway'];
  const ports = Object.fromEntries(await Promise.all(services.map(async (s) => [s, await freePort()])));
  const env = {
    PAYGRID_MODE: 'distributed',
    DATABASE_URL: databaseUrl.toString(),
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: topicPrefix,
    REDIS_URL: process.env.REDIS_URL,
    INTERNAL_SIGNING_SECRET: randomBytes(32).toString('hex'),
    OPERATOR_TOKEN: operatorToken,
    // The embedded default makes its own key ring; here the operator's, so processor
    // connections are stored and verified rather than refused with processor_secrets_unavailable.
    PROCESSOR_SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    STRIPE_API_BASE: stripeApiBase,
    PAYMENTS_URL: `http://127.0.0.1:${ports.payments}`,
    INVOICING_URL: `http://127.0.0.1:${ports.invoicing}`,
    WEBHOOKS_URL: `http://127.0.0.1:${ports.webhooks}`,
    MAIL_DIR: join(tmpdir(), `paygrid-st-mail-${suffix}`),
  };
  cleanups.push(() => rmSync(env.MAIL_DIR, { recursive: true, force: true }));
  // The services own their migrations; the gateway comes after them.
  await Promise.all(
    services
      .filter((s) => s !== 'gateway')
      .map((s) => {
        const child = startApp(`apps/${s}/dist/main.js`, { ...env, PORT: String(ports[s]) });
        return waitFor(`http://127.0.0.1:${ports[s]}/ready`, child);
      }),
  );
  const gateway = startApp('apps/gateway/dist/main.js', { ...env, PORT: String(ports.gateway) });
  const url = `http://127.0.0.1:${ports.gateway}`;
  await waitFor(`${url}/ready`, gateway);
  return url;
}

async function adminCall(url, token, method, path, body) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status !== 200)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** An account with both groupings and a sandbox secret key, its rate limit raised for the run. */
async function testKey(url, operatorToken) {
  const account = await adminCall(url, operatorToken, 'POST', '/admin/v1/accounts', {
    name: 'Schemathesis',
    groupings: ['payments', 'invoicing'],
  });
  await adminCall(url, operatorToken, 'POST', `/admin/v1/accounts/${account.id}`, {
    rate_limit_per_second: 10_000,
  });
  const key = await adminCall(url, operatorToken, 'POST', `/admin/v1/accounts/${account.id}/keys`, {
    mode: 'test',
    kind: 'secret',
  });
  return key.secret;
}

/** Counts of the run from Schemathesis's NDJSON event stream. */
function countsOf(ndjsonPath) {
  const counts = { requests: 0, byPhase: {}, statuses: {} };
  for (const line of readFileSync(ndjsonPath, 'utf8').split('\n')) {
    if (!line) continue;
    const event = JSON.parse(line);
    const scenario = event.ScenarioFinished;
    if (!scenario) continue;
    const phase = scenario.phase ?? 'unknown';
    for (const step of Object.values(scenario.recorder?.interactions ?? {})) {
      const status = step.response?.status_code;
      counts.requests++;
      counts.byPhase[phase] = (counts.byPhase[phase] ?? 0) + 1;
      if (status !== undefined) {
        const family = `${String(status)[0]}xx`;
        counts.statuses[family] = (counts.statuses[family] ?? 0) + 1;
      }
    }
  }
  return counts;
}

async function stopAll() {
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  for (const cleanup of cleanups.reverse()) await cleanup();
}

async function main() {
  const started = Date.now();
  const st = schemathesisCli();
  const operatorToken = `op_${randomBytes(24).toString('hex')}`;
  const url =
    mode === 'embedded' ? await startEmbedded(operatorToken) : await startDistributed(operatorToken);
  const key = await testKey(url, operatorToken);
  log(`platform ready at ${url} in ${Date.now() - started} ms; running ${SCHEMATHESIS}`);
  const reportDir = mkdtempSync(join(tmpdir(), 'paygrid-st-report-'));
  cleanups.push(() => rmSync(reportDir, { recursive: true, force: true }));
  const ndjson = join(reportDir, 'events.ndjson');
  const args = [
    '--config-file',
    join(root, 'tests', 'schemathesis', 'schemathesis.toml'),
    'run',
    `${url}/v1/openapi.json`,
    '--url',
    url,
    '--header',
    `Authorization: Bearer ${key}`,
    '--phases',
    'examples,coverage,fuzzing,stateful',
    '--checks',
    'all',
    // These two run inside paygrid_allow_list (tests/schemathesis/hooks.py), which applies
    // the reviewed allow-list of schemathesis.toml to them and to nothing else.
    '--exclude-checks',
    'positive_data_acceptance,use_after_free',
    '--max-examples',
    maxExamples,
    '--workers',
    workers,
    '--request-timeout',
    '40',
    '--generation-database',
    ':memory:',
    '--no-color',
    '--report',
    'ndjson',
    '--report-ndjson-path',
    ndjson,
    ...(process.env.ST_SEED ? ['--seed', process.env.ST_SEED] : []),
    // Anything after the mode goes to `st run` as is (e.g. --include-path-regex for a local look).
    ...process.argv.slice(3),
  ];
  const fuzzStarted = Date.now();
  const run = spawnSync(st, args, { stdio: 'inherit', cwd: root });
  const seconds = Math.round((Date.now() - fuzzStarted) / 1000);
  const counts = existsSync(ndjson) ? countsOf(ndjson) : { requests: 0, byPhase: {}, statuses: {} };
  log(
    `requests: ${counts.requests} in ${seconds} s (by phase: ${JSON.stringify(counts.byPhase)}; by status: ${JSON.stringify(counts.statuses)}); st exit ${run.status}`,
  );
  let status = run.status ?? 1;
  if (status === 0 && counts.requests < minRequests) {
    log(`only ${counts.requests} requests; at least ${minRequests} are required`);
    status = 1;
  }
  return status;
}

let status = 1;
try {
  status = await main();
} catch (error) {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  await stopAll();
}
process.exit(status);
