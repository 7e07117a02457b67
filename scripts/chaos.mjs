#!/usr/bin/env node
// npm run test:chaos: the reliability suite. First the invariant checker's own tests (it
// must fail on a broken dataset), then the fault run (tests/chaos/faults.chaos.ts) against
// the distributed platform on the suite's own PostgreSQL, Redis and Kafka
// (scripts/chaos-infra.mjs), which it restarts under load. Stops that infrastructure after.
// Needs the build (`npm run build`). Exits non-zero if anything failed.

import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chaosInfraEnv, commands } from './chaos-infra.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const jest = (project, env) =>
  spawnSync(
    process.execPath,
    [
      '--experimental-vm-modules',
      '--no-warnings=ExperimentalWarning',
      join(root, 'node_modules', 'jest', 'bin', 'jest.js'),
      '--selectProjects',
      project,
      '--runInBand',
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } },
  ).status ?? 1;

const started = Date.now();
let status = jest('chaos', {});
if (status === 0) {
  // Service logs: the faults make them loud on purpose; LOG_LEVEL=warn shows them.
  const env = { LOG_LEVEL: process.env.LOG_LEVEL ?? 'fatal', ...chaosInfraEnv };
  for (const line of commands.up().split('\n')) {
    const match = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) env[match[1]] = match[2];
  }
  try {
    status = jest('chaos-run', env);
  } finally {
    if (!process.env.CHAOS_KEEP_INFRA) commands.down();
  }
}
console.error(
  `chaos: ${status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`,
);
process.exit(status);
