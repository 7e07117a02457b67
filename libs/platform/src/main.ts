// The entry point every app's main.ts uses: read config (fail fast with every problem),
// start, listen, and stop cleanly on SIGTERM/SIGINT.

import { ConfigError } from './config';
import { startTracing, stopTracing, type TracingConfig } from './observability/tracing';
import type { ServiceHandle } from './service';

export function runMain<
  C extends { port: number; host: string; metricsPort?: number; tracing?: TracingConfig },
>(readConfig: () => C, start: (config: C) => Promise<ServiceHandle>): void {
  const main = async () => {
    const config = readConfig();
    // Before the app starts, so its first requests are traced too (a no-op without an endpoint).
    if (config.tracing) await startTracing(config.tracing);
    const service = await start(config);
    await service.listen(config.port, config.host);
    // The process's metrics, served on METRICS_PORT when it is set.
    if (config.metricsPort !== undefined)
      await service.runtime.metrics.listen(config.metricsPort, config.host);
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await service.stop();
      await stopTracing();
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
