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
});
