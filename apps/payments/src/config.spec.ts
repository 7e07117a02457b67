import { ConfigError } from '@paygrid/platform';
import { readPaymentsConfig } from './config';

const base = {
  PAYGRID_MODE: 'distributed',
  DATABASE_URL: 'postgres://u:p@localhost/db',
  KAFKA_BROKERS: 'localhost:9092',
  INTERNAL_SIGNING_SECRET: 'x'.repeat(40),
};

describe('payments configuration', () => {
  it('runs the background jobs every 10 s and has no test clock by default', () => {
    expect(readPaymentsConfig(base)).toMatchObject({
      jobsEnabled: true,
      jobsIntervalMs: 10_000,
      testClock: false,
    });
  });

  it('enables the test clock only when asked, and never with NODE_ENV=production', () => {
    expect(readPaymentsConfig({ ...base, PAYMENTS_TEST_CLOCK: 'true' }).testClock).toBe(true);
    expect(() =>
      readPaymentsConfig({ ...base, PAYMENTS_TEST_CLOCK: 'true', NODE_ENV: 'production' }),
    ).toThrow(ConfigError);
    expect(() => readPaymentsConfig({ ...base, PAYMENTS_JOBS_INTERVAL_MS: '10' })).toThrow(
      /PAYMENTS_JOBS_INTERVAL_MS/,
    );
  });

  it('gives a payer an hour to complete 3-D Secure by default, 5 minutes to 24 hours if set', () => {
    expect(readPaymentsConfig(base).authenticationTimeoutMs).toBe(3_600_000);
    expect(
      readPaymentsConfig({ ...base, PAYMENTS_AUTHENTICATION_TIMEOUT_SECONDS: '900' }).authenticationTimeoutMs,
    ).toBe(900_000);
    for (const value of ['60', '86401', 'soon']) {
      expect(() => readPaymentsConfig({ ...base, PAYMENTS_AUTHENTICATION_TIMEOUT_SECONDS: value })).toThrow(
        /PAYMENTS_AUTHENTICATION_TIMEOUT_SECONDS/,
      );
    }
  });

  it('kills itself after a charge only when a test asks, never with NODE_ENV=production', () => {
    expect(readPaymentsConfig(base).testExitAfterCharge).toBe(false);
    expect(readPaymentsConfig({ ...base, PAYMENTS_TEST_EXIT_AFTER_CHARGE: 'true' }).testExitAfterCharge).toBe(
      true,
    );
    expect(() =>
      readPaymentsConfig({ ...base, PAYMENTS_TEST_EXIT_AFTER_CHARGE: 'true', NODE_ENV: 'production' }),
    ).toThrow(/PAYMENTS_TEST_EXIT_AFTER_CHARGE/);
  });

  it("talks to Stripe's API unless told otherwise; stripe-mock is a test-only setting", () => {
    expect(readPaymentsConfig(base).stripeApi).toEqual({
      host: 'api.stripe.com',
      port: 443,
      protocol: 'https',
    });
    expect(readPaymentsConfig({ ...base, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).stripeApi).toEqual({
      host: '127.0.0.1',
      port: 12111,
      protocol: 'http',
    });
    expect(() => readPaymentsConfig({ ...base, STRIPE_API_BASE: 'http://127.0.0.1:12111/v1' })).toThrow(
      /STRIPE_API_BASE must be/,
    );
    expect(() =>
      readPaymentsConfig({ ...base, STRIPE_API_BASE: 'http://127.0.0.1:12111', NODE_ENV: 'production' }),
    ).toThrow(/test-only/);
  });

  it('reads the processor secrets key ring, listing every problem', () => {
    expect(readPaymentsConfig(base).processorSecrets).toBeUndefined();
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(
      readPaymentsConfig({ ...base, PROCESSOR_SECRETS_KEYS: `k2:${key},k1:${key}` }).processorSecrets
        ?.currentKeyId,
    ).toBe('k2');
    expect(() => readPaymentsConfig({ ...base, PROCESSOR_SECRETS_KEYS: 'k1:short' })).toThrow(/32 bytes/);
  });
});
