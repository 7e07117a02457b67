import { readServiceConfig, type ServiceConfig } from '@paygrid/platform';

export interface WebhooksConfig extends ServiceConfig {
  /**
   * Lets sandbox (test-mode) endpoints target private and loopback addresses over http
   * (local receivers). Live endpoints are always https to public addresses only.
   * Default: on in embedded mode, off in distributed mode.
   */
  allowPrivateTargets: boolean;
}

export function readWebhooksConfig(
  env: Record<string, string | undefined>,
  overrides: Partial<WebhooksConfig> = {},
): WebhooksConfig {
  const { reader, config } = readServiceConfig(env, 'webhooks', 3003);
  const allowPrivateTargets = reader.bool('WEBHOOKS_ALLOW_PRIVATE_TARGETS', config.mode === 'embedded');
  reader.done();
  return { ...config, allowPrivateTargets, ...overrides };
}
