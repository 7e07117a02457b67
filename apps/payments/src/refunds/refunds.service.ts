// Refunds: full or partial, several per payment, only on succeeded payments, and never more
// than the payment even under concurrent requests.
//
// Why one guarded UPDATE (reliability notes section 2): two requests that read the remainder
// and then write would both see "1000 left" and both refund it. The statement
//   update transactions set amount_refunded = amount_refunded + $x
//    where ... and amount_refunded + $x <= amount returning ...
// checks and reserves in one step under the row lock Postgres takes for the UPDATE; the
// second request re-evaluates the WHERE after the first commits and gets 0 rows (422).
// The CHECK (amount_refunded between 0 and amount) backs it in the schema. An open or lost
// dispute holds its amount back (amount_disputed, set under the same row lock by
// disputes/disputes.service.ts), so a refund and a dispute opening at once cannot together
// give back more than the payment: whichever commits second sees the other's amount.
//
// Flow (the intent saga, intents/intent-saga.ts, like charges): tx1 reserves the amount and
// writes the pending refund and its refund transaction (+ refund.created); the connector call
// runs outside any transaction (idempotency key = refund id); tx2 records success (ledger
// entries, refund.succeeded) or failure (releases the reservation, refund.failed).

import { TOPICS, type Refund } from '@paygrid/contracts';
import {
  ApiError,
  type Clock,
  type Database,
  emitRowEvent,
  findOwned,
  iso,
  type ListQuery,
  minorToJson,
  newId,
  paginateOwned,
  PG,
  pgCode,
  toMinor,
  type Tx,
  type Tenant,
} from '@paygrid/platform';
import type { PaymentConnector, RefundOutcome } from '../connectors/connector';
import type { ConnectorRouter } from '../connectors/connector-router';
import { assertOutsideTransaction, IntentSaga, type FinalOutcome } from '../intents/intent-saga';
import { refundableAmount, type TransactionRow } from '../transactions/transaction';
import {
  exceeds,
  inProgress,
  notRefundable,
  type CreateRefundInput,
  type PaymentReference,
  type RefundIdempotency,
  type RefundRow,
} from './refund';
import { reverseRefund } from './refund-reversal';
import {
  acceptedByProcessor,
  deferRefundCheck,
  markRefundAccepted,
  refundById,
  releaseReservation,
  reserveAmount,
  settleRefund,
  settledRefund,
  staleRefunds,
  type StaleRefund,
} from './refunds.sql';

export type { CreateRefundInput, RefundIdempotency, RefundReason, RefundRow } from './refund';

export function serializeRefund(r: RefundRow): Refund {
  return {
    id: r.id,
    object: 'refund',
    livemode: r.livemode,
    transaction: r.transaction_id,
    refund_transaction: r.refund_transaction_id,
    amount: minorToJson(toMinor(r.amount)),
    currency: r.currency,
    reason: r.reason,
    status: r.status,
    failure_reason: r.failure_reason,
    metadata: r.metadata,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

type RefundEvent = 'refund.created' | 'refund.succeeded' | 'refund.failed';

export class RefundsService {
  private readonly saga: IntentSaga;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly connectors: ConnectorRouter,
  ) {
    this.saga = new IntentSaga(db, clock);
  }

  /**
   * Creates a refund and drives it to its outcome. With an idempotency key, a repeat of a
   * finished request answers the same refund (`replayed`), a repeat with other parameters is
   * 422 idempotency_key_reused, and a repeat while the first is still pending is 409.
   */
  async create(
    tenant: Tenant,
    input: CreateRefundInput,
    idempotency?: RefundIdempotency,
  ): Promise<{ refund: RefundRow; replayed: boolean }> {
    assertOutsideTransaction(this.db);
    // Live without a processor: refused here, before anything is reserved (after the payment's
    // visibility, so another account's or mode's id is still a 404 that reveals nothing).
    if (!(await this.connectors.available(tenant))) {
      await this.visiblePayment(this.db, tenant, input.transaction);
    }
    const connector = await this.connectors.forTenant(tenant);
    let reserved: { refund: RefundRow; payment: TransactionRow } | { replay: RefundRow };
    try {
      reserved = await this.saga.write((tx) => this.reserve(tx, tenant, input, idempotency));
    } catch (error) {
      // Two requests with one key at once: the second waits on the unique index, then fails.
      if (idempotency && pgCode(error) === PG.uniqueViolation) throw inProgress();
      throw error;
    }
    if ('replay' in reserved) return { refund: reserved.replay, replayed: true };
    const refund = await this.drive(connector, reserved.refund, {
      processor_reference: reserved.payment.processor_reference,
      card_last4: reserved.payment.payment_method?.last4 ?? null,
    });
    return { refund, replayed: false };
  }

  private async reserve(
    tx: Tx,
    tenant: Tenant,
    input: CreateRefundInput,
    idempotency: RefundIdempotency | undefined,
  ): Promise<{ refund: RefundRow; payment: TransactionRow } | { replay: RefundRow }> {
    // The amount reserved by one guarded statement, which also looks the key's earlier use up
    // (refunds.sql.ts).
    const now = this.clock.now();
    const { reservation, earlier } = await reserveAmount(
      tx,
      tenant,
      input.transaction,
      input.amount,
      now,
      idempotency?.key,
    );
    if (idempotency && earlier) {
      if (earlier.request_hash !== idempotency.fingerprint) {
        throw new ApiError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with a different request (method, path or parameters); use a new key.',
          'Idempotency-Key',
        );
      }
      // Still pending: in progress, unless the processor has it and decides later (then the
      // retry answers the pending refund, as the first request did).
      if (earlier.status === 'pending' && !(await acceptedByProcessor(tx, earlier))) throw inProgress();
      return { replay: earlier };
    }
    if (!reservation) {
      const current = await this.visiblePayment(tx, tenant, input.transaction);
      if (current.type !== 'payment' || current.status !== 'succeeded') throw notRefundable(current);
      throw exceeds(refundableAmount(current));
    }
    const { refund_amount: amount, ...payment } = reservation;
    // The refund's transaction and row are written with the outbox row just before the commit
    // (Tx.writeAtCommit): nothing in this transaction reads them. A repeated Idempotency-Key
    // fails there, on the unique index (create() answers 409).
    const refundTxnId = newId('txn');
    tx.writeAtCommit(
      `insert into payments.transactions (id, account_id, livemode, merchant_id, type, status, amount, currency,
         refunded_transaction, payment_link, mandate, invoice, customer, client_reference_id, payment_method, created_at, updated_at)
       values ($1, $2, $3, $4, 'refund', 'pending', $5::bigint, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $14)`,
      [
        refundTxnId,
        payment.account_id,
        payment.livemode,
        payment.merchant_id,
        amount,
        payment.currency,
        payment.id,
        payment.payment_link,
        payment.mandate,
        payment.invoice,
        payment.customer,
        payment.client_reference_id,
        payment.payment_method ? JSON.stringify(payment.payment_method) : null,
        now,
      ],
    );
    const refund: RefundRow = {
      id: newId('re'),
      account_id: payment.account_id,
      livemode: payment.livemode,
      transaction_id: payment.id,
      refund_transaction_id: refundTxnId,
      amount,
      currency: payment.currency,
      reason: input.reason ?? null,
      status: 'pending',
      failure_reason: null,
      metadata: input.metadata ?? {},
      idempotency_key: idempotency?.key ?? null,
      request_hash: idempotency?.fingerprint ?? null,
      created_at: now,
      updated_at: now,
    };
    tx.writeAtCommit(
      `insert into payments.refunds (id, account_id, livemode, transaction_id, refund_transaction_id, amount, currency,
         reason, status, metadata, idempotency_key, request_hash, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6::bigint, $7, $8, 'pending', $9::jsonb, $10, $11, $12, $12)`,
      [
        refund.id,
        refund.account_id,
        refund.livemode,
        refund.transaction_id,
        refundTxnId,
        amount,
        refund.currency,
        refund.reason,
        JSON.stringify(refund.metadata),
        refund.idempotency_key,
        refund.request_hash,
        now,
      ],
    );
    await this.emit(tx, refund, payment.merchant_id, 'refund.created', now);
    return { refund, payment };
  }

  /**
   * The connector call (outside any transaction), then tx2: the outcome recorded, or, for a
   * refund the processor accepted pending, its reference kept and the refund left pending.
   */
  private drive(connector: PaymentConnector, refund: StaleRefund | RefundRow, payment: PaymentReference) {
    return this.saga.resume(refund, {
      call: (r): Promise<RefundOutcome> =>
        connector.refund({
          idempotency_key: r.id,
          amount: toMinor(r.amount),
          currency: r.currency,
          livemode: r.livemode,
          processor_reference: payment.processor_reference ?? '',
          ...(payment.card_last4 ? { card_last4: payment.card_last4 } : {}),
        }),
      record: (tx, r, outcome) => this.recordAnswer(tx, r, outcome),
    });
  }

  private async recordAnswer(tx: Tx, refund: RefundRow, outcome: RefundOutcome): Promise<RefundRow> {
    if (outcome.status !== 'pending') return this.record(tx, refund, outcome);
    await markRefundAccepted(tx, refund, outcome.processor_reference, this.clock.now());
    return refundById(tx, refund.id);
  }

  /**
   * tx2: the refund row moves first (its guard decides whether this run records), then its
   * refund transaction through the saga (ledger legs on success), in one statement; a failure
   * gives the reserved amount back to the payment. The refund transaction of a failed refund always
   * says processing_error, with the processor's words as its message.
   */
  private async record(tx: Tx, refund: RefundRow, outcome: FinalOutcome): Promise<RefundRow> {
    let settled: RefundRow | undefined;
    await this.saga.record(
      tx,
      refund.refund_transaction_id,
      outcome.status === 'succeeded'
        ? outcome
        : { status: 'failed', code: 'processing_error', message: outcome.message, processor_reference: null },
      {
        // In the statement that moves the refund transaction: one round trip for both rows.
        claim: (now) => settleRefund(refund.id, outcome, now),
        onFailed: async (t, txn) => releaseReservation(t, refund, txn.updated_at),
        emit: (t, txn, now) => {
          settled = settledRefund(refund, outcome, now);
          return this.emit(
            t,
            settled,
            txn.merchant_id,
            settled.status === 'succeeded' ? 'refund.succeeded' : 'refund.failed',
            now,
          );
        },
      },
    );
    return settled ?? refundById(tx, refund.id);
  }

  /**
   * The processor's own word on a refund (its webhook, processor-events/): the same guarded
   * tx2 as the refund's request, so whichever records first wins and the other changes nothing.
   */
  async recordOutcome(
    tx: Tx,
    source: Tenant,
    id: string,
    outcome: FinalOutcome,
  ): Promise<
    'ignored_unknown_refund' | 'unchanged' | 'refund_succeeded' | 'refund_failed' | 'refund_reversed'
  > {
    const [refund] = await tx.query<RefundRow>(
      'select * from payments.refunds where id = $1 and account_id = $2 and livemode = $3 for update',
      [id, source.account, source.livemode],
    );
    if (!refund) return 'ignored_unknown_refund';
    if (refund.status === 'succeeded' && outcome.status === 'failed') {
      // Failed after succeeding (Stripe: the card's issuer could not take the money back):
      // the money is the merchant's again (refund-reversal.ts).
      const reversed = await reverseRefund(tx, refund, outcome.message, this.clock.now());
      if (reversed)
        await this.emit(tx, reversed.refund, reversed.merchant, 'refund.failed', reversed.refund.updated_at);
      return reversed ? 'refund_reversed' : 'unchanged';
    }
    if (refund.status !== 'pending') return 'unchanged';
    const recorded = await this.record(tx, refund, outcome);
    return recorded.status === 'succeeded' ? 'refund_succeeded' : 'refund_failed';
  }

  /**
   * Settles refunds left pending longer than `olderThanMs`: a crash after tx1, a lost answer,
   * or a refund the processor holds pending. With a connector that can look refunds up, the
   * processor's record decides (found: recorded; still pending: asked again after a wait
   * that doubles, refunds.sql.ts deferRefundCheck; not found: asked for with the same key,
   * safe because it never made it), so a refund is never requested twice even after the
   * processor forgot the key. Without one, it is asked again with the same key. tx2 only
   * moves a refund that is still pending.
   */
  recoverPending(olderThanMs: number): Promise<number> {
    return this.saga.recover(
      olderThanMs,
      (cutoff) => staleRefunds(this.db, cutoff, this.clock.now()),
      async (refund) => {
        // A live refund whose account has lost its processor connection waits (stays pending)
        // until one is connected again: the money can only go back the way it came.
        const tenant = { account: refund.account_id, livemode: refund.livemode };
        if (!(await this.connectors.available(tenant))) {
          await deferRefundCheck(this.db, refund.id, this.clock.now());
          return false;
        }
        const connector = await this.connectors.forTenant(tenant);
        const found = connector.lookupRefund
          ? await connector.lookupRefund({
              idempotency_key: refund.id,
              refund_reference: refund.refund_reference,
              payment_reference: refund.processor_reference ?? '',
              livemode: refund.livemode,
              ...(refund.card_last4 ? { card_last4: refund.card_last4 } : {}),
            })
          : { status: 'not_found' as const };
        const settled =
          found.status === 'not_found'
            ? await this.drive(connector, refund, refund)
            : await this.db.transaction((tx) => this.recordAnswer(tx, refund, found));
        if (settled.status !== 'pending') return true;
        await deferRefundCheck(this.db, refund.id, this.clock.now());
        return false;
      },
    );
  }

  private async visiblePayment(tx: Tx | Database, tenant: Tenant, id: string): Promise<TransactionRow> {
    return findOwned<TransactionRow>(tx, 'payments.transactions', tenant, id, 'transaction', 'transaction');
  }

  private async emit(tx: Tx, refund: RefundRow, merchant: string | null, type: RefundEvent, now: Date) {
    await emitRowEvent(tx, TOPICS.paymentsEvents, refund, {
      type,
      merchant,
      object: serializeRefund(refund),
      at: now,
    });
  }

  async get(tenant: Tenant, id: string): Promise<RefundRow> {
    return findOwned<RefundRow>(this.db, 'payments.refunds', tenant, id, 'refund');
  }

  list(tenant: Tenant, query: ListQuery) {
    return paginateOwned<RefundRow>(this.db, tenant, {
      table: 'payments.refunds',
      list: query,
      url: '/v1/refunds',
    });
  }
}
