// The event bus the services talk over. Two transports implement it with the same
// semantics: at-least-once delivery, per-key order within a consumer group.
//   - KafkaBus (kafkajs): production.
//   - EmbeddedBus: a durable log in the embedded database, for the one-process default.
// Services see only this interface, so the Kafka client can be swapped without touching them.

import type { Logger } from '../logging';

export interface BusMessage {
  key: string;
  value: string;
  /**
   * The W3C traceparent of the publish (tracing on only): a Kafka header, so the consumer's
   * span continues the trace. The embedded bus does not keep it.
   */
  traceparent?: string;
}

export interface ConsumedMessage extends BusMessage {
  topic: string;
  partition: number;
  offset: string;
}

export type MessageHandler = (message: ConsumedMessage) => Promise<void>;

/**
 * What a batch handler did: the first `handled` messages have had their effect (committed);
 * when that is fewer than it was given, `error` is why the next one failed.
 */
export interface BatchOutcome {
  handled: number;
  error?: unknown;
}

/**
 * Handles consecutive messages of one partition, in order, as one database commit where it
 * can, and stops at the first message that fails, keeping the effects of those before it.
 */
export type BatchHandler = (messages: ConsumedMessage[]) => Promise<BatchOutcome>;

export interface Subscription {
  groupId: string;
  topics: readonly string[];
  handler: MessageHandler;
  /**
   * Optional: a transport that fetches several messages at once (Kafka) hands up to
   * MAX_BATCH_MESSAGES of them here. The message a batch stopped at is retried in place
   * through `handler`, as a failing message always is (its failure in the batch counts as
   * the first attempt), then batching goes on after it. A batch that throws (its commit
   * failed) had no effect the inbox does not know of: its messages go through `handler`.
   * The embedded bus hands what one read of its log returns the same way.
   */
  batchHandler?: BatchHandler;
  /**
   * A consumer that may lag this long (a projection, such as the customer directory): the
   * Kafka broker holds each fetch up to this many milliseconds to gather messages, so one
   * fetch and one offset commit serve many messages instead of one each. Absent: a fetch
   * returns as soon as one message is there (the latency-bound default). The embedded bus,
   * whose reads are local queries, ignores it.
   */
  fetchWindowMs?: number;
}

export interface EventBus {
  readonly transport: 'kafka' | 'embedded' | 'none';
  connect(): Promise<void>;
  /** Resolves once every message is durably accepted (acks=all for Kafka). Order is kept. */
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  /**
   * Starts consuming. The handler is retried until it succeeds: messages are never skipped.
   * Resolves once the subscription is registered; Kafka joins the group in the background.
   */
  subscribe(subscription: Subscription): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The most messages one batch handles: a batch is one database transaction, and what it
 * locks (a numbering counter, say) stays locked until its last message is handled.
 */
export const MAX_BATCH_MESSAGES = 25;

export function backoffMs(attempt: number, capMs = 30_000): number {
  return Math.min(capMs, 100 * 2 ** Math.min(attempt, 12)) * (0.5 + Math.random() / 2);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How a transport runs `consumeInLots` over what it read. */
export interface LotConsumer {
  handler: MessageHandler;
  batchHandler?: BatchHandler;
  /** False once consuming must stop (closing, a rebalance): what is not handled stays unread. */
  running(): boolean;
  /** The messages read up to and including this one have had their effect (Kafka: resolve its offset). */
  handled?(message: ConsumedMessage): void;
  /** After each lot and between two attempts at a failing message (Kafka: heartbeat, offset commit). */
  pause?(): Promise<void>;
  log: Pick<Logger, 'warn' | 'error'>;
}

/**
 * Consumes consecutive messages of one partition as both transports do (a Kafka fetch, a read
 * of the embedded log): MAX_BATCH_MESSAGES at a time through `batchHandler` (without one, or
 * for a lone message, through `handler`). The message a lot stopped at is retried in place
 * through `handler`, its failure in the lot counting as its first attempt, then lots go on
 * after it; a lot that throws (its commit failed) has its messages handled one at a time.
 * A failing message blocks the partition (per-key order) instead of being skipped.
 * Resolves true once every message is handled, false if consuming stopped first.
 */
export async function consumeInLots(messages: ConsumedMessage[], lots: LotConsumer): Promise<boolean> {
  let next = 0;
  while (next < messages.length) {
    if (!lots.running()) return false;
    const lot = messages.slice(next, next + MAX_BATCH_MESSAGES);
    let outcome: BatchOutcome = { handled: 0 };
    if (lots.batchHandler && lot.length > 1) {
      try {
        outcome = await lots.batchHandler(lot);
      } catch (error) {
        if (!lots.running()) return false;
        lots.log.warn(
          { err: error, topic: lot[0].topic, partition: lot[0].partition, offset: lot[0].offset },
          'batch failed; handling its messages one at a time',
        );
      }
    }
    next += outcome.handled;
    if (outcome.handled) lots.handled?.(lot[outcome.handled - 1]);
    if (outcome.handled < lot.length) {
      const failed = 'error' in outcome ? { error: outcome.error } : undefined;
      if (!(await retryInPlace(messages[next], lots, failed))) return false;
      lots.handled?.(messages[next]);
      next++;
    }
    await lots.pause?.();
  }
  return true;
}

/** Handles `message` until it succeeds (true) or consuming stops (false). */
async function retryInPlace(
  message: ConsumedMessage,
  lots: LotConsumer,
  failed?: { error: unknown },
): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    let error: unknown;
    if (attempt === 0 && failed) error = failed.error;
    else {
      try {
        await lots.handler(message);
        return true;
      } catch (thrown) {
        error = thrown;
      }
    }
    if (!lots.running()) return false;
    lots.log.error(
      { err: error, topic: message.topic, partition: message.partition, offset: message.offset, attempt },
      'message handler failed; retrying',
    );
    await sleep(backoffMs(attempt));
    await lots.pause?.();
  }
}
