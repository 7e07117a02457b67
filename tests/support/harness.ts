// What both modes of the test harness share (tests/support/platform.ts): the HTTP client of
// the suites, the account set-up, the payments test clock's route, the settings every
// platform a suite starts gets, and the polling helpers.

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signContext } from '@paygrid/platform';
import type { ApiResponse, JobReport, Mode, Platform } from './platform-types';

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
export const KEY_EVERY_POST = process.env.PAYGRID_TEST_IDEMPOTENCY_KEYS === '1';

/** Every platform a suite starts treats a statement outside the request's transaction as an error. */
export const STRICT_TRANSACTIONS = { PAYGRID_STRICT_TRANSACTIONS: 'true' };

export async function request<T>(
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
        ? // The DOM lib (tests/browser/tsconfig.json) takes only ArrayBuffer-backed views.
          (body as Uint8Array<ArrayBuffer>)
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

export const ADVANCE_PATH = '/internal/test-clock/advance';

/** The signed operator context the payments test clock's internal route requires. */
export const operatorHeaders = (secret: string, method: string, path: string) =>
  signContext(
    secret,
    { kind: 'operator', request_id: `req_${randomBytes(8).toString('hex')}`, issued_at: Date.now() },
    method,
    path,
  );

/** The clock route's answer, or the failure as an exception. */
export function clockAdvanced(response: ApiResponse<any>): { now: Date; ran: JobReport } {
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

export function withHelpers(base: Omit<Platform, 'api' | 'admin' | 'newAccount'>): Platform {
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

/**
 * The ports `freePort` draws from: below Linux's ephemeral range (32768-60999), which the
 * kernel hands to outgoing connections, and a slice of its own per Jest worker. A port drawn
 * from the ephemeral range could be taken by any client socket (a Kafka or PostgreSQL
 * connection of another worker's platform) between the draw and the service's listen; a
 * distributed suite then met another platform's service on its port (a 404 from a wrong
 * webhooks service, CI 2026-11-29).
 */
const PORT_RANGE = { from: 20_000, to: 32_767 };
const WORKER_SLICES = 16;

/**
 * The ports this test file has drawn. A port is free when drawn but only taken when the service
 * listens, so two draws before either listens could coincide: the metrics suite draws eight
 * (four metrics ports, then the platform's four at once) from a slice of about 800, and one
 * process then died on EADDRINUSE (CI 2026-12-03). A port is never handed out twice.
 */
const drawn = new Set<number>();

/** A port nothing listens on now, for something the test starts later (or a closed port). */
export async function freePort(): Promise<number> {
  const size = Math.floor((PORT_RANGE.to - PORT_RANGE.from + 1) / WORKER_SLICES);
  const worker = Number(process.env.JEST_WORKER_ID ?? 1) % WORKER_SLICES;
  const first = PORT_RANGE.from + worker * size;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = first + Math.floor(Math.random() * size);
    if (drawn.has(port)) continue;
    drawn.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${first}-${first + size - 1}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
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
export const testMailDir = () => join(tmpdir(), `paygrid-test-mail-${randomBytes(5).toString('hex')}`);

/**
 * Where the Stripe connector's requests go unless a suite says otherwise: the shared stripe-mock
 * (infra-up.sh exports STRIPE_MOCK_URL), else a local port nothing listens on. Never Stripe.
 */
export const STRIPE_API_BASE = process.env.STRIPE_MOCK_URL ?? 'http://127.0.0.1:9';

/** A per-start key ring for processor credentials (PROCESSOR_SECRETS_KEYS). */
export const processorSecretsKeys = () => `t1:${randomBytes(32).toString('base64')}`;
