// The messaging layer as NestJS sees it (docs/adr/0002): a custom transport strategy over the
// platform's EventBus, so every consumer is an `@EventPattern` handler in a Nest controller,
// on Kafka and on the embedded bus alike. The guarantees stay where they were proven
// (docs/adr/0004): InboxConsumer runs each handler inside the transaction that records the
// message in the inbox (effects happen once), and the bus retries a failing message in place,
// blocking its partition (per-key order, nothing skipped). Nest's own Kafka transport does
// neither: it commits offsets whatever the handler did, and has no embedded counterpart.
//
//   @InboxController()
//   export class PaymentsFeedConsumer {
//     @EventPattern(inboxPattern('invoicing.payments-feed', TOPICS.paymentsEvents))
//     handle(@Payload() event: EventEnvelope, @Ctx() inbox: InboxContext) {
//       return recordPayment(event, inbox.tx);
//     }
//   }
//
// A pattern names the consumer (its consumer group and inbox name), the topic, and optionally
// one event type. The consumer's handlers are gathered into one subscription per consumer.

import { applyDecorators, Catch, Controller, UseFilters, type RpcExceptionFilter } from '@nestjs/common';
import {
  BaseRpcContext,
  Server,
  type CustomTransportStrategy,
  type MessageHandler,
} from '@nestjs/microservices';
import { lastValueFrom, throwError, type Observable } from 'rxjs';
import type { ConsumedMessage } from '../bus/bus';
import type { Tx } from '../db/database';
import type { Envelope, InboxConsumer, InboxDelivery } from '../outbox/consumer';

export interface InboxPattern {
  /** The consumer group, and the name its handled messages are recorded under in the inbox. */
  consumer: string;
  topic: string;
  /** Only this event (or command) type; absent: every message of the topic. */
  event?: string;
}

export function inboxPattern(consumer: string, topic: string, event?: string): InboxPattern {
  return event === undefined ? { consumer, topic } : { consumer, topic, event };
}

/** One consumer reading several topics with one handler (`@EventPattern` takes the array). */
export function inboxPatterns(consumer: string, topics: readonly string[]): InboxPattern[] {
  return topics.map((topic) => inboxPattern(consumer, topic));
}

/**
 * The `@EventPattern` extras of a handler whose effect calls out between transactions (a
 * processor charge must not run inside one): it gets no transaction and claims the inbox
 * itself (`claimInbox`) in its first transaction, so a redelivery is still recognised.
 */
export const OWN_TRANSACTIONS = { ownTransactions: true } as const;

/**
 * The `@EventPattern` extras of a consumer that may lag by up to `ms`: its Kafka fetches
 * gather messages for up to that long (Subscription.fetchWindowMs), one fetch and one offset
 * commit for many messages. For projections that read a busy topic for a few of its types.
 * Every handler of the consumer gives the same window (checked at start).
 */
export const fetchWindow = (ms: number) => ({ fetchWindowMs: ms }) as const;

/**
 * A projection's window: 200 ms of lag, at most five fetches a second per consumer however
 * busy the topic (the customer directory waits up to 5 s for an id it does not know yet).
 */
export const PROJECTION = fetchWindow(200);

/** The `@Ctx()` of an inbox handler: the bus message, the consumer and the inbox transaction. */
export class InboxContext extends BaseRpcContext<[ConsumedMessage, string, Tx | undefined]> {
  get message(): ConsumedMessage {
    return this.args[0];
  }

  get consumer(): string {
    return this.args[1];
  }

  /** The transaction that records the message in the inbox; commit and effect are one. */
  get tx(): Tx {
    const tx = this.args[2];
    if (!tx)
      throw new Error(`consumer ${this.consumer} runs with OWN_TRANSACTIONS: it has no inbox transaction`);
    return tx;
  }
}

/**
 * Nest's default RPC filter replaces any error by `{ status: 'error', message }`; this one
 * hands the handler's own error back to the transport, so the bus logs the real cause of each
 * retry. Applied by `@InboxController()`: a hybrid app's microservice is initialised when it
 * is connected, too late for `useGlobalFilters`.
 */
@Catch()
export class InboxErrorFilter implements RpcExceptionFilter {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}

/** A consumer controller: `@EventPattern(inboxPattern(...))` handlers, no HTTP routes. */
export const InboxController = () => applyDecorators(Controller(), UseFilters(InboxErrorFilter));

export const INBOX_TRANSPORT = Symbol('paygrid.inbox');

interface TopicRoutes {
  /** The handler of every message of the topic, or */
  all?: MessageHandler;
  /** one handler per event type (the others are acknowledged without effect). */
  byEvent: Map<string, MessageHandler>;
}

export class InboxTransport extends Server implements CustomTransportStrategy {
  override readonly transportId = INBOX_TRANSPORT;

  constructor(private readonly inbox: InboxConsumer) {
    super();
  }

  /** Subscribes each consumer named by the `@EventPattern`s of the app's controllers. */
  listen(callback: (error?: unknown) => void): void {
    this.subscribeAll().then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  private async subscribeAll(): Promise<void> {
    const windows = new Map<string, number | undefined>();
    for (const [consumer, topics] of this.routesByConsumer(windows)) {
      const fetchWindowMs = windows.get(consumer);
      await this.inbox.route<Envelope>(
        consumer,
        [...topics.keys()],
        (envelope, message) => this.delivery(consumer, topics.get(message.topic), envelope, message),
        fetchWindowMs ? { fetchWindowMs } : {},
      );
    }
  }

  /**
   * The app's handlers grouped by consumer, then topic, and each consumer's fetch window into
   * `windows`; a pattern of another shape, or two windows for one consumer, fails the start.
   */
  private routesByConsumer(windows: Map<string, number | undefined>): Map<string, Map<string, TopicRoutes>> {
    const consumers = new Map<string, Map<string, TopicRoutes>>();
    for (const [route, handler] of this.getHandlers()) {
      const pattern = parsePattern(route);
      if (!pattern) {
        throw new Error(
          `@EventPattern(${route}) is not an inbox pattern: use inboxPattern(consumer, topic, event?)`,
        );
      }
      if (!handler.isEventHandler) {
        throw new Error(
          `@MessagePattern(${route}): the bus carries events and commands one way, never replies`,
        );
      }
      const window = handler.extras?.fetchWindowMs as number | undefined;
      if (windows.has(pattern.consumer) && windows.get(pattern.consumer) !== window) {
        throw new Error(
          `consumer ${pattern.consumer} has handlers with different fetch windows: give each the same`,
        );
      }
      windows.set(pattern.consumer, window);
      const topics = consumers.get(pattern.consumer) ?? new Map<string, TopicRoutes>();
      consumers.set(pattern.consumer, topics);
      const routes: TopicRoutes = topics.get(pattern.topic) ?? { byEvent: new Map() };
      topics.set(pattern.topic, routes);
      if (pattern.event === undefined) routes.all = handler;
      else routes.byEvent.set(pattern.event, handler);
      // One rule per topic and consumer, so no event is handled twice or silently skipped.
      if (routes.all && routes.byEvent.size) {
        throw new Error(
          `consumer ${pattern.consumer} has a handler for every message of ${pattern.topic} and handlers per event: keep one`,
        );
      }
    }
    return consumers;
  }

  private delivery(
    consumer: string,
    routes: TopicRoutes | undefined,
    envelope: Envelope,
    message: ConsumedMessage,
  ): InboxDelivery | undefined {
    const handler = routes?.all ?? routes?.byEvent.get(envelope.type);
    if (!handler) return undefined;
    if (handler.extras?.ownTransactions) {
      return {
        ownTransactions: () =>
          this.invoke(handler, envelope, new InboxContext([message, consumer, undefined])),
      };
    }
    return {
      inTransaction: (tx) => this.invoke(handler, envelope, new InboxContext([message, consumer, tx])),
    };
  }

  /** Runs the Nest handler (pipes, interceptors, filters) and settles with its outcome. */
  private async invoke(handler: MessageHandler, envelope: Envelope, context: InboxContext): Promise<void> {
    await lastValueFrom(this.transformToObservable(await handler(envelope, context)), {
      defaultValue: undefined,
    });
  }

  /** Consumption ends when the runtime closes the bus (after the app), as for any bus user. */
  close(): void {}

  on(): never {
    throw new Error('InboxTransport has no events to listen to');
  }

  unwrap<T>(): T {
    return this.inbox as T;
  }
}

function parsePattern(route: string): InboxPattern | undefined {
  let value: unknown;
  try {
    value = JSON.parse(route);
  } catch {
    return undefined;
  }
  const { consumer, topic, event, ...rest } = (value ?? {}) as Record<string, unknown>;
  if (typeof consumer !== 'string' || typeof topic !== 'string' || Object.keys(rest).length) return undefined;
  if (event !== undefined && typeof event !== 'string') return undefined;
  return inboxPattern(consumer, topic, event);
}
