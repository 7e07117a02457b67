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

export interface Subscription {
  groupId: string;
  topics: readonly string[];
  handler: MessageHandler;
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

export function backoffMs(attempt: number, capMs = 30_000): number {
  return Math.min(capMs, 100 * 2 ** Math.min(attempt, 12)) * (0.5 + Math.random() / 2);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
