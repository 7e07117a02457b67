import { readServiceConfig, type ServiceConfig } from '@paygrid/platform';

export interface PaymentsConfig extends ServiceConfig {
  /**
   * Where payers reach the gateway: payment link `url`s are `${publicBaseUrl}/pay/<id>`.
   * Default: the gateway on this host (embedded: this process's port; distributed: 3000).
   */
  publicBaseUrl: string;
}

export function readPaymentsConfig(
  env: Record<string, string | undefined>,
  overrides: Partial<PaymentsConfig> = {},
): PaymentsConfig {
  const { reader, config } = readServiceConfig(env, 'payments', 3001);
  const gatewayPort = config.mode === 'embedded' ? config.port : 3000;
  const publicBaseUrl = reader.url('PUBLIC_BASE_URL', ['http', 'https'], `http://localhost:${gatewayPort}`);
  reader.done();
  return { ...config, publicBaseUrl, ...overrides };
}
