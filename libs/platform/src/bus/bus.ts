// The event bus the services talk over. Two transports implement it with the same
// semantics: at-least-once delivery, per-key order within a consumer group.
//   - KafkaBus (kafkajs): production.
//   - EmbeddedBus: a durable log in the embedded database, for the one-process default.
// Services see only this interface, so the Kafka client can be swapped without touching them.

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
