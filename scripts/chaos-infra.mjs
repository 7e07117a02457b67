#!/usr/bin/env node
// The reliability suite's own PostgreSQL, Redis and Kafka: infra/infra-up.sh with a separate
// state directory and ports, so restarting PostgreSQL and Kafka under load never disturbs
// the developer's (or another suite's) infrastructure. The Kafka jars of the default state
// directory are reused when present (no second download).
//
//   node scripts/chaos-infra.mjs up                 prints `export NAME=value` lines
//   node scripts/chaos-infra.mjs restart-postgres   pg_ctl restart -m fast (clients are cut off)
//   node scripts/chaos-infra.mjs restart-kafka      controlled stop of the broker, then start
//   node scripts/chaos-infra.mjs down               stops all three (data kept)
//
// Knobs: CHAOS_INFRA_STATE_DIR, CHAOS_PG_PORT, CHAOS_REDIS_PORT, CHAOS_KAFKA_PORT,
// CHAOS_KAFKA_CONTROLLER_PORT.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(process.env.HOME ?? homedir(), '.cache');
// The ports sit below Linux's ephemeral range (32768-60999 by default): a port inside it can be
// held, at the moment the broker or PostgreSQL binds, by the client end of any of the run's
// thousands of short connections. A CI run failed that way ("Socket server failed to bind to
// 127.0.0.1:59092: Address already in use", with nothing listening there).
export const chaosInfraEnv = {
  INFRA_STATE_DIR: process.env.CHAOS_INFRA_STATE_DIR ?? join(cache, 'paygrid-chaos-infra'),
  PG_PORT: process.env.CHAOS_PG_PORT ?? '25432',
  REDIS_PORT: process.env.CHAOS_REDIS_PORT ?? '26379',
  KAFKA_PORT: process.env.CHAOS_KAFKA_PORT ?? '29092',
  KAFKA_CONTROLLER_PORT: process.env.CHAOS_KAFKA_CONTROLLER_PORT ?? '29093',
  KAFKA_START_TIMEOUT: process.env.KAFKA_START_TIMEOUT ?? '180',
  // The reliability suite charges the sandbox only: no stripe-mock of its own.
  INFRA_SERVICES: 'postgres redis kafka',
};

function bash(script, extraEnv = {}, stdout = 'inherit') {
  const result = spawnSync('bash', ['-c', script], {
    cwd: root,
    env: { ...process.env, ...chaosInfraEnv, ...extraEnv },
    stdio: ['ignore', stdout, 'inherit'],
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`chaos-infra: \`${script}\` exited with ${result.status}`);
  return result.stdout;
}

/** Reuses the default infra's resolved Kafka jars (same recipe) instead of downloading them again. */
function shareKafkaJars() {
  const defaultKafka = join(process.env.INFRA_DEFAULT_STATE_DIR ?? join(cache, 'paygrid-infra'), 'kafka');
  const ours = join(chaosInfraEnv.INFRA_STATE_DIR, 'kafka');
  if (!existsSync(join(defaultKafka, 'libs.resolved')) || existsSync(join(ours, 'libs.resolved'))) return;
  mkdirSync(ours, { recursive: true });
  if (!existsSync(join(ours, 'libs'))) symlinkSync(join(defaultKafka, 'libs'), join(ours, 'libs'));
  copyFileSync(join(defaultKafka, 'libs.resolved'), join(ours, 'libs.resolved'));
}

const PG_DATA = `. infra/lib.sh
if [ -s "$STATE_DIR/postgres.location" ]; then base="$(cat "$STATE_DIR/postgres.location")"; else base="$STATE_DIR/postgres"; fi`;

export const commands = {
  up() {
    shareKafkaJars();
    return bash('bash infra/infra-up.sh', {}, 'pipe');
  },
  'restart-postgres'() {
    bash(`${PG_DATA}
as_pg "$PG_BIN/pg_ctl" restart -D "$base/data" -l "$base/postgres.log" -m fast -w -t 60 -s </dev/null >/dev/null`);
  },
  'restart-kafka'() {
    bash('bash infra/infra-down.sh && bash infra/infra-up.sh >/dev/null', { INFRA_SERVICES: 'kafka' });
  },
  down() {
    bash('bash infra/infra-down.sh');
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = commands[process.argv[2]];
  if (!command) {
    console.error(`usage: node scripts/chaos-infra.mjs ${Object.keys(commands).join('|')}`);
    process.exit(2);
  }
  const out = command();
  if (out) process.stdout.write(out);
}
