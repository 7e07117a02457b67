import { readServiceConfig, type ServiceConfig } from '@paygrid/platform';

export type InvoicingConfig = ServiceConfig;

export function readInvoicingConfig(
  env: Record<string, string | undefined>,
  overrides: Partial<InvoicingConfig> = {},
): InvoicingConfig {
  const { reader, config } = readServiceConfig(env, 'invoicing', 3002);
  reader.done();
  return { ...config, ...overrides };
}
