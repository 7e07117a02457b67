// The pieces of the outbox-latency benchmark (bench/outbox-latency.mjs) around its load loop:
// the real platform parts the services use, wired for Kafka (PostgreSQL schemas of their own,
// a topic prefix of their own) or for the embedded default (PGlite in memory, in this process),
// and a bus wrapper that timestamps each message's relay send, delivery and consumer commit.

import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { round } from './stats.mjs';

const require = createRequire(import.meta.url);
export const platform = require('@paygrid/platform');
const {
  Database,
  EmbeddedBus,
  KafkaBus,
  createLogger,
  outboxTraceContextMigration,
  platformTablesMigration,
  startEmbeddedDatabase,
} = platform;

// Logs go to stderr so stdout carries only the result table.
export function benchLogger(level = process.env.LOG_LEVEL ?? 'warn') {
  try {
    const pino = createRequire(require.resolve('@paygrid/platform'))('pino');
    return pino({ level, base: { service: 'bench' } }, pino.destination({ dest: 2, sync: true }));
  } catch {
    return createLogger('bench', level);
  }
}
process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1';

export const TOPIC = 'bench.things';
export const KEYS = 64;

export const now = () => process.hrtime.bigint();
export const ms = (from, to) => Number(to - from) / 1e6;
export const sleep = (millis) => new Promise((r) => setTimeout(r, millis));

/** Which transports can run here, and why not when one cannot. */
export function transportAvailability(env = process.env) {
  const kafka =
    env.KAFKA_BROKERS && env.DATABASE_URL
      ? { ok: true }
      : {
          ok: false,
          reason: 'DATABASE_URL and KAFKA_BROKERS are not both set (eval "$(bash infra/infra-up.sh)")',
        };
  return { kafka, embedded: { ok: true } };
}

function thingsMigration(schema) {
  const name = 'BenchThings1700000000001';
  const migration = class {
    name = name;
    async up(runner) {
      await runner.query(
        `create table ${schema}.things (id text primary key, created_at timestamptz not null default now())`,
      );
    }
    async down(runner) {
      await runner.query(`drop table ${schema}.things`);
    }
  };
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}

/** Wraps a bus to timestamp relay sends, deliveries and consumer commits per message id. */
export function instrumentBus(bus, probe) {
  const idOf = (value) => {
    try {
      return JSON.parse(value).id;
    } catch {
      return undefined;
    }
  };
  return {
    transport: bus.transport,
    connect: () => bus.connect(),
    ping: () => bus.ping(),
    close: () => bus.close(),
    async publish(topic, messages) {
      const ids = messages.map((m) => idOf(m.value));
      probe.publishStart(ids, now());
      await bus.publish(topic, messages);
      probe.publishAck(ids, now());
    },
    subscribe(subscription) {
      return bus.subscribe({
        ...subscription,
        handler: async (message) => {
          const id = idOf(message.value);
          probe.delivered(id, now());
          await subscription.handler(message);
          probe.consumerCommitted(id, now());
        },
      });
    },
  };
}

export async function setUpKafka(opts, logger) {
  const suffix = randomBytes(4).toString('hex');
  const schema = `bench_${suffix}`;
  const consumerSchema = `bench_${suffix}_in`;
  const topicPrefix = `bench-${suffix}.`;
  const url = process.env.DATABASE_URL;
  const brokers = process.env.KAFKA_BROKERS.split(',').map((b) => b.trim());
  // One Database (pool + relay) per simulated service instance writing to the schema.
  const poolSize = opts.instances > 1 ? 10 : 20; // 20: the distributed runtime's default
  const producerDbs = [];
  for (let i = 0; i < opts.instances; i++) {
    const db = await Database.connect(
      {
        url,
        schema,
        migrations: [
          platformTablesMigration(schema),
          outboxTraceContextMigration(schema, 1700000000002),
          thingsMigration(schema),
        ],
        poolSize,
        applicationName: `paygrid-bench-producer-${i}`,
      },
      logger,
    );
    producerDbs.push(db);
    await db.migrate();
  }
  const producerDb = producerDbs[0];
  const consumerDb = await Database.connect(
    {
      url,
      schema: consumerSchema,
      migrations: [platformTablesMigration(consumerSchema)],
      poolSize: 20,
      applicationName: 'paygrid-bench-consumer',
    },
    logger,
  );
  await consumerDb.migrate();
  const makeBus = (clientId) =>
    new KafkaBus({ brokers, clientId, partitions: opts.partitions, topicPrefix, topics: [TOPIC], logger });
  const relayBus = makeBus('paygrid-bench-relay');
  const consumerBus = makeBus('paygrid-bench-consumer');
  await relayBus.connect();
  await consumerBus.connect();
  const [{ version }] = await producerDb.query('select version() as version');
  return {
    suffix,
    schema,
    producerDbs,
    consumerDb,
    relayBus,
    consumerBus,
    relayOptions: {}, // leader election through the advisory lock, as in production
    info: {
      mode: 'distributed: real PostgreSQL + Kafka (separate processes on the same machine)',
      postgres: version,
      brokers,
      schemas: [schema, consumerSchema],
      topic: `${topicPrefix}${TOPIC}`,
      partitions: opts.partitions,
      instances: opts.instances,
      pool_size: poolSize,
    },
    async cleanUp() {
      const kafkajs = createRequire(require.resolve('@paygrid/platform'))('kafkajs');
      const admin = new kafkajs.Kafka({
        clientId: 'paygrid-bench-cleanup',
        brokers,
        logLevel: kafkajs.logLevel.NOTHING,
      }).admin();
      try {
        await admin.connect();
        await admin.deleteGroups([`bench-${suffix}-consumer`]).catch(() => undefined);
        await admin.deleteTopics({ topics: [`${topicPrefix}${TOPIC}`], timeout: 10_000 });
      } catch (error) {
        logger.warn({ err: error }, 'could not delete the bench topic');
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
      await producerDb.query(`drop schema if exists ${schema} cascade`);
      await producerDb.query(`drop schema if exists ${consumerSchema} cascade`);
    },
  };
}

export async function setUpEmbedded(opts, logger) {
  if (opts.instances !== 1) throw new Error('embedded: one process, so --instances must be 1');
  const suffix = randomBytes(4).toString('hex');
  const schema = 'producer';
  const started = now();
  const embedded = await startEmbeddedDatabase('memory://');
  const startMs = ms(started, now());
  // The embedded runner's wiring: one PGlite, one EmbeddedBus shared by every service,
  // pools of 4, relay without election.
  const producerDb = await Database.connect(
    {
      url: embedded.url,
      schema,
      migrations: [
        platformTablesMigration(schema),
        outboxTraceContextMigration(schema, 1700000000002),
        thingsMigration(schema),
      ],
      poolSize: 4,
    },
    logger,
  );
  await producerDb.migrate();
  const consumerDb = await Database.connect(
    { url: embedded.url, schema: 'consumer', migrations: [platformTablesMigration('consumer')], poolSize: 4 },
    logger,
  );
  await consumerDb.migrate();
  const bus = new EmbeddedBus(embedded.url, logger);
  await bus.connect();
  const [{ version }] = await producerDb.query('select version() as version');
  return {
    suffix,
    schema,
    producerDbs: [producerDb],
    consumerDb,
    relayBus: bus,
    consumerBus: bus,
    shared: true,
    embedded,
    relayOptions: { singleInstance: true },
    info: {
      mode: 'embedded: PGlite (in memory, served in this process) + EmbeddedBus',
      postgres: version,
      pglite_start_ms: round(startMs),
      pool_size: 4,
    },
    async cleanUp() {},
  };
}
