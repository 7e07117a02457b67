// The entry point every app's main.ts uses: read config (fail fast with every problem),
// start, listen, and stop cleanly on SIGTERM/SIGINT.

import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError } from './config';

export interface Runnable {
  app: NestFastifyApplication;
  stop(): Promise<void>;
}

export function runMain<C extends { port: number; host: string }>(
  readConfig: () => C,
  start: (config: C) => Promise<Runnable>,
): void {
  const main = async () => {
    const config = readConfig();
    const service = await start(config);
    await service.app.listen({ port: config.port, host: config.host });
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await service.stop();
      process.exit(0);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  };
  main().catch((error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}
