// The distributed mode of the test harness (tests/support/platform.ts): the four apps as
// processes of their own, on a database and a Kafka topic prefix of this start, against the
// real PostgreSQL, Kafka and Redis of DATABASE_URL, KAFKA_BROKERS and REDIS_URL.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { TOPICS } from '@paygrid/contracts';
import { createLogger, deleteKafkaNamespace, KafkaBus, type EventBus } from '@paygrid/platform';
import {
  advancePaymentsClockAt,
  eventually,
  freePort,
  processorSecretsKeys,
  request,
  ROOT,
  STRICT_TRANSACTIONS,
  STRIPE_API_BASE,
  testMailDir,
  withHelpers,
} from './harness';
import type { DistributedPlatform, ServiceName } from './platform-types';

const SERVICES: ServiceName[] = ['payments', 'invoicing', 'webhooks', 'gateway'];

async function waitForHealth(url: string, path: string, timeoutMs = 60_000): Promise<void> {
  await eventually(
    async () => {
      const response = await fetch(`${url}${path}`);
      return response.status === 200 ? true : undefined;
    },
    timeoutMs,
    200,
  );
}

/**
 * `extraEnv`: settings for every process. `options.services`: the services this installation
 * runs (default all three); the others are not started and the gateway is told with
 * PAYGRID_SERVICES, as a payments-only or invoicing-only deployment would be.
 * `options.serviceEnv`: settings for one process, on top of `extraEnv` (kept across restarts).
 */
export async function startDistributedPlatform(
  extraEnv: Record<string, string> = {},
  options: {
    services?: Exclude<ServiceName, 'gateway'>[];
    /** Settings of one process only (e.g. its own METRICS_PORT). */
    serviceEnv?: Partial<Record<ServiceName, Record<string, string>>>;
    /** Every process logs at debug level into this file (the no-secrets-in-logs checks). */
    logFile?: string;
  } = {},
): Promise<DistributedPlatform> {
  const baseUrl = process.env.DATABASE_URL as string;
  const suffix = randomBytes(5).toString('hex');
  const database = `paygrid_t_${suffix}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const parsed = new URL(baseUrl);
  parsed.pathname = `/${database}`;
  const databaseUrl = parsed.toString();
  const topicPrefix = `t${suffix}.`;

  const ports = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [s, await freePort()])),
  ) as Record<ServiceName, number>;
  const operatorToken = `op_${randomBytes(24).toString('hex')}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    PAYGRID_MODE: 'distributed',
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS as string,
    KAFKA_TOPIC_PREFIX: topicPrefix,
    REDIS_URL: process.env.REDIS_URL as string,
    INTERNAL_SIGNING_SECRET: randomBytes(32).toString('hex'),
    OPERATOR_TOKEN: operatorToken,
    PAYMENTS_URL: `http://127.0.0.1:${ports.payments}`,
    INVOICING_URL: `http://127.0.0.1:${ports.invoicing}`,
    WEBHOOKS_URL: `http://127.0.0.1:${ports.webhooks}`,
    // Sandbox webhook endpoints of the suites point at local receivers (live stays strict).
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    PROCESSOR_SECRETS_KEYS: processorSecretsKeys(),
    STRIPE_API_BASE,
    LOG_LEVEL: options.logFile ? 'debug' : (process.env.LOG_LEVEL ?? 'warn'),
    MAIL_DIR: testMailDir(),
    ...STRICT_TRANSACTIONS,
    ...(options.services ? { PAYGRID_SERVICES: options.services.join(',') } : {}),
    ...extraEnv,
  };
  const processes = new Map<ServiceName, ChildProcess>();
  const extras: ChildProcess[] = [];

  const spawnService = (
    service: ServiceName,
    port: number,
    extraEnv: Record<string, string> = {},
  ): ChildProcess => {
    // With a log file, every process appends its lines to it (the suite reads them back).
    const out = options.logFile ? openSync(options.logFile, 'a') : 'inherit';
    const child = spawn(process.execPath, [join(ROOT, 'apps', service, 'dist', 'main.js')], {
      env: { ...env, PORT: String(port), ...extraEnv },
      stdio: ['ignore', out, out],
    });
    if (typeof out === 'number') closeSync(out);
    return child;
  };

  const start = async (service: ServiceName, extraEnv: Record<string, string> = {}) => {
    processes.set(
      service,
      spawnService(service, ports[service], { ...options.serviceEnv?.[service], ...extraEnv }),
    );
    await waitForHealth(`http://127.0.0.1:${ports[service]}`, service === 'gateway' ? '/ready' : '/ready');
  };

  const kill = async (service: ServiceName, signal: NodeJS.Signals = 'SIGKILL') => {
    const child = processes.get(service);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    processes.delete(service);
  };

  // What the platform owns outside its processes: its database, mail dir, and this run's Kafka
  // topics and consumer groups (left behind, every run would add a few dozen partitions that
  // the shared broker reads back at each start).
  const release = async () => {
    const cleanup = new Client({ connectionString: baseUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${database} with (force)`);
    rmSync(env.MAIL_DIR, { recursive: true, force: true });
    await cleanup.end();
    await deleteKafkaNamespace([env.KAFKA_BROKERS], topicPrefix).catch((error: Error) =>
      console.warn(`could not delete Kafka namespace ${topicPrefix}: ${error.message}`),
    );
  };

  // Services first (they own their migrations), then the gateway. A start that fails stops what
  // it started: a process left running kept the Jest worker, and so CI, from ever exiting
  // (CI 2026-12-03, after a service died on EADDRINUSE).
  const installed = options.services ?? SERVICES.filter((s) => s !== 'gateway');
  const url = `http://127.0.0.1:${ports.gateway}`;
  try {
    await Promise.all(installed.map((s) => start(s)));
    await start('gateway');
    await waitForHealth(url, '/health');
  } catch (error) {
    await Promise.all([...processes.keys()].map((s) => kill(s)));
    // The start's error is the one to see, not a failure of this clean-up.
    await release().catch((cleanup: Error) => console.warn(`cleaning up a failed start: ${cleanup.message}`));
    throw error;
  }

  let bus: EventBus | undefined;
  const platform = withHelpers({
    mode: 'distributed',
    url,
    operatorToken,
    internalSecret: env.INTERNAL_SIGNING_SECRET,
    advancePaymentsClock: (ms) =>
      advancePaymentsClockAt(env.INTERNAL_SIGNING_SECRET, `http://127.0.0.1:${ports.payments}`, ms),
    async publish(topic, messages) {
      if (!bus) {
        bus = new KafkaBus({
          brokers: env.KAFKA_BROKERS.split(','),
          clientId: 'paygrid-tests',
          partitions: 4,
          topicPrefix,
          topics: Object.values(TOPICS),
          logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
        });
        await bus.connect();
      }
      await bus.publish(topic, messages);
    },
    internal: (service, path) => request(`http://127.0.0.1:${ports[service]}`, undefined, 'GET', path),
    async sql(_service, text, params) {
      // One database holds every service's schema; tables are schema-qualified.
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query(text, params as unknown[])).rows;
      } finally {
        await client.end();
      }
    },
    async stop() {
      await bus?.close();
      await Promise.all([...processes.keys()].map((s) => kill(s, 'SIGTERM')));
      await Promise.all(
        extras.map((c) =>
          c.exitCode === null && c.signalCode === null
            ? new Promise((r) => {
                c.once('exit', r);
                c.kill('SIGTERM');
              })
            : undefined,
        ),
      );
      await release();
    },
  });
  return Object.assign(platform, {
    databaseUrl,
    topicPrefix,
    ports,
    env,
    kill,
    start,
    pid: (service: ServiceName) => processes.get(service)?.pid,
    async startExtra(service: ServiceName, extraEnv: Record<string, string> = {}) {
      const port = await freePort();
      const child = spawnService(service, port, extraEnv);
      extras.push(child);
      const extraUrl = `http://127.0.0.1:${port}`;
      await waitForHealth(extraUrl, '/ready');
      const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill(signal);
        await exited;
      };
      return { url: extraUrl, pid: child.pid as number, stop: () => kill('SIGTERM'), kill };
    },
    async startExtraGateway() {
      const port = await freePort();
      const child = spawnService('gateway', port);
      extras.push(child);
      const extraUrl = `http://127.0.0.1:${port}`;
      await waitForHealth(extraUrl, '/ready');
      return {
        url: extraUrl,
        stop: async () => {
          if (child.exitCode !== null) return;
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        },
      };
    },
  });
}
