// Processor webhooks in (docs/api.md Part 2, processor webhooks; docs/connectors.md): the
// event is verified with its connection's signing secret (the processor's own rules, e.g.
// connectors/stripe/stripe-webhooks.ts), stored once per connection and processor event id,
// and applied in the same transaction as the store, so a redelivery (or two deliveries at
// once: the unique index makes the second wait, then insert nothing) applies nothing twice.
//
// What each kind of event may change, and why it is safe in any order:
//   payment  -> the intent saga's guarded `record` (TransactionsService.recordLateIn, which
//               also completes the payment's link): a pending intent settles once, a settled
//               one is never changed (succeeded after failed, or the reverse, does nothing).
//               An intent still inside its caller's window (the connector call may be in
//               flight) is left to the caller, whose own tx2 runs effects a webhook cannot
//               (a saved card's mandate, the link's counters): the event is refused with 409
//               resource_busy and not stored, and the processor delivers it again later.
//   refund   -> the refund's own guarded tx2 (RefundsService.recordOutcome), complete in itself.
//   dispute  -> DisputesService.apply (transitions in disputes/dispute.ts); a dispute of a
//               payment we have not recorded as succeeded is refused the same way, to come back.
// Anything else is stored and otherwise ignored.

import { ApiError, newId, type Clock, type Database, type Logger, type Tx } from '@paygrid/platform';
import { WebhookSignatureError, type ProcessorEvent } from '../connectors/processor';
import type { DisputesService } from '../disputes/disputes.service';
import type { WebhookConnection } from '../processor-connections/processor-connections.service';
import type { RefundsService } from '../refunds/refunds.service';
import type { TransactionRow } from '../transactions/transaction';
import type { TransactionsService } from '../transactions/transactions.service';

const CONNECTION_ID = /^pcon_[0-9A-Za-z]{8,64}$/;

/**
 * How long after its creation a pending intent still belongs to its caller: more than the
 * connector's worst case (a one-off charge makes up to three calls of 3 x 20 s,
 * connectors/stripe/stripe.processor.ts), less than the recovery's 5 minutes.
 */
export const IN_FLIGHT_MS = 4 * 60 * 1000;

export interface ReceivedEvent {
  received: true;
  id: string;
  type: string;
  duplicate: boolean;
  outcome: string;
}

export interface ProcessorEventsDeps {
  db: Database;
  clock: Clock;
  /** Records a payment's verdict once, completing its link on success (recordLate). */
  transactions: Pick<TransactionsService, 'recordLateIn'>;
  connections: { forWebhook(id: string): Promise<WebhookConnection | undefined> };
  refunds: Pick<RefundsService, 'recordOutcome'>;
  disputes: Pick<DisputesService, 'apply'>;
  logger: Logger;
}

const refused = () =>
  new ApiError(
    'webhook_signature_invalid',
    "The webhook's signature does not verify with its connection's signing secret, or no such connection exists.",
  );

const notYet = (what: string) =>
  new ApiError('resource_busy', `${what}; this event was not stored, deliver it again later.`, undefined, {
    headers: { 'retry-after': '60' },
  });

export class ProcessorEventsService {
  constructor(private readonly deps: ProcessorEventsDeps) {}

  async receive(
    processor: string,
    connectionId: string,
    rawBody: Buffer | undefined,
    headers: Readonly<Record<string, string | undefined>>,
  ): Promise<ReceivedEvent> {
    const connection = CONNECTION_ID.test(connectionId)
      ? await this.deps.connections.forWebhook(connectionId)
      : undefined;
    if (!connection || connection.row.processor !== processor || !rawBody) throw refused();
    let event: ProcessorEvent;
    try {
      event = connection.processor.parseWebhook(
        rawBody,
        headers,
        connection.credentials,
        this.deps.clock.now(),
      );
    } catch (error) {
      if (!(error instanceof WebhookSignatureError)) throw error;
      // The reason (no matching signature, too old) helps the operator; never the secret.
      this.deps.logger.warn({ connection: connectionId, reason: error.message }, 'processor webhook refused');
      throw refused();
    }
    const { row } = connection;
    return this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      const [stored] = await tx.query<{ id: string }>(
        `insert into payments.processor_events (id, connection_id, account_id, livemode, processor, processor_event_id,
           type, outcome, processor_created_at, received_at)
         values ($1, $2, $3, $4, $5, $6, $7, 'received', $8, $9)
         on conflict (connection_id, processor_event_id) do nothing returning id`,
        [
          newId('pevt'),
          row.id,
          row.account_id,
          row.livemode,
          row.processor,
          event.id,
          event.type,
          event.created,
          now,
        ],
      );
      if (!stored)
        return { received: true, id: event.id, type: event.type, duplicate: true, outcome: 'duplicate' };
      const outcome = await this.apply(
        tx,
        { connection: row.id, account: row.account_id, livemode: row.livemode },
        event,
        now,
      );
      await tx.query('update payments.processor_events set outcome = $2 where id = $1', [stored.id, outcome]);
      return { received: true, id: event.id, type: event.type, duplicate: false, outcome };
    });
  }

  private async apply(
    tx: Tx,
    source: { connection: string; account: string; livemode: boolean },
    event: ProcessorEvent,
    now: Date,
  ): Promise<string> {
    switch (event.kind) {
      case 'payment': {
        const [payment] = await tx.query<TransactionRow>(
          `select * from payments.transactions where id = $1 and account_id = $2 and livemode = $3 and type = 'payment'`,
          [event.intent, source.account, source.livemode],
        );
        // Not ours (another installation on the same processor account, or the other mode).
        if (!payment) return 'ignored_unknown_payment';
        // A payment left requires_action (a payer who authenticated but never came back) is
        // settled by the processor's word too; a final one never changes.
        if (payment.status !== 'pending' && payment.status !== 'requires_action') return 'unchanged';
        if (now.getTime() - new Date(payment.created_at).getTime() < IN_FLIGHT_MS) {
          throw notYet('The payment is still being recorded by its own request');
        }
        const recorded = await this.deps.transactions.recordLateIn(
          tx,
          payment.id,
          event.outcome === 'succeeded'
            ? {
                status: 'succeeded',
                processor_reference: event.processor_reference,
                ...(event.credential ? { credential: event.credential } : {}),
              }
            : {
                status: 'failed',
                code: event.failure?.code ?? 'processing_error',
                message: event.failure?.message ?? 'The processor did not make the payment.',
                processor_reference: event.processor_reference,
              },
        );
        return recorded.status === payment.status ? 'unchanged' : `payment_${recorded.status}`;
      }
      case 'refund': {
        const moved = await this.deps.refunds.recordOutcome(tx, source, event.refund, {
          ...(event.outcome === 'succeeded'
            ? { status: 'succeeded', processor_reference: event.processor_reference }
            : {
                status: 'failed',
                code: 'processing_error',
                message: event.message ?? 'The processor did not make the refund.',
                processor_reference: event.processor_reference,
              }),
        });
        return moved;
      }
      case 'dispute': {
        const outcome = await this.deps.disputes.apply(tx, source, event.dispute, now);
        if (outcome === 'payment_not_recorded')
          throw notYet('The disputed payment is not recorded as succeeded yet');
        return `dispute_${outcome}`;
      }
      default:
        return 'ignored';
    }
  }
}
