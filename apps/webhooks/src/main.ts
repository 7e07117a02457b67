// Runs the webhooks service as its own process (distributed mode).

import 'reflect-metadata';
import { ConfigError } from '@paygrid/platform';
import { readWebhooksConfig } from './config';
import { createWebhooks } from './webhooks';

async function main(): Promise<void> {
  const config = readWebhooksConfig(process.env);
  const service = await createWebhooks(config);
  await service.app.listen({ port: config.port, host: config.host });
  const stop = async () => {
    await service.stop();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
