#!/usr/bin/env node
// Runs a command with the real infrastructure up: calls infra/infra-up.sh (idempotent:
// installs and starts PostgreSQL, Redis and Kafka if needed), takes the `export` lines it
// prints, and runs the command with that environment. Exits with the command's code.

import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/with-infra.mjs <command> [args...]');
  process.exit(2);
}

const up = spawnSync('bash', [join(root, 'infra', 'infra-up.sh')], {
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
});
if (up.status !== 0) {
  console.error('infra-up failed; see the messages above.');
  process.exit(up.status ?? 1);
}
const env = { ...process.env };
for (const line of up.stdout.split('\n')) {
  const match = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
  if (match) env[match[1]] = match[2];
}
for (const name of ['DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS']) {
  if (!env[name]) {
    console.error(`infra-up did not print ${name}`);
    process.exit(1);
  }
}
console.error(
  `with-infra: DATABASE_URL=${env.DATABASE_URL} KAFKA_BROKERS=${env.KAFKA_BROKERS} REDIS_URL=${env.REDIS_URL}`,
);
const child = spawn(command, args, { stdio: 'inherit', env, cwd: root });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
