// The runtime of one service: its database (migrated), the bus, the outbox relay and the
// inbox consumer, wired from configuration. Each app builds one in main.ts (distributed) or
// receives shared pieces from the embedded runner (one process).

import type { MigrationInterface } from 'typeorm';
import type { EventBus } from './bus/bus';
import { KafkaBus } from './bus/kafka-bus';
import { NoBus } from './bus/no-bus';
import { systemClock, type Clock } from './clock';
import type { ServiceConfig } from './config';
import { Database } from './db/database';
import { createLogger, type Logger } from './logging';
import { InboxConsumer } from './outbox/consumer';
import { outboxChannel, OutboxRelay } from './outbox/relay';
import { pruneIdempotencyKeys } from './idempotency/idempotency.interceptor';
import { Metrics } from './observability/metrics';
import { Periodic } from './periodic';

export const RUNTIME = Symbol('PAYGRID_RUNTIME');

export interface ServiceRuntime {
  config: ServiceConfig;
  logger: Logger;
  db: Database;
  bus: EventBus;
  relay: OutboxRelay;
  consumer: InboxConsumer;
  clock: Clock;
  /** The process's Prometheus registry (shared by the four apps of the embedded default). */
  metrics: Metrics;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  config: ServiceConfig;
  schema: string;
  migrations: (new () => MigrationInterface)[];
  /** Topics the service publishes or consumes (created on Kafka if missing). */
  topics: readonly string[];
  /**
   * A bus shared by the embedded runner; 'none' for a service that neither publishes nor
   * consumes (the gateway); otherwise a KafkaBus is made from config.
   */
  bus?: EventBus | 'none';
  logger?: Logger;
  clock?: Clock;
  poolSize?: number;
  /** The process's metrics; the embedded runner passes one for its four apps. */
  metrics?: Metrics;
}

export async function startRuntime(options: RuntimeOptions): Promise<ServiceRuntime> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.service, config.logLevel);
  const db = await Database.connect(
    {
      url: config.databaseUrl,
      schema: options.schema,
      migrations: options.migrations,
      poolSize: options.poolSize ?? (config.mode === 'embedded' ? 4 : 20),
      applicationName: `paygrid-${config.service}`,
      missingTransaction: config.strictTransactions ? 'throw' : 'join',
      // In both modes: the embedded wire server gives each connection its own statement names
      // (sync-group-queue.ts), and its one session spends most of a checkout planning the same
      // statements again without them (bench/README.md finding 61).
      preparedStatements: config.preparedStatements,
      pipeline: config.pipelineTransactions,
    },
    logger,
  );
  await db.migrate();
  // Every instance that writes outbox rows NOTIFYs the relay leader, wherever it runs
  // (API-only replicas included).
  if (config.mode === 'distributed') db.notifyChannel = outboxChannel(options.schema);
  const ownBus = options.bus === undefined || options.bus === 'none';
  const bus =
    options.bus === 'none'
      ? new NoBus()
      : (options.bus ??
        new KafkaBus({
          brokers: config.kafkaBrokers,
          clientId: `paygrid-${config.service}`,
          partitions: config.kafkaPartitions,
          topicPrefix: config.kafkaTopicPrefix,
          sessionTimeoutMs: config.kafkaSessionTimeoutMs,
          topics: options.topics,
          logger,
        }));
  if (ownBus) await bus.connect();
  const metrics = options.metrics ?? new Metrics();
  const consumer = new InboxConsumer(db, bus, logger, {
    retries: metrics.counter(
      'paygrid_inbox_retries_total',
      'Consumed messages whose handling failed and is retried (the partition waits meanwhile).',
      ['service', 'consumer'],
    ),
    service: config.service,
  });
  // Housekeeping, hourly: idempotency keys past their 24 hours, inbox ids past 30 days.
  const housekeeping = [
    new Periodic('idempotency key cleanup', 3_600_000, () => pruneIdempotencyKeys(db), logger).start(),
    new Periodic('inbox cleanup', 3_600_000, () => consumer.prune(30), logger).start(),
  ];
  const relay = new OutboxRelay(db, bus, logger, { singleInstance: config.mode === 'embedded' });
  if (bus.transport !== 'none' && config.outboxRelayEnabled) relay.start();
  if (bus.transport !== 'none') registerOutboxGauges(metrics, db, config.service, options.schema);
  registerPoolGauge(metrics, db, config.service);
  if (ownBus && bus instanceof KafkaBus) registerKafkaLagGauge(metrics, bus);
  return {
    config,
    logger,
    db,
    bus,
    relay,
    consumer,
    clock: options.clock ?? systemClock,
    metrics,
    async stop() {
      await Promise.all(housekeeping.map((task) => task.stop()));
      await relay.stop();
      if (ownBus) await bus.close();
      await db.close();
    },
  };
}

/** The outbox backlog: rows committed but not yet on the bus, and how long the oldest waits. */
function registerOutboxGauges(metrics: Metrics, db: Database, service: string, schema: string): void {
  let oldestAge = 0;
  metrics.gauge(
    'paygrid_outbox_backlog',
    'Outbox rows not yet published to the bus.',
    ['service'],
    async (set) => {
      const [row] = await db.query<{ n: string; age: string | null }>(
        `select count(*)::text as n, extract(epoch from now() - min(created_at))::text as age
         from ${schema}.outbox where published_at is null`,
      );
      set({ service }, Number(row.n));
      oldestAge = row.age === null ? 0 : Math.max(0, Number(row.age));
    },
  );
  metrics.gauge(
    'paygrid_outbox_oldest_age_seconds',
    'Age of the oldest unpublished outbox row, 0 when none (read together with paygrid_outbox_backlog).',
    ['service'],
    async (set) => set({ service }, oldestAge),
  );
}

/** The database pool: connections open, idle, and callers waiting for one. */
function registerPoolGauge(metrics: Metrics, db: Database, service: string): void {
  metrics.gauge(
    'paygrid_db_pool_connections',
    'Database pool connections by state: total (open), idle, waiting (callers queued for one).',
    ['service', 'state'],
    async (set) => {
      const pool = db.poolUsage();
      set({ service, state: 'total' }, pool.total);
      set({ service, state: 'idle' }, pool.idle);
      set({ service, state: 'waiting' }, pool.waiting);
    },
  );
}

/** Kafka consumer lag of this process's groups, per topic and partition (read at scrape). */
function registerKafkaLagGauge(metrics: Metrics, bus: KafkaBus): void {
  metrics.gauge(
    'paygrid_kafka_consumer_lag',
    'Messages on a partition not yet committed by the consumer group (high watermark - committed offset).',
    ['group', 'topic', 'partition'],
    async (set) => {
      for (const row of await bus.lag()) {
        set({ group: row.group, topic: row.topic, partition: String(row.partition) }, row.lag);
      }
    },
  );
}
