#!/usr/bin/env node
// `npm run start:distributed`: the production path on one machine. Starts the real
// infrastructure (infra/infra-up.sh, unless DATABASE_URL, KAFKA_BROKERS and REDIS_URL are
// already set) and runs the four apps as separate processes, as they would run in
// containers: payments :3001, invoicing :3002, webhooks :3003, gateway :PORT (3000).

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env };

if (!env.DATABASE_URL || !env.KAFKA_BROKERS || !env.REDIS_URL) {
  const up = spawnSync('bash', [join(root, 'infra', 'infra-up.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (up.status !== 0) process.exit(up.status ?? 1);
  for (const line of up.stdout.split('\n')) {
    const match = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) env[match[1]] = match[2];
  }
}

// Secrets: taken from the environment, or generated once and kept under .data/distributed.
const secretsDir = join(root, '.data', 'distributed');
mkdirSync(secretsDir, { recursive: true });
function secret(name) {
  if (env[name]) return env[name];
  const file = join(secretsDir, name.toLowerCase());
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}
const gatewayPort = env.PORT ?? '3000';
Object.assign(env, {
  PAYGRID_MODE: 'distributed',
  INTERNAL_SIGNING_SECRET: secret('INTERNAL_SIGNING_SECRET'),
  OPERATOR_TOKEN: secret('OPERATOR_TOKEN'),
  PAYMENTS_URL: env.PAYMENTS_URL ?? 'http://127.0.0.1:3001',
  INVOICING_URL: env.INVOICING_URL ?? 'http://127.0.0.1:3002',
  WEBHOOKS_URL: env.WEBHOOKS_URL ?? 'http://127.0.0.1:3003',
});

const apps = [
  ['payments', '3001'],
  ['invoicing', '3002'],
  ['webhooks', '3003'],
  ['gateway', gatewayPort],
];
const children = apps.map(([name, port]) => {
  const child = spawn(process.execPath, [join(root, 'apps', name, 'dist', 'main.js')], {
    env: { ...env, PORT: port },
    stdio: 'inherit',
  });
  child.on('exit', (code) => {
    console.error(`[start-distributed] ${name} exited with ${code}`);
    shutdown(code ?? 1);
  });
  return child;
});

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 2_000).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

console.error(
  `[start-distributed] gateway on http://127.0.0.1:${gatewayPort}; operator token in .data/distributed/operator_token`,
);
console.error(
  `[start-distributed] create an account: curl -X POST -H "Authorization: Bearer $(cat .data/distributed/operator_token)" -H 'content-type: application/json' -d '{"name":"Me","groupings":["payments","invoicing"]}' http://127.0.0.1:${gatewayPort}/admin/v1/accounts`,
);
