// The platform of the payments suites, in either mode, with the payments service's opt-in
// test clock (PAYMENTS_TEST_CLOCK=true; without it the clock and its route do not exist):
//   embedded     startEmbedded() with that flag in its environment;
//   distributed  the harness's four processes, payments restarted with the flag.
// advance(ms) moves the payments clock through its operator-only internal route and runs the
// service's background jobs once (due mandates, link expiry, recovery). publishCommand()
// puts a payments.commands.v1 message on the real bus of the mode (embedded bus or Kafka).
// The background timer is slowed to an hour so only advance() runs the jobs: the suites see
// exactly the charges the clock makes due.

import { randomBytes } from 'node:crypto';
import { TOPICS, type CommandEnvelope, type PaymentsCommandData } from '@paygrid/contracts';
import { createLogger, KafkaBus, newSortableId, signContext, type EventBus } from '@paygrid/platform';
import {
  startDistributedPlatform,
  testMode,
  type ApiResponse,
  type Platform,
  type TestAccount,
} from '../support/platform';

export const PAYMENTS_TEST_ENV = {
  PAYMENTS_TEST_CLOCK: 'true',
  PAYMENTS_JOBS_INTERVAL_MS: '3600000',
};

export interface JobReport {
  mandate_charges: number;
  links_expired: number;
  recovered: { mandate_charges: number; payments: number; refunds: number };
}

export interface PaymentsPlatform extends Platform {
  /** The secret services share (signs hosted-invoice payment tokens). */
  internalSecret: string;
  /** Moves the payments clock forward and runs its jobs once; answers the clock's new now. */
  advance(ms: number): Promise<{ now: Date; ran: JobReport }>;
  publishCommand(
    account: string,
    livemode: boolean,
    data: PaymentsCommandData['payment.charge_mandate'],
    id?: string,
  ): Promise<string>;
}

export const DAY_MS = 86_400_000;

async function fetchJson<T>(
  base: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse<T>> {
  const init: RequestInit = { method, headers: { ...headers }, redirect: 'manual' };
  if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`;
  if (body !== undefined) {
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // a page, not JSON
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

const operatorHeaders = (secret: string, method: string, url: string) =>
  signContext(
    secret,
    { kind: 'operator', request_id: `req_${randomBytes(8).toString('hex')}`, issued_at: Date.now() },
    method,
    url,
  );

function envelope(
  account: string,
  livemode: boolean,
  data: PaymentsCommandData['payment.charge_mandate'],
  id: string,
): CommandEnvelope<PaymentsCommandData['payment.charge_mandate']> {
  return {
    id,
    type: 'payment.charge_mandate',
    created_at: new Date().toISOString(),
    livemode,
    account,
    data,
  };
}

async function startEmbeddedPayments(): Promise<PaymentsPlatform> {
  const { startEmbedded } = await import('@paygrid/embedded');
  const embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    demo: false,
    env: { OPERATOR_TOKEN: `op_${randomBytes(24).toString('hex')}`, ...PAYMENTS_TEST_ENV },
    logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
  });
  const payments = embedded.services.payments;
  const secret = payments.runtime.config.internalSecret;
  const base = {
    mode: 'embedded' as const,
    url: embedded.url,
    operatorToken: embedded.operatorToken,
    internalSecret: secret,
    async internal<T>(service: 'payments' | 'invoicing' | 'webhooks', path: string) {
      const response = await embedded.services[service].app.inject({ method: 'GET', url: path });
      let body: unknown = response.body;
      try {
        body = JSON.parse(response.body);
      } catch {
        // not JSON
      }
      return { status: response.statusCode, body: body as T, headers: new Headers() };
    },
    sql: <T>(service: 'payments' | 'invoicing' | 'webhooks', text: string, params?: unknown[]) =>
      embedded.services[service].runtime.db.query<T>(text, params),
    stop: () => embedded.stop(),
    async advance(ms: number) {
      const url = '/internal/test-clock/advance';
      const response = await payments.app.inject({
        method: 'POST',
        url,
        headers: { ...operatorHeaders(secret, 'POST', url), 'content-type': 'application/json' },
        payload: JSON.stringify({ ms }),
      });
      if (response.statusCode !== 200)
        throw new Error(`advance failed: ${response.statusCode} ${response.body}`);
      const body = JSON.parse(response.body) as { now: string; ran: JobReport };
      return { now: new Date(body.now), ran: body.ran };
    },
    async publishCommand(
      account: string,
      livemode: boolean,
      data: PaymentsCommandData['payment.charge_mandate'],
      id = newSortableId('cmd'),
    ) {
      await payments.runtime.bus.publish(TOPICS.paymentsCommands, [
        { key: account, value: JSON.stringify(envelope(account, livemode, data, id)) },
      ]);
      return id;
    },
  };
  return withApi(base);
}

async function startDistributedPayments(): Promise<PaymentsPlatform> {
  const platform = await startDistributedPlatform();
  await platform.kill('payments');
  await platform.start('payments', PAYMENTS_TEST_ENV);
  const paymentsUrl = `http://127.0.0.1:${platform.ports.payments}`;
  const secret = platform.env.INTERNAL_SIGNING_SECRET;
  let bus: EventBus | undefined;
  const stop = platform.stop.bind(platform);
  return Object.assign(platform, {
    internalSecret: secret,
    // Redirects are not followed: the suites check the 303 of hosted pages themselves.
    api: <T>(
      key: string | undefined,
      method: string,
      path: string,
      body?: unknown,
      headers?: Record<string, string>,
    ) => fetchJson<T>(platform.url, key, method, path, body, headers),
    async advance(ms: number) {
      const url = '/internal/test-clock/advance';
      const response = await fetchJson<{ now: string; ran: JobReport }>(
        paymentsUrl,
        undefined,
        'POST',
        url,
        { ms },
        operatorHeaders(secret, 'POST', url),
      );
      if (response.status !== 200)
        throw new Error(`advance failed: ${response.status} ${JSON.stringify(response.body)}`);
      return { now: new Date(response.body.now), ran: response.body.ran };
    },
    async publishCommand(
      account: string,
      livemode: boolean,
      data: PaymentsCommandData['payment.charge_mandate'],
      id = newSortableId('cmd'),
    ) {
      if (!bus) {
        bus = new KafkaBus({
          brokers: platform.env.KAFKA_BROKERS.split(','),
          clientId: 'paygrid-payments-tests',
          partitions: 4,
          topicPrefix: platform.topicPrefix,
          topics: [TOPICS.paymentsCommands],
          logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
        });
        await bus.connect();
      }
      await bus.publish(TOPICS.paymentsCommands, [
        { key: account, value: JSON.stringify(envelope(account, livemode, data, id)) },
      ]);
      return id;
    },
    async stop() {
      await bus?.close();
      await stop();
    },
  });
}

function withApi(base: Omit<PaymentsPlatform, 'api' | 'admin' | 'newAccount'>): PaymentsPlatform {
  const platform: PaymentsPlatform = {
    ...base,
    api: (key, method, path, body, headers) => fetchJson(base.url, key, method, path, body, headers),
    admin: (method, path, body) => fetchJson(base.url, base.operatorToken, method, path, body),
    async newAccount(groupings = ['payments', 'invoicing']): Promise<TestAccount> {
      const account = await platform.admin('POST', '/admin/v1/accounts', {
        name: `Test ${randomBytes(3).toString('hex')}`,
        groupings,
      });
      if (account.status !== 200) throw new Error(`account creation failed: ${JSON.stringify(account.body)}`);
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

export function startPaymentsPlatform(): Promise<PaymentsPlatform> {
  return testMode() === 'distributed' ? startDistributedPayments() : startEmbeddedPayments();
}

// ------------------------------------------------------------------ hosted page helpers

export const CARDS = {
  ok: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expired: '4000000000000069',
  processingError: '4000000000000119',
  laterFails: '4000000000000341',
} as const;

export function csrfOf(html: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token in the page: ${html.slice(0, 300)}`);
  return match[1];
}

/** GETs a hosted form page and POSTs it with the card (HTTP form post, as a browser without JS). */
export async function payPage(
  platform: Platform,
  path: string,
  card: string,
  extra: Record<string, string> = {},
): Promise<ApiResponse> {
  const page = await platform.api(undefined, 'GET', path);
  if (page.status !== 200) throw new Error(`GET ${path}: ${page.status}`);
  return submitForm(platform, path, csrfOf(String(page.body)), card, extra);
}

export function submitForm(
  platform: Platform,
  path: string,
  token: string,
  card: string,
  extra: Record<string, string> = {},
): Promise<ApiResponse> {
  const form = new URLSearchParams({
    csrf_token: token,
    cardholder_name: 'Ada Lovelace',
    card_number: card,
    exp_month: '12',
    exp_year: '2099',
    cvc: '123',
    ...extra,
  });
  return platform.api(undefined, 'POST', path, form.toString(), {
    'content-type': 'application/x-www-form-urlencoded',
  });
}
