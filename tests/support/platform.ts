// Test harness: the whole platform, either embedded in the test process (PGlite + embedded
// bus) or distributed as four real processes against real PostgreSQL, Kafka and Redis.
// The integration suites use only this interface, so the same suites run in both modes.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { TOPICS } from '@paygrid/contracts';
import {
  createLogger,
  deleteKafkaNamespace,
  KafkaBus,
  signContext,
  type BusMessage,
  type EventBus,
} from '@paygrid/platform';
import { databaseImage } from './pglite-image';

export type Mode = 'embedded' | 'distributed';
export type ServiceName = 'gateway' | 'payments' | 'invoicing' | 'webhooks';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestAccount {
  id: string;
  testKey: string;
  liveKey: string;
}

/** What the payments service's jobs did in one run of `advancePaymentsClock`. */
export interface JobReport {
  mandate_charges: number;
  links_expired: number;
  recovered: { mandate_charges: number; payments: number; refunds: number };
}

export const DAY_MS = 86_400_000;

/**
 * The payments service's opt-in test clock (without it the clock and its route do not exist),
 * with the background timer slowed to an hour so only `advancePaymentsClock` runs the jobs:
 * the suites see exactly the charges the clock makes due.
 */
export const PAYMENTS_TEST_CLOCK_ENV = {
  PAYMENTS_TEST_CLOCK: 'true',
  PAYMENTS_JOBS_INTERVAL_MS: '3600000',
};

export interface Platform {
  mode: Mode;
  url: string;
  operatorToken: string;
  /** The secret the services share (signs internal contexts and hosted-invoice payment tokens). */
  internalSecret: string;
  /**
   * Sends `method path` to the gateway as an HTTP client does: redirects are answered, never
   * followed (a hosted form's 303 is the response); a URLSearchParams body is posted as a form
   * (application/x-www-form-urlencoded), a string or Buffer as is, anything else as JSON.
   */
  api<T = any>(
    key: string | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  admin<T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
  /** GET on a service itself, not through the gateway (its internal routes, e.g. /openapi.json). */
  internal<T = any>(service: Exclude<ServiceName, 'gateway'>, path: string): Promise<ApiResponse<T>>;
  /**
   * A new account with a test and a live key. Its rate limit is raised to 10,000/s: suites
   * send requests back to back and must not meet the test-mode default of 25/s, which has
   * suites of its own (they pass `{ defaultRateLimit: true }`).
   */
  newAccount(groupings?: string[], options?: { defaultRateLimit?: boolean }): Promise<TestAccount>;
  /**
   * Moves the payments clock forward and runs the service's jobs once (due mandates, link
   * expiry, recovery) through its operator-only internal route; answers the clock's new now.
   * Needs `startPlatform({ paymentsTestClock: true })`.
   */
  advancePaymentsClock(ms: number): Promise<{ now: Date; ran: JobReport }>;
  /** Puts messages on a topic of the mode's real bus (embedded bus or Kafka). */
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  /** Runs SQL against a service's own database (invariant checks; read-only by convention). */
  sql<T = any>(service: Exclude<ServiceName, 'gateway'>, text: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

export interface DistributedPlatform extends Platform {
  databaseUrl: string;
  topicPrefix: string;
  ports: Record<ServiceName, number>;
  env: Record<string, string>;
  kill(service: ServiceName, signal?: NodeJS.Signals): Promise<void>;
  start(service: ServiceName, extraEnv?: Record<string, string>): Promise<void>;
  /** Starts one more gateway process on its own port (same database and Redis). */
  startExtraGateway(): Promise<{ url: string; stop(): Promise<void> }>;
  /** Starts one more instance of a service on its own port (same database, Kafka and Redis). */
  startExtra(service: ServiceName, extraEnv?: Record<string, string>): Promise<ExtraInstance>;
  /** The process id of a service's main instance (undefined when it is not running). */
  pid(service: ServiceName): number | undefined;
}

export interface ExtraInstance {
  url: string;
  pid: number;
  stop(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export const ROOT = join(__dirname, '..', '..');

export function testMode(): Mode {
  return process.env.PAYGRID_TEST_MODE === 'distributed' ? 'distributed' : 'embedded';
}

/**
 * PAYGRID_TEST_IDEMPOTENCY_KEYS=1 (CI's Node 24 pass): every API POST that carries no
 * Idempotency-Key of its own gets a fresh one, so each write route also runs inside its
 * request's transaction, where a statement that does not use it fails the suite
 * (PAYGRID_STRICT_TRANSACTIONS below; docs/adr/0015).
 */
const KEY_EVERY_POST = process.env.PAYGRID_TEST_IDEMPOTENCY_KEYS === '1';

/** Every platform a suite starts treats a statement outside the request's transaction as an error. */
const STRICT_TRANSACTIONS = { PAYGRID_STRICT_TRANSACTIONS: 'true' };

async function request<T>(
  base: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse<T>> {
  const init: RequestInit = { method, headers: { ...headers }, redirect: 'manual' };
  if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`;
  if (
    KEY_EVERY_POST &&
    token &&
    method === 'POST' &&
    path.startsWith('/v1/') &&
    !Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key')
  ) {
    (init.headers as Record<string, string>)['idempotency-key'] = `test_${randomBytes(12).toString('hex')}`;
  }
  if (body !== undefined) {
    const form = body instanceof URLSearchParams;
    (init.headers as Record<string, string>)['content-type'] ??= form
      ? 'application/x-www-form-urlencoded'
      : 'application/json';
    init.body =
      body instanceof Uint8Array
        ? body
        : typeof body === 'string' || form
          ? body.toString()
          : JSON.stringify(body);
  }
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (a page); keep the text
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

const ADVANCE_PATH = '/internal/test-clock/advance';

/** The signed operator context the payments test clock's internal route requires. */
const operatorHeaders = (secret: string, method: string, path: string) =>
  signContext(
    secret,
    { kind: 'operator', request_id: `req_${randomBytes(8).toString('hex')}`, issued_at: Date.now() },
    method,
    path,
  );

/** The clock route's answer, or the failure as an exception. */
function clockAdvanced(response: ApiResponse<any>): { now: Date; ran: JobReport } {
  if (response.status !== 200)
    throw new Error(`advance failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { now: new Date(response.body.now), ran: response.body.ran };
}

/**
 * Moves the test clock of the payments instance at `url` (a distributed process started with
 * PAYMENTS_TEST_CLOCK_ENV) and runs its jobs once.
 */
export async function advancePaymentsClockAt(
  secret: string,
  url: string,
  ms: number,
): Promise<{ now: Date; ran: JobReport }> {
  const headers = operatorHeaders(secret, 'POST', ADVANCE_PATH);
  return clockAdvanced(await request(url, undefined, 'POST', ADVANCE_PATH, { ms }, headers));
}

function withHelpers(base: Omit<Platform, 'api' | 'admin' | 'newAccount'>): Platform {
  const platform: Platform = {
    ...base,
    api: (key, method, path, body, headers) => request(base.url, key, method, path, body, headers),
    admin: (method, path, body) => request(base.url, base.operatorToken, method, path, body),
    async newAccount(groupings = ['payments', 'invoicing'], options = {}) {
      const account = await platform.admin('POST', '/admin/v1/accounts', {
        name: `Test ${randomBytes(3).toString('hex')}`,
        groupings,
      });
      if (account.status !== 200) throw new Error(`account creation failed: ${JSON.stringify(account.body)}`);
      if (!options.defaultRateLimit) {
        const raised = await platform.admin('POST', `/admin/v1/accounts/${account.body.id}`, {
          rate_limit_per_second: 10_000,
        });
        if (raised.status !== 200) throw new Error(`rate limit not raised: ${JSON.stringify(raised.body)}`);
      }
      const test = await platform.admin('POST', `/admin/v1/accounts/${account.body.id}/keys`, {
        mode: 'test',
        kind: 'secret',
      });
      const live = await platform.admin('POST', `/admin/v1/accounts/${account.body.id}/keys`, {
        mode: 'live',
        kind: 'secret',
      });
      return { id: account.body.id, testKey: test.body.secret, liveKey: live.body.secret };
    },
  };
  return platform;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
}

/**
 * Where the invoicing service writes `.eml` files when a suite sets no SMTP_URL: a directory
 * of this run, removed at stop, not the developer's ./.data/mail.
 */
const testMailDir = () => join(tmpdir(), `paygrid-test-mail-${randomBytes(5).toString('hex')}`);

/**
 * Where the Stripe connector's requests go unless a suite says otherwise: the shared stripe-mock
 * (infra-up.sh exports STRIPE_MOCK_URL), else a local port nothing listens on. Never Stripe.
 */
const STRIPE_API_BASE = process.env.STRIPE_MOCK_URL ?? 'http://127.0.0.1:9';

/** A per-start key ring for processor credentials (PROCESSOR_SECRETS_KEYS). */
const processorSecretsKeys = () => `t1:${randomBytes(32).toString('base64')}`;

async function startEmbeddedPlatform(
  extraEnv: Record<string, string> = {},
  logFile?: string,
): Promise<Platform> {
  const mailDir = testMailDir();
  // Required lazily so the distributed project never loads PGlite.
  const { startEmbedded } = await import('@paygrid/embedded');
  const env = {
    OPERATOR_TOKEN: `op_${randomBytes(24).toString('hex')}`,
    MAIL_DIR: mailDir,
    STRIPE_API_BASE,
    ...STRICT_TRANSACTIONS,
  };
  const image = await databaseImage(ROOT, async (empty) => {
    const fresh = await startEmbedded({
      dataDir: 'memory://',
      databaseImage: empty,
      port: 0,
      demo: false,
      env,
      logger: createLogger('test', 'silent'),
    });
    return fresh.stopToImage();
  });
  const embedded = await startEmbedded({
    dataDir: 'memory://',
    databaseImage: image,
    port: 0,
    demo: false,
    env: { ...env, ...extraEnv },
    logger: logFile
      ? createLogger('test', 'debug', logFile)
      : createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
  });
  const payments = embedded.services.payments;
  const internalSecret = payments.runtime.config.internalSecret;
  return withHelpers({
    mode: 'embedded',
    url: embedded.url,
    operatorToken: embedded.operatorToken,
    internalSecret,
    async advancePaymentsClock(ms) {
      const response = await payments.app.inject({
        method: 'POST',
        url: ADVANCE_PATH,
        headers: {
          ...operatorHeaders(internalSecret, 'POST', ADVANCE_PATH),
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ ms }),
      });
      let body: unknown = response.body;
      try {
        body = JSON.parse(response.body);
      } catch {
        // not JSON; keep the text
      }
      return clockAdvanced({ status: response.statusCode, body, headers: new Headers() });
    },
    publish: (topic, messages) => payments.runtime.bus.publish(topic, messages),
    async internal(service, path) {
      const response = await embedded.services[service].app.inject({ method: 'GET', url: path });
      let body: unknown = response.body;
      try {
        body = JSON.parse(response.body);
      } catch {
        // not JSON; keep the text
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers.set(name, String(value));
      }
      return { status: response.statusCode, body: body as never, headers };
    },
    sql: (service, text, params) => embedded.services[service].runtime.db.query(text, params),
    async stop() {
      await embedded.stop();
      rmSync(mailDir, { recursive: true, force: true });
    },
  });
}

const SERVICES: ServiceName[] = ['payments', 'invoicing', 'webhooks', 'gateway'];

async function waitForHealth(url: string, path: string, timeoutMs = 60_000): Promise<void> {
  await eventually(
    async () => {
      const response = await fetch(`${url}${path}`);
      return response.status === 200 ? true : undefined;
    },
    timeoutMs,
    200,
  );
}

/**
 * `extraEnv`: settings for every process. `options.services`: the services this installation
 * runs (default all three); the others are not started and the gateway is told with
 * PAYGRID_SERVICES, as a payments-only or invoicing-only deployment would be.
 * `options.serviceEnv`: settings for one process, on top of `extraEnv` (kept across restarts).
 */
export async function startDistributedPlatform(
  extraEnv: Record<string, string> = {},
  options: {
    services?: Exclude<ServiceName, 'gateway'>[];
    /** Settings of one process only (e.g. its own METRICS_PORT). */
    serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
    /** Every process logs at debug level into this file (the no-secrets-in-logs checks). */
    logFile?: string;
  } = {},
): Promise<DistributedPlatform> {
  const baseUrl = process.env.DATABASE_URL as string;
  const suffix = randomBytes(5).toString('hex');
  const database = `paygrid_t_${suffix}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const parsed = new URL(baseUrl);
  parsed.pathname = `/${database}`;
  const databaseUrl = parsed.toString();
  const topicPrefix = `t${suffix}.`;

  const ports = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [s, await freePort()])),
  ) as Record<ServiceName, number>;
  const operatorToken = `op_${randomBytes(24).toString('hex')}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    PAYGRID_MODE: 'distributed',
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS as string,
    KAFKA_TOPIC_PREFIX: topicPrefix,
    REDIS_URL: process.env.REDIS_URL as string,
    INTERNAL_SIGNING_SECRET: randomBytes(32).toString('hex'),
    OPERATOR_TOKEN: operatorToken,
    PAYMENTS_URL: `http://127.0.0.1:${ports.payments}`,
    INVOICING_URL: `http://127.0.0.1:${ports.invoicing}`,
    WEBHOOKS_URL: `http://127.0.0.1:${ports.webhooks}`,
    // Sandbox webhook endpoints of the suites point at local receivers (live stays strict).
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    PROCESSOR_SECRETS_KEYS: processorSecretsKeys(),
    STRIPE_API_BASE,
    LOG_LEVEL: options.logFile ? 'debug' : (process.env.LOG_LEVEL ?? 'warn'),
    MAIL_DIR: testMailDir(),
    ...STRICT_TRANSACTIONS,
    ...(options.services ? { PAYGRID_SERVICES: options.services.join(',') } : {}),
    ...extraEnv,
  };
  const processes = new Map<ServiceName, ChildProcess>();
  const extras: ChildProcess[] = [];

  const spawnService = (
    service: ServiceName,
    port: number,
    extraEnv: Record<string, string> = {},
  ): ChildProcess => {
    // With a log file, every process appends its lines to it (the suite reads them back).
    const out = options.logFile ? openSync(options.logFile, 'a') : 'inherit';
    const child = spawn(process.execPath, [join(ROOT, 'apps', service, 'dist', 'main.js')], {
      env: { ...env, PORT: String(port), ...extraEnv },
      stdio: ['ignore', out, out],
    });
    if (typeof out === 'number') closeSync(out);
    return child;
  };

  const start = async (service: ServiceName, extraEnv: Record<string, string> = {}) => {
    processes.set(
      service,
      spawnService(service, ports[service], { ...options.serviceEnv?.[service], ...extraEnv }),
    );
    await waitForHealth(`http://127.0.0.1:${ports[service]}`, service === 'gateway' ? '/ready' : '/ready');
  };

  const kill = async (service: ServiceName, signal: NodeJS.Signals = 'SIGKILL') => {
    const child = processes.get(service);
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    processes.delete(service);
  };

  // Services first (they own their migrations), then the gateway.
  const installed = options.services ?? SERVICES.filter((s) => s !== 'gateway');
  await Promise.all(installed.map((s) => start(s)));
  await start('gateway');
  const url = `http://127.0.0.1:${ports.gateway}`;
  await waitForHealth(url, '/health');

  let bus: EventBus | undefined;
  const platform = withHelpers({
    mode: 'distributed',
    url,
    operatorToken,
    internalSecret: env.INTERNAL_SIGNING_SECRET,
    advancePaymentsClock: (ms) =>
      advancePaymentsClockAt(env.INTERNAL_SIGNING_SECRET, `http://127.0.0.1:${ports.payments}`, ms),
    async publish(topic, messages) {
      if (!bus) {
        bus = new KafkaBus({
          brokers: env.KAFKA_BROKERS.split(','),
          clientId: 'paygrid-tests',
          partitions: 4,
          topicPrefix,
          topics: Object.values(TOPICS),
          logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
        });
        await bus.connect();
      }
      await bus.publish(topic, messages);
    },
    internal: (service, path) => request(`http://127.0.0.1:${ports[service]}`, undefined, 'GET', path),
    async sql(_service, text, params) {
      // One database holds every service's schema; tables are schema-qualified.
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query(text, params as unknown[])).rows;
      } finally {
        await client.end();
      }
    },
    async stop() {
      await bus?.close();
      await Promise.all([...processes.keys()].map((s) => kill(s, 'SIGTERM')));
      await Promise.all(
        extras.map((c) =>
          c.exitCode === null && c.signalCode === null
            ? new Promise((r) => {
                c.once('exit', r);
                c.kill('SIGTERM');
              })
            : undefined,
        ),
      );
      const cleanup = new Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${database} with (force)`);
      rmSync(env.MAIL_DIR, { recursive: true, force: true });
      await cleanup.end();
      // This run's topics and consumer groups: left behind, every run would add a few dozen
      // partitions that the shared broker reads back at each start.
      await deleteKafkaNamespace([env.KAFKA_BROKERS], topicPrefix).catch((error: Error) =>
        console.warn(`could not delete Kafka namespace ${topicPrefix}: ${error.message}`),
      );
    },
  });
  return Object.assign(platform, {
    databaseUrl,
    topicPrefix,
    ports,
    env,
    kill,
    start,
    pid: (service: ServiceName) => processes.get(service)?.pid,
    async startExtra(service: ServiceName, extraEnv: Record<string, string> = {}) {
      const port = await freePort();
      const child = spawnService(service, port, extraEnv);
      extras.push(child);
      const extraUrl = `http://127.0.0.1:${port}`;
      await waitForHealth(extraUrl, '/ready');
      const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill(signal);
        await exited;
      };
      return { url: extraUrl, pid: child.pid as number, stop: () => kill('SIGTERM'), kill };
    },
    async startExtraGateway() {
      const port = await freePort();
      const child = spawnService('gateway', port);
      extras.push(child);
      const extraUrl = `http://127.0.0.1:${port}`;
      await waitForHealth(extraUrl, '/ready');
      return {
        url: extraUrl,
        stop: async () => {
          if (child.exitCode !== null) return;
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        },
      };
    },
  });
}

/**
 * `env`: extra settings for every service (e.g. SMTP_URL pointing at a test's SMTP sink).
 * `paymentsTestClock`: the payments service runs on its test clock (PAYMENTS_TEST_CLOCK_ENV),
 * moved by `advancePaymentsClock`.
 */
export async function startPlatform(
  options: {
    env?: Record<string, string>;
    paymentsTestClock?: boolean;
    /** Every log line of every service, at debug level, appended to this file. */
    logFile?: string;
  } = {},
): Promise<Platform> {
  const env = { ...(options.paymentsTestClock ? PAYMENTS_TEST_CLOCK_ENV : {}), ...options.env };
  const platform = await (testMode() === 'distributed'
    ? startDistributedPlatform(env, { logFile: options.logFile })
    : startEmbeddedPlatform(env, options.logFile));
  return process.env.PAYGRID_PRISM ? behindPrism(platform) : platform;
}

/**
 * The usual set-up of a suite: the platform started before the file's tests (`options` as for
 * startPlatform) with one account of `groupings`, stopped after them; `api` calls with the
 * account's test key.
 */
export function usePlatform(
  options: Parameters<typeof startPlatform>[0] = {},
  groupings: string[] = ['payments', 'invoicing'],
) {
  const suite = {
    platform: undefined as unknown as Platform,
    account: undefined as unknown as TestAccount,
    api: <T = any>(method: string, path: string, body?: unknown) =>
      suite.platform.api<T>(suite.account.testKey, method, path, body),
  };
  beforeAll(async () => {
    suite.platform = await startPlatform(options);
    suite.account = await suite.platform.newAccount(groupings);
  });
  afterAll(async () => {
    await suite.platform?.stop();
  });
  return suite;
}

// ---------------------------------------------------------------------------------------
// PAYGRID_PRISM=1: every `api()` call goes through Prism (@stoplight/prism-cli) in proxy mode
// with --errors, in front of the platform, with the OpenAPI document the platform serves.
// Prism checks each response against the document; a response that breaks it fails the
// calling test (an exception naming the violations). Requests that break the document on
// purpose (the suites' bad-input checks) are answered by Prism itself, without reaching the
// server: those are sent again straight to the server, so the suites' own assertions still
// hold. Prism must really be in the path: checked at start (its "no path matched" problem
// document) and on every proxied answer (the CORS headers Prism adds and the server never
// sends); a run that validated nothing fails when the platform stops.
// ---------------------------------------------------------------------------------------

const PRISM_ERROR = 'https://stoplight.io/prism/errors#';

/** `editDocument` changes the document Prism checks against (its own test breaks it on purpose). */
export async function behindPrism<P extends Platform>(
  platform: P,
  editDocument = (doc: any) => doc,
): Promise<P> {
  const document = await request<unknown>(platform.url, undefined, 'GET', '/v1/openapi.json');
  if (document.status !== 200) throw new Error(`prism: GET /v1/openapi.json answered ${document.status}`);
  const file = join(tmpdir(), `paygrid-openapi-${randomBytes(6).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify(editDocument(document.body)));
  const port = await freePort();
  const prismUrl = `http://127.0.0.1:${port}`;
  const cli = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  const args = [cli, 'proxy', file, platform.url, '--errors', '--host', '127.0.0.1', '--port', String(port)];
  const prism = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  // Never outlive the tests (a suite whose beforeAll times out never calls stop()).
  process.once('exit', () => prism.kill('SIGKILL'));
  let prismLog = '';
  prism.stderr?.on('data', (chunk) => (prismLog = `${prismLog}${chunk}`.slice(-4000)));
  await eventually(
    async () => {
      const probe = await request<any>(prismUrl, undefined, 'GET', '/v1/__prism_probe');
      return String(probe.body?.type).startsWith(`${PRISM_ERROR}NO_PATH_MATCHED`) ? true : undefined;
    },
    60_000,
    250,
  ).catch((error) => {
    prism.kill('SIGKILL');
    throw new Error(`prism did not start: ${String(error)}\n${prismLog}`);
  });
  const counts = { validated: 0, answeredByServer: 0 };
  const api: Platform['api'] = async (key, method, path, body, headers) => {
    const response = await request<any>(prismUrl, key, method, path, body, headers);
    const type = response.body?.type;
    if (typeof type === 'string' && type.startsWith(PRISM_ERROR)) {
      if (type === `${PRISM_ERROR}VIOLATIONS`) {
        throw new Error(
          `prism: the response to ${method} ${path} breaks the OpenAPI document: ${JSON.stringify(response.body.validation)}`,
        );
      }
      // The request breaks the document (on purpose): the server answers it, unchecked.
      counts.answeredByServer++;
      return request(platform.url, key, method, path, body, headers);
    }
    if (response.headers.get('access-control-expose-headers') !== '*') {
      throw new Error(`prism: ${method} ${path} was answered without Prism in the path`);
    }
    counts.validated++;
    return response;
  };
  const stop = platform.stop;
  return Object.assign(platform, {
    api,
    async stop() {
      prism.kill('SIGTERM');
      rmSync(file, { force: true });
      await stop();
      process.stderr.write(
        `prism: ${counts.validated} responses validated against the document, ${counts.answeredByServer} deliberately invalid requests answered by the server directly\n`,
      );
      if (counts.validated === 0) throw new Error('prism: no response went through Prism');
    },
  });
}
