import { readServiceConfig, type ServiceConfig } from '@paygrid/platform';

export interface PaymentsConfig extends ServiceConfig {
  /**
   * Where payers reach the gateway: payment link `url`s are `${publicBaseUrl}/pay/<id>`.
   * Default: the gateway on this host (embedded: this process's port; distributed: 3000).
   */
  publicBaseUrl: string;
  /** Run the background jobs (mandate charges, link expiry, recovery) in this instance. */
  jobsEnabled: boolean;
  /** How often the background jobs run. */
  jobsIntervalMs: number;
  /**
   * Test-only: a clock the operator context can move (POST /internal/test-clock/advance).
   * Refused with NODE_ENV=production.
   */
  testClock: boolean;
}

export function readPaymentsConfig(
  env: Record<string, string | undefined>,
  overrides: Partial<PaymentsConfig> = {},
): PaymentsConfig {
  const { reader, config } = readServiceConfig(env, 'payments', 3001);
  const gatewayPort = config.mode === 'embedded' ? config.port : 3000;
  const publicBaseUrl = reader.url('PUBLIC_BASE_URL', ['http', 'https'], `http://localhost:${gatewayPort}`);
  const jobsEnabled = reader.bool('PAYMENTS_JOBS_ENABLED', true);
  const jobsIntervalMs = reader.int('PAYMENTS_JOBS_INTERVAL_MS', 10_000, 50, 3_600_000);
  const testClock = reader.bool('PAYMENTS_TEST_CLOCK', false);
  if (testClock && env.NODE_ENV === 'production') {
    reader.problem('PAYMENTS_TEST_CLOCK is a test-only setting and is refused with NODE_ENV=production');
  }
  reader.done();
  return { ...config, publicBaseUrl, jobsEnabled, jobsIntervalMs, testClock, ...overrides };
}
