// Runs the gateway as its own process (distributed mode).

import 'reflect-metadata';
import { ConfigError } from '@paygrid/platform';
import { readGatewayConfig } from './config';
import { createGateway } from './gateway';

async function main(): Promise<void> {
  const config = readGatewayConfig(process.env);
  const gateway = await createGateway(config);
  await gateway.app.listen({ port: config.port, host: config.host });
  const stop = async () => {
    await gateway.stop();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
