// Idempotent consumers: each message's effect and the record that it was handled (the inbox
// row) commit in one transaction, so a redelivered message changes nothing the second time.

import type { ConsumedMessage, EventBus } from '../bus/bus';
import type { Database, Tx } from '../db/database';
import type { Logger } from '../logging';
import { inSpan, SpanKind, tracingEnabled } from '../observability/tracing';
import type { Counter } from 'prom-client';

export interface Envelope {
  id: string;
  type: string;
  account: string;
  livemode: boolean;
}

export type EnvelopeHandler<E extends Envelope> = (message: E, tx: Tx) => Promise<void>;

/**
 * What one message does: its effect runs `inTransaction`, the transaction that records the
 * message in the inbox (the default: effect and "handled" commit together), or, for an
 * effect that must call out between transactions (a processor charge), in
 * `ownTransactions`, which claim the inbox themselves (claimInbox in the first one).
 */
export type InboxDelivery =
  { inTransaction: (tx: Tx) => Promise<void> } | { ownTransactions: () => Promise<void> };

/** The effect of a message for one consumer, or undefined when it has none (acknowledged). */
export type InboxRouter<E extends Envelope> = (
  envelope: E,
  message: ConsumedMessage,
) => InboxDelivery | undefined;

/** A message ready to handle: its envelope and what it does for this consumer. */
interface Prepared<E extends Envelope> {
  message: ConsumedMessage;
  envelope: E;
  delivery: InboxDelivery;
}

/**
 * How far a lot of a batch went: messages taken (handled, already handled or dropped), and
 * the effect that ended it; `aborted`: that effect ran without a savepoint (the lot's first,
 * or any effect of a lot run unguarded), so its failure took the whole transaction (nothing
 * of the lot committed); `replay`: it was not the lot's first, so the messages before it run
 * again, guarded, and it is retried in place.
 */
interface Lot {
  size: number;
  failure?: { error: unknown; aborted: boolean; replay: boolean };
}

/** Records `messageId` for `consumer`; false when it was already handled. */
export async function claimInbox(tx: Tx, consumer: string, messageId: string): Promise<boolean> {
  const rows = await tx.query(
    `insert into ${tx.schema}.inbox (consumer, message_id) values ($1, $2) on conflict do nothing returning message_id`,
    [consumer, messageId],
  );
  return rows.length === 1;
}

/**
 * Records every id of `messageIds` (distinct) for `consumer` in one statement; answers those
 * that were new. A lot's rows, one statement for the lot instead of one per message (issue 15).
 */
async function claimInboxRows(tx: Tx, consumer: string, messageIds: string[]): Promise<Set<string>> {
  const rows = await tx.query<{ message_id: string }>(
    `insert into ${tx.schema}.inbox (consumer, message_id) select $1, unnest($2::text[]) on conflict do nothing returning message_id`,
    [consumer, messageIds],
  );
  return new Set(rows.map((row) => row.message_id));
}

/** Takes back rows this transaction claimed (claimInboxRows) for messages it did not handle. */
async function releaseInboxRows(tx: Tx, consumer: string, messageIds: string[]): Promise<void> {
  await tx.query(`delete from ${tx.schema}.inbox where consumer = $1 and message_id = any($2::text[])`, [
    consumer,
    messageIds,
  ]);
}

export class InboxConsumer {
  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    /** Counts failed handlings (each is retried by the bus); absent in unit set-ups. */
    private readonly metrics?: { retries: Counter<'service' | 'consumer'>; service: string },
  ) {}

  /**
   * Subscribes `consumer` (also the consumer group id) to `topics`. The handler runs inside
   * the transaction that records the message in the inbox.
   */
  async subscribe<E extends Envelope>(
    consumer: string,
    topics: readonly string[],
    handle: EnvelopeHandler<E>,
  ): Promise<void> {
    await this.route<E>(consumer, topics, (envelope) => ({ inTransaction: (tx) => handle(envelope, tx) }));
  }

  /**
   * Subscribes `consumer` to `topics`, asking `router` what each message's effect is (the
   * Nest transport, InboxTransport, routes by topic and event type to `@EventPattern`
   * handlers). A message the router has no effect for is acknowledged without an inbox row.
   * A failing effect throws to the bus, which retries it in place (the partition waits).
   * `fetchWindowMs`: the lag the consumer tolerates, traded for fewer fetches (Subscription).
   */
  async route<E extends Envelope>(
    consumer: string,
    topics: readonly string[],
    router: InboxRouter<E>,
    options: { fetchWindowMs?: number } = {},
  ): Promise<void> {
    const log = this.logger.child({ component: 'consumer', consumer });
    // The series exists from the start (0), so a rate or an alert has something to read.
    this.metrics?.retries.inc({ service: this.metrics.service, consumer }, 0);
    // What a message does, or undefined for one that is dropped or has no effect here.
    const prepare = (message: ConsumedMessage): Prepared<E> | undefined => {
      let envelope: E;
      try {
        envelope = JSON.parse(message.value) as E;
      } catch {
        log.error({ topic: message.topic, offset: message.offset }, 'dropping a message that is not JSON');
        return undefined;
      }
      if (typeof envelope?.id !== 'string') {
        log.error({ topic: message.topic, offset: message.offset }, 'dropping a message without an id');
        return undefined;
      }
      const delivery = router(envelope, message);
      return delivery ? { message, envelope, delivery } : undefined;
    };
    // The inbox row and the effect, in `tx`: nothing when the message was handled before.
    const inTx = async (tx: Tx, { envelope, delivery }: Prepared<E>) => {
      if (!(await claimInbox(tx, consumer, envelope.id))) return;
      if ('inTransaction' in delivery) await delivery.inTransaction(tx);
    };
    // A message published in a traced request: its handling is a consumer span of that
    // trace, active while the handler writes (a webhook delivery row keeps it).
    const traced = <T>({ message, envelope }: Prepared<E>, work: () => Promise<T>): Promise<T> =>
      message.traceparent && tracingEnabled()
        ? inSpan(
            `consume ${message.topic}`,
            SpanKind.CONSUMER,
            message.traceparent,
            {
              'messaging.system': this.bus.transport,
              'messaging.destination.name': message.topic,
              'messaging.consumer.group.name': consumer,
              'paygrid.event_id': envelope.id,
            },
            work,
          )
        : work();
    // A lot: the in-transaction messages of prepared[from..] in `tx`, up to the first message
    // with transactions of its own. Their inbox rows are claimed in one statement; then the
    // effect of each message that was new, the first as is (its failure rolls the transaction
    // back) and each later one under a savepoint, so one that fails is rolled back alone and
    // the lot ends before it. The rows claimed for that message and for the ones after it,
    // which the lot no longer reaches, are deleted before the commit: a row that commits says
    // its effect did. Before, each message's row was a statement of its own, sent with its
    // savepoint: a lot of n messages sent n inbox statements, now 1. Under the checkout's load
    // (bench/probe-messages.mjs, lots of about five) invoicing's and webhooks' inbox
    // statements per event fell from 1.0 to 0.22 each (pg_stat_statements).
    //
    // A lot runs unguarded first: no savepoint at all (0.79 savepoints per event and consumer
    // under the checkout's load, each a round trip and a subtransaction: bench/README.md
    // finding 57). When an effect after the first fails there, the whole transaction rolls
    // back; the messages before the failing one run again, `guarded` as above and `until` it,
    // and commit; the failing one is then retried in place, its failure counted as its first
    // attempt. What commits is what the guarded lot committed; the effects before the failing
    // one ran twice, the first time in a transaction that did not commit (effects write only in
    // `tx`; what they publish or ask after the commit lives in `tx` and goes with it).
    const runLot = async (
      tx: Tx,
      prepared: (Prepared<E> | undefined)[],
      from: number,
      lot: Lot,
      guarded: boolean,
      until = prepared.length,
    ) => {
      // Again from the start if the Database retries the transaction (deadlock): nothing of
      // the earlier attempt, claims included, is left.
      lot.size = 0;
      lot.failure = undefined;
      // Each id's claim belongs to its first message in the lot; a later one with the same id
      // (a redelivery inside the fetch) has no effect of its own.
      const owner = new Map<string, number>();
      let end = from;
      for (; end < until; end++) {
        const next = prepared[end];
        if (!next) continue;
        if (!('inTransaction' in next.delivery)) break;
        if (!owner.has(next.envelope.id)) owner.set(next.envelope.id, end);
      }
      const claimed = await claimInboxRows(tx, consumer, [...owner.keys()]);
      let first = true;
      for (let i = from; i < end; i++, lot.size++) {
        const next = prepared[i];
        if (!next || owner.get(next.envelope.id) !== i || !claimed.has(next.envelope.id)) continue;
        const delivery = next.delivery as { inTransaction: (tx: Tx) => Promise<void> };
        if (first || !guarded) {
          try {
            await traced(next, () => delivery.inTransaction(tx));
          } catch (error) {
            lot.failure = { error, aborted: true, replay: !first };
            throw error;
          }
          first = false;
          continue;
        }
        const step = await tx.savepoint(`inbox_message_${lot.size}`);
        try {
          await traced(next, () => delivery.inTransaction(tx));
        } catch (error) {
          lot.failure = { error, aborted: false, replay: false };
          await step.rollback();
          const unhandled = [...owner].filter(([id, at]) => at >= i && claimed.has(id)).map(([id]) => id);
          await releaseInboxRows(tx, consumer, unhandled);
          return;
        }
      }
    };
    const run = (prepared: Prepared<E>) =>
      traced(prepared, () =>
        'inTransaction' in prepared.delivery
          ? this.db.transaction((tx) => inTx(tx, prepared))
          : prepared.delivery.ownTransactions(),
      );
    await this.bus.subscribe({
      groupId: consumer,
      topics,
      ...(options.fetchWindowMs ? { fetchWindowMs: options.fetchWindowMs } : {}),
      handler: async (message) => {
        const prepared = prepare(message);
        if (!prepared) return;
        try {
          await run(prepared);
        } catch (error) {
          this.metrics?.retries.inc({ service: this.metrics.service, consumer });
          throw error;
        }
      },
      // Consecutive in-transaction effects share one transaction (one commit and one inbox
      // statement for the lot: runLot), unguarded; when a message fails, the messages before
      // it run again guarded (each effect after the first under a savepoint) and commit, and the
      // bus retries it in place. An effect with transactions of its own runs between lots, alone.
      batchHandler: async (messages) => {
        const prepared = messages.map(prepare);
        let handled = 0;
        const failed = (error: unknown) => {
          this.metrics?.retries.inc({ service: this.metrics.service, consumer });
          return { handled, error };
        };
        while (handled < messages.length) {
          const first = prepared[handled];
          if (!first) {
            handled++;
            continue;
          }
          if (!('inTransaction' in first.delivery)) {
            try {
              await run(first);
            } catch (error) {
              return failed(error);
            }
            handled++;
            continue;
          }
          const lot: Lot = { size: 0 };
          try {
            try {
              await this.db.transaction((tx) => runLot(tx, prepared, handled, lot, false));
            } catch (error) {
              // An effect after the lot's first failed, unguarded: nothing committed. The
              // messages before it again (guarded), then it is retried in place.
              const failure = lot.failure;
              if (!failure?.replay) throw error;
              const failing = handled + lot.size;
              await this.db.transaction((tx) => runLot(tx, prepared, handled, lot, true, failing));
              lot.failure ??= { error: failure.error, aborted: false, replay: false };
            }
          } catch (error) {
            // The lot's first effect failed: nothing committed, and the messages before it
            // had been handled already (or had no effect here). Otherwise the claim, a
            // rollback or the commit failed: nothing of the lot committed either, and the bus
            // handles its messages one at a time.
            if (lot.failure?.aborted) {
              handled += lot.size;
              return failed(lot.failure.error);
            }
            throw error;
          }
          handled += lot.size;
          if (lot.failure) return failed(lot.failure.error);
        }
        return { handled };
      },
    });
  }

  /** Forgets handled ids older than `days` (redeliveries come within minutes, not weeks). */
  async prune(days = 30): Promise<void> {
    await this.db.query(
      `delete from ${this.db.schema}.inbox where handled_at < now() - make_interval(days => $1)`,
      [days],
    );
  }
}
