import { readServiceConfig, type ServiceConfig } from '@paygrid/platform';

export type PaymentsConfig = ServiceConfig;

export function readPaymentsConfig(
  env: Record<string, string | undefined>,
  overrides: Partial<PaymentsConfig> = {},
): PaymentsConfig {
  const { reader, config } = readServiceConfig(env, 'payments', 3001);
  reader.done();
  return { ...config, ...overrides };
}
