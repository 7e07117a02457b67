import { readServiceConfig, type ServiceConfig } from '@paygrid/platform';

export type WebhooksConfig = ServiceConfig;

export function readWebhooksConfig(
  env: Record<string, string | undefined>,
  overrides: Partial<WebhooksConfig> = {},
): WebhooksConfig {
  const { reader, config } = readServiceConfig(env, 'webhooks', 3003);
  reader.done();
  return { ...config, ...overrides };
}
