// Test harness: the whole platform, either embedded in the test process (PGlite + embedded
// bus) or distributed as four real processes against real PostgreSQL, Kafka and Redis.
// The integration suites use only this interface, so the same suites run in both modes.
//
// The pieces: platform-types.ts (the interface), harness.ts (what both modes share),
// distributed-platform.ts, prism.ts (PAYGRID_PRISM=1); the embedded mode is here.

import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createLogger } from '@paygrid/platform';
import { startDistributedPlatform } from './distributed-platform';
import {
  ADVANCE_PATH,
  clockAdvanced,
  operatorHeaders,
  PAYMENTS_TEST_CLOCK_ENV,
  ROOT,
  STRICT_TRANSACTIONS,
  STRIPE_API_BASE,
  testMailDir,
  testMode,
  withHelpers,
} from './harness';
import { databaseImage } from './pglite-image';
import type { Platform, TestAccount } from './platform-types';
import { behindPrism } from './prism';

export * from './platform-types';
export {
  advancePaymentsClockAt,
  DAY_MS,
  eventually,
  freePort,
  PAYMENTS_TEST_CLOCK_ENV,
  ROOT,
  testMode,
} from './harness';
export { startDistributedPlatform } from './distributed-platform';
export { behindPrism } from './prism';

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
