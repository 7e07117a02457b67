// `npm start`: the whole platform in one process, with nothing else to install.

import 'reflect-metadata';
import { resolve } from 'node:path';
import { ConfigError } from '@paygrid/platform';
import { startEmbedded } from './embedded';

async function main(): Promise<void> {
  const started = Date.now();
  const port = Number(process.env.PORT ?? 3000);
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const embedded = await startEmbedded({
    dataDir,
    port,
    host: process.env.HOST ?? '127.0.0.1',
    env: process.env,
  });
  const lines = [
    '',
    `  Paygrid is running (embedded mode) at ${embedded.url}   [started in ${Date.now() - started} ms]`,
    `  Data:            ${dataDir}`,
    `  Demo account:    ${embedded.demo?.account}`,
    `  Sandbox key:     ${embedded.demo?.secret_key}`,
    `  Operator token:  ${embedded.operatorToken}`,
    '',
    `  Try:  curl ${embedded.url}/health`,
    `        curl -H "Authorization: Bearer ${embedded.demo?.secret_key}" ${embedded.url}/v1/events`,
    '',
  ];
  if (process.env.METRICS_PORT) {
    await embedded.metrics.listen(Number(process.env.METRICS_PORT), process.env.HOST ?? '127.0.0.1');
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = async () => {
    await embedded.stop();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
