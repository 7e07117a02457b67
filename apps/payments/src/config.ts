import { readServiceConfig, type ServiceConfig } from '@paygrid/platform';
import { SecretBox } from './processor-connections/secret-box';

/** Where the Stripe connector sends its requests (tests: a local stripe-mock). */
export interface StripeApiBase {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

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
   * How long a payer has to complete 3-D Secure before recovery cancels the payment at the
   * processor and records it failed (PAYMENTS_AUTHENTICATION_TIMEOUT_SECONDS, default 3600).
   */
  authenticationTimeoutMs: number;
  /**
   * Test-only: a clock the operator context can move (POST /internal/test-clock/advance).
   * Refused with NODE_ENV=production.
   */
  testClock: boolean;
  /**
   * Test only (PAYMENTS_TEST_EXIT_AFTER_CHARGE): the process kills itself (SIGKILL) as soon as
   * a live connector has answered a charge, before the outcome is recorded, so the crash
   * suites can stop it exactly between the processor call and tx2.
   */
  testExitAfterCharge: boolean;
  /**
   * The key ring that seals processor credentials at rest (PROCESSOR_SECRETS_KEYS); without it
   * no processor connection can be created and live payments stay refused. The embedded
   * default generates one into DATA_DIR.
   */
  processorSecrets?: SecretBox;
  /** STRIPE_API_BASE: Stripe's API (default https://api.stripe.com); tests point it at stripe-mock. */
  stripeApi: StripeApiBase;
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
  // 5 minutes (a challenge takes that long) to 24 hours (Stripe's longest hosted Checkout).
  const authenticationTimeoutMs =
    reader.int('PAYMENTS_AUTHENTICATION_TIMEOUT_SECONDS', 3600, 300, 86_400) * 1000;
  const testClock = reader.bool('PAYMENTS_TEST_CLOCK', false);
  if (testClock && env.NODE_ENV === 'production') {
    reader.problem('PAYMENTS_TEST_CLOCK is a test-only setting and is refused with NODE_ENV=production');
  }
  const testExitAfterCharge = reader.bool('PAYMENTS_TEST_EXIT_AFTER_CHARGE', false);
  if (testExitAfterCharge && env.NODE_ENV === 'production') {
    reader.problem(
      'PAYMENTS_TEST_EXIT_AFTER_CHARGE is a test-only setting and is refused with NODE_ENV=production',
    );
  }
  let processorSecrets: SecretBox | undefined;
  const keys = reader.optional('PROCESSOR_SECRETS_KEYS');
  if (keys !== undefined) {
    const parsed = SecretBox.parse(keys);
    parsed.problems.forEach((p) => reader.problem(p));
    processorSecrets = parsed.box;
  }
  const stripeApi = stripeApiBase(reader.url('STRIPE_API_BASE', ['http', 'https'], 'https://api.stripe.com'));
  if (!stripeApi) reader.problem('STRIPE_API_BASE must be a scheme, host and optional port only');
  // Elsewhere than Stripe (stripe-mock), live connections may hold test keys: tests only.
  if (stripeApi && stripeApi.host !== 'api.stripe.com' && env.NODE_ENV === 'production') {
    reader.problem(
      'STRIPE_API_BASE is a test-only setting (stripe-mock) and is refused with NODE_ENV=production',
    );
  }
  reader.done();
  return {
    ...config,
    publicBaseUrl,
    jobsEnabled,
    jobsIntervalMs,
    authenticationTimeoutMs,
    testClock,
    testExitAfterCharge,
    processorSecrets,
    stripeApi: stripeApi ?? { host: 'api.stripe.com', port: 443, protocol: 'https' },
    ...overrides,
  };
}

/** "http://127.0.0.1:12111" -> the Stripe client's host, port and protocol; undefined if not that. */
function stripeApiBase(value: string): StripeApiBase | undefined {
  try {
    const url = new URL(value);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    if (url.pathname !== '/' || url.search || url.username) return undefined;
    return {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port || (protocol === 'http' ? 80 : 443)),
      protocol,
    };
  } catch {
    return undefined;
  }
}
