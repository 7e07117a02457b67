// Gateway configuration: the common service settings plus the upstream services, Redis and
// the operator token.

import { readServiceConfig, type EnvReader, type ServiceConfig } from '@paygrid/platform';
import type { ServiceName } from '@paygrid/contracts';

export interface GatewayConfig extends ServiceConfig {
  upstreams: Record<ServiceName, string>;
  /**
   * The services this installation runs (PAYGRID_SERVICES, default all three): a
   * payments-only or invoicing-only deployment leaves one out, and its routes answer 404
   * service_not_installed instead of waiting on a service that is not there.
   */
  services: ServiceName[];
  redisUrl?: string;
  operatorToken: string;
  upstreamTimeoutMs: number;
  publicBaseUrl: string;
  /** Requests per second per key when the account has no override (burst: one second's worth). */
  rateLimits: { live: number; test: number };
  /** Failed authentications per second per client address before 429; 0 turns it off. */
  authFailuresPerSecond: number;
  /** Load shedding: proxied requests this instance handles at once before answering 503. */
  maxInFlight: number;
}

export function readGatewayConfig(
  env: Record<string, string | undefined>,
  overrides: Partial<GatewayConfig> = {},
): GatewayConfig {
  const { reader, config } = readServiceConfig(env, 'gateway', 3000, { kafka: false });
  const embedded = config.mode === 'embedded';
  const upstream = (name: string, port: number) =>
    embedded ? `inject://${name}` : reader.url(name, ['http', 'https'], `http://127.0.0.1:${port}`);
  const result: GatewayConfig = {
    ...config,
    services: installedServices(reader),
    upstreams: {
      payments: upstream('PAYMENTS_URL', 3001),
      invoicing: upstream('INVOICING_URL', 3002),
      webhooks: upstream('WEBHOOKS_URL', 3003),
    },
    redisUrl: embedded ? undefined : reader.url('REDIS_URL', ['redis', 'rediss']),
    operatorToken: overrides.operatorToken ?? reader.secret('OPERATOR_TOKEN', 24),
    upstreamTimeoutMs: reader.int('UPSTREAM_TIMEOUT_MS', 30_000, 100, 600_000),
    publicBaseUrl: reader.string('PUBLIC_BASE_URL', `http://localhost:${config.port}`),
    rateLimits: {
      live: reader.int('RATE_LIMIT_LIVE_PER_SECOND', 100, 1, 100_000),
      test: reader.int('RATE_LIMIT_TEST_PER_SECOND', 25, 1, 100_000),
    },
    authFailuresPerSecond: reader.int('AUTH_FAILURE_LIMIT_PER_SECOND', 20, 0, 100_000),
    maxInFlight: reader.int('GATEWAY_MAX_IN_FLIGHT', 256, 1, 100_000),
    ...overrides,
  };
  reader.done();
  return result;
}

const ALL_SERVICES: readonly ServiceName[] = ['payments', 'invoicing', 'webhooks'];

function installedServices(reader: EnvReader): ServiceName[] {
  const raw = reader.optional('PAYGRID_SERVICES');
  if (!raw) return [...ALL_SERVICES];
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(ALL_SERVICES as readonly string[]).includes(n));
  if (unknown.length)
    reader.invalid(
      `PAYGRID_SERVICES: unknown service ${unknown.join(', ')} (known: ${ALL_SERVICES.join(', ')})`,
    );
  const services = ALL_SERVICES.filter((s) => names.includes(s));
  if (!services.includes('payments') && !services.includes('invoicing'))
    reader.invalid('PAYGRID_SERVICES must include payments or invoicing (or both)');
  return services;
}
