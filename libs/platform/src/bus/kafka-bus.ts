// Kafka transport (kafkajs). Idempotent producer with acks=all; one consumer per group,
// joining its group in the background; a partition's messages are handled one at a time, so
// per-key order holds.

import {
  Kafka,
  logLevel,
  Partitioners,
  type Admin,
  type Consumer,
  type KafkaMessage,
  type Producer,
} from 'kafkajs';
import type { Logger } from '../logging';
import {
  backoffMs,
  consumeInLots,
  sleep,
  type BusMessage,
  type ConsumedMessage,
  type EventBus,
  type Subscription,
} from './bus';
import { OffsetCommitter } from './offset-committer';

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  partitions: number;
  /** Prepended to every topic name (isolates deployments or test runs on one cluster). */
  topicPrefix?: string;
  /** Consumer session timeout (default 10 s; the broker's minimum is 6 s). */
  sessionTimeoutMs?: number;
  /** Topics this process publishes to or consumes; created at connect if missing. */
  topics: readonly string[];
  logger: Logger;
}

/** What a lag-tolerant consumer's fetch waits for, at most its window (Subscription.fetchWindowMs). */
export const FETCH_WINDOW_BYTES = 256 * 1024;

/**
 * The longest a consumer leaves handled messages uncommitted in Kafka. kafkajs commits after
 * every fetched batch (its `autoCommitInterval` is not applied after a batch: kafkajs issue
 * #759), which at moderate rates is an OffsetCommit request per message, each a round trip and
 * an append to `__consumer_offsets`: 0.48 per hosted checkout and per payment link at 200/s
 * (bench/README.md finding 52). Offsets are committed at most this often instead, the last ones
 * by a timer when messages stop. What a crash or rebalance leaves uncommitted is redelivered
 * to the next owner and recognised by its inbox, as any redelivery is.
 */
export const OFFSET_COMMIT_INTERVAL_MS = 1_000;

export class KafkaBus implements EventBus {
  readonly transport = 'kafka' as const;
  private readonly kafka: Kafka;
  private producer?: Producer;
  private readonly consumers: Consumer[] = [];
  /** Each running consumer's pending offset commit (OFFSET_COMMIT_INTERVAL_MS). */
  private readonly committers = new Map<Consumer, OffsetCommitter>();
  private closing = false;
  private pingAdmin?: Admin;
  /** Groups and topics this process consumes (what `lag()` reports on). */
  private readonly subscriptions: { groupId: string; topics: readonly string[] }[] = [];

  constructor(private readonly options: KafkaBusOptions) {
    const log = options.logger.child({ component: 'kafka' });
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      connectionTimeout: 5_000,
      retry: { retries: 8, initialRetryTime: 200 },
      logLevel: logLevel.WARN,
      logCreator: () => (entry) => {
        const { message, ...rest } = entry.log;
        // Known and accepted: the relay re-sends after a failed send anyway, and consumers
        // dedupe through their inbox, so bounded producer retries cost no correctness.
        if (message === 'Limiting retries for the idempotent producer may invalidate EoS guarantees') return;
        // Several services create the shared topics at start; the losers of that race get
        // TOPIC_ALREADY_EXISTS, which kafkajs logs as an error although connect() succeeds.
        const topicRace = (rest as { error?: string }).error === 'Topic creation errors';
        if (entry.level <= logLevel.ERROR && !topicRace) log.error(rest, message);
        else log.warn(rest, message);
      },
    });
  }

  private topic(name: string): string {
    return `${this.options.topicPrefix ?? ''}${name}`;
  }

  /**
   * Services start together and create the shared topics concurrently; until the broker has
   * elected the new partitions' leaders, metadata requests from the others fail with
   * retriable errors (UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE). Start-up steps are
   * retried on those instead of failing the process.
   */
  private async retrying<T>(step: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await step();
      } catch (error) {
        const retriable = (error as { retriable?: boolean }).retriable === true;
        if (!retriable || attempt >= 20) throw error;
        await sleep(Math.min(2_000, 100 * 2 ** Math.min(attempt, 5)));
      }
    }
  }

  async connect(): Promise<void> {
    await this.retrying(() => this.ensureTopics());
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // Murmur2 like the Java client, so keys land on the same partitions from any client.
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    const producer = this.producer;
    await this.retrying(() => producer.connect());
  }

  /** Creates missing topics, then waits until every one has metadata (leaders elected). */
  private async ensureTopics(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const wanted = [...new Set(this.options.topics.map((t) => this.topic(t)))];
      const existing = new Set(await admin.listTopics());
      const missing = wanted.filter((t) => !existing.has(t));
      if (missing.length) {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({
            topic,
            numPartitions: this.options.partitions,
            replicationFactor: -1,
          })),
        });
      }
      if (wanted.length) await admin.fetchTopicMetadata({ topics: wanted });
    } finally {
      await admin.disconnect();
    }
  }

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    if (!this.producer) throw new Error('KafkaBus.publish before connect');
    if (!messages.length) return;
    await this.producer.send({
      topic: this.topic(topic),
      acks: -1,
      messages: messages.map((m) =>
        m.traceparent
          ? { key: m.key, value: m.value, headers: { traceparent: m.traceparent } }
          : { key: m.key, value: m.value },
      ),
    });
  }

  /**
   * Registers the consumer and returns once it is subscribed; the group join runs in the
   * background. A process restarted after a crash (kill -9) joins a group that still lists
   * its dead predecessor, and the broker completes that join only when the dead member's
   * session times out: waiting for it here kept the HTTP API down for the whole session
   * timeout. If the join fails (Kafka unreachable past the retries), a new consumer is made
   * and the join retried with back-off, so a subscription is never silently given up.
   */
  async subscribe(subscription: Subscription): Promise<void> {
    this.subscriptions.push({ groupId: subscription.groupId, topics: subscription.topics });
    void this.join(subscription, await this.consumer(subscription));
  }

  private async join(subscription: Subscription, first: Consumer): Promise<void> {
    const log = this.options.logger.child({ component: 'consumer', groupId: subscription.groupId });
    let consumer: Consumer | undefined = first;
    for (let attempt = 0; !this.closing; attempt++) {
      try {
        consumer ??= await this.consumer(subscription);
        await this.run(subscription, consumer);
        log.info({ attempt }, 'consumer group joined');
        return;
      } catch (error) {
        if (this.closing) return;
        log.error({ err: error, attempt }, 'consumer group join failed; retrying');
        if (consumer) {
          const failed = consumer;
          this.consumers.splice(this.consumers.indexOf(failed), 1);
          this.committers.delete(failed);
          await failed.disconnect().catch(() => undefined);
          consumer = undefined;
        }
        await sleep(backoffMs(attempt));
      }
    }
  }

  private async consumer({ groupId, topics, fetchWindowMs }: Subscription): Promise<Consumer> {
    const consumer = this.kafka.consumer({
      groupId: this.topic(groupId),
      // A lag-tolerant consumer's fetch waits for FETCH_WINDOW_BYTES or for its window,
      // whichever comes first; the default (1 byte, 5 s) answers as soon as one message is
      // there, which costs a fetch and an offset commit per message at moderate rates.
      ...(fetchWindowMs ? { minBytes: FETCH_WINDOW_BYTES, maxWaitTimeInMs: fetchWindowMs } : {}),
      // 10 s by default instead of 30 s: a crashed member's partitions move to the survivors
      // (or to its restarted self) after at most 10 s. Three heartbeats fit in a session;
      // handlers are short transactions and a retried message heartbeats between attempts,
      // so only an event loop blocked for 10 s would cost a (harmless) rebalance.
      sessionTimeout: this.options.sessionTimeoutMs ?? 10_000,
      heartbeatInterval: 3_000,
      retry: { retries: 10 },
    });
    await this.retrying(() => consumer.connect());
    this.consumers.push(consumer);
    for (const topic of topics) {
      await this.retrying(() => consumer.subscribe({ topic: this.topic(topic), fromBeginning: true }));
    }
    return consumer;
  }

  private async run({ groupId, handler, batchHandler }: Subscription, consumer: Consumer): Promise<void> {
    const log = this.options.logger.child({ component: 'consumer', groupId });
    const consumed = (topic: string, partition: number, message: KafkaMessage): ConsumedMessage => ({
      topic: topic.slice((this.options.topicPrefix ?? '').length),
      partition,
      offset: message.offset,
      key: message.key?.toString() ?? '',
      value: message.value?.toString() ?? '',
      traceparent: message.headers?.traceparent?.toString(),
    });
    // A fetch answers what the partition holds: under load, many messages at once. They are
    // handled in lots (consumeInLots: MAX_BATCH_MESSAGES at a time through the batch handler,
    // a failing message retried in place, heartbeats meanwhile). Offsets are resolved as
    // messages are done, so a rebalance or a stop in the middle hands over only the rest.
    const committer = new OffsetCommitter(OFFSET_COMMIT_INTERVAL_MS, (error) =>
      log.warn({ err: error }, 'offset commit failed; the next one carries these offsets'),
    );
    this.committers.set(consumer, committer);
    await consumer.run({
      // Offsets are committed by `committer`, not after every batch (OFFSET_COMMIT_INTERVAL_MS).
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitions,
      eachBatch: async ({
        batch,
        resolveOffset,
        heartbeat,
        isRunning,
        isStale,
        commitOffsetsIfNecessary,
        uncommittedOffsets,
      }) => {
        const messages = batch.messages.map((m) => consumed(batch.topic, batch.partition, m));
        await consumeInLots(messages, {
          handler,
          batchHandler,
          running: () => !this.closing && isRunning() && !isStale(),
          handled: (message) => resolveOffset(message.offset),
          pause: async () => {
            await heartbeat();
            await committer.resolved(() => commitOffsetsIfNecessary(uncommittedOffsets()));
          },
          log,
        });
      },
    });
  }

  /** Readiness: one metadata round trip on a connection kept open for it. */
  async ping(): Promise<void> {
    await (await this.admin()).describeCluster();
  }

  private async admin(): Promise<Admin> {
    if (!this.pingAdmin) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.pingAdmin = admin;
    }
    return this.pingAdmin;
  }

  /**
   * The consumer lag of this process's groups (names without the prefix): per partition, the
   * high watermark minus the group's committed offset (a partition the group never committed
   * counts from the low watermark, since groups start from the beginning). Two admin round
   * trips per topic and group, so it is read when Prometheus scrapes, not on the hot path.
   */
  async lag(): Promise<{ group: string; topic: string; partition: number; lag: number }[]> {
    const admin = await this.admin();
    const rows: { group: string; topic: string; partition: number; lag: number }[] = [];
    for (const { groupId, topics } of this.subscriptions) {
      const committed = await admin.fetchOffsets({
        groupId: this.topic(groupId),
        topics: topics.map((t) => this.topic(t)),
      });
      for (const { topic, partitions } of committed) {
        const ends = await admin.fetchTopicOffsets(topic);
        for (const end of ends) {
          const offset = Number(partitions.find((p) => p.partition === end.partition)?.offset ?? -1);
          const from = offset >= 0 ? offset : Number(end.low);
          rows.push({
            group: groupId,
            topic: topic.slice((this.options.topicPrefix ?? '').length),
            partition: end.partition,
            lag: Math.max(0, Number(end.high) - from),
          });
        }
      }
    }
    return rows;
  }

  async close(): Promise<void> {
    this.closing = true;
    // Stopped first (the batch in hand finishes), then what they handled is committed, so a
    // clean stop hands the group over without redeliveries.
    await Promise.allSettled(
      this.consumers.map(async (c) => {
        await c.stop();
        await this.committers.get(c)?.close();
        await c.disconnect();
      }),
    );
    await this.producer?.disconnect();
    await this.pingAdmin?.disconnect();
  }
}
