// Disputes (chargebacks): opened, moved and closed by the processor's webhooks
// (processor-events/), read through GET /v1/disputes. Each change runs in the transaction that
// stores the processor event, so an event is applied exactly once. In test mode the sandbox's
// card 0259 opens one in the transaction that records its payment (PaymentEffects, payments.ts),
// and updateSandbox (a test helper) moves it through the same `apply`.
//
// Money (ledger.ts): when a dispute opens, the disputed amount and the processor's fee leave
// the merchant's balance and the amount is held back from refunds (transactions.amount_disputed,
// under the payment's row lock, the lock the refund's guarded update takes too); a won dispute
// puts the amount (and any fee the processor gave back) back and releases the hold; a lost one
// keeps both out. Like Stripe, which refuses to refund a disputed charge, an open dispute already
// holds its amount: a refund of the same money while the card network decides would pay the
// payer twice if the dispute is then lost.

import { TOPICS } from '@paygrid/contracts';
import {
  ApiError,
  type Clock,
  emitRowEvent,
  findOwned,
  newId,
  paginate,
  toMinor,
  type Database,
  type ListQuery,
  type Tenant,
  type Tx,
} from '@paygrid/platform';
import type { ProcessorDispute } from '../connectors/connector';
import { disputeLegs, postEntries } from '../ledger/ledger';
import type { TransactionRow } from '../transactions/transaction';
import { canMove, isClosed, serializeDispute, type DisputeRow, type DisputeStatus } from './dispute';

export interface DisputeSource {
  /** The processor connection that reported it; null for the sandbox's (test mode only). */
  connection: string | null;
  account: string;
  livemode: boolean;
}

/** What applying one processor report did (stored on the processor event). */
export type DisputeOutcome = 'created' | 'updated' | 'unchanged' | 'payment_not_recorded';

export interface ListDisputesFilter {
  status?: DisputeStatus;
  transaction?: string;
}

const TABLE = 'payments.disputes';

export class DisputesService {
  constructor(
    private readonly db: Database,
    private readonly clock?: Clock,
  ) {}

  /**
   * The sandbox's test helper: moves a sandbox dispute (card 0259) as a processor's webhook
   * would, through `apply`, so its events and ledger legs are the webhook path's. A processor's
   * dispute moves only by its processor (409 invalid_state_transition), as does a move the
   * transitions refuse (a closed dispute). `tx`: the idempotent request's transaction
   * (docs/adr/0015).
   */
  async updateSandbox(tenant: Tenant, id: string, status: DisputeStatus, tx?: Tx): Promise<DisputeRow> {
    const row = await this.get(tenant, id, tx);
    if (row.connection_id !== null || row.livemode) {
      throw new ApiError(
        'invalid_state_transition',
        "This dispute is its processor's: it moves only by the processor's webhooks.",
      );
    }
    if (!canMove(row.status, status)) {
      throw new ApiError(
        'invalid_state_transition',
        `A dispute cannot move from ${row.status} to ${status}.`,
        'status',
      );
    }
    const now = this.clock?.now() ?? new Date();
    await this.db.transaction(
      async (tx) => {
        const [payment] = await tx.query<{ processor_reference: string }>(
          'select processor_reference from payments.transactions where id = $1',
          [row.transaction_id],
        );
        await this.apply(
          tx,
          { connection: null, account: row.account_id, livemode: false },
          {
            reference: row.processor_reference,
            payment_reference: payment.processor_reference,
            amount: toMinor(row.amount),
            currency: row.currency,
            fee: toMinor(row.fee),
            fee_returned: 0n,
            reason: row.reason,
            status,
            evidence_due_by: null,
          },
          now,
        );
      },
      { in: tx },
    );
    return this.get(tenant, id, tx);
  }

  /** Creates or moves the dispute the processor reported, in the caller's transaction. */
  async apply(tx: Tx, source: DisputeSource, reported: ProcessorDispute, now: Date): Promise<DisputeOutcome> {
    // The payment row first, locked: the lock orders this against a concurrent refund.
    const [payment] = await tx.query<TransactionRow>(
      `select * from payments.transactions
        where account_id = $1 and livemode = $2 and type = 'payment' and processor_reference = $3
        for update`,
      [source.account, source.livemode, reported.payment_reference],
    );
    // A dispute can only be about money we recorded as taken; until then it waits (the
    // caller answers so that the processor sends it again).
    if (!payment || payment.status !== 'succeeded') return 'payment_not_recorded';
    // Each through its unique index: per connection, or the sandbox's (disputes_sandbox_once).
    const [existing] = await tx.query<DisputeRow>(
      source.connection
        ? `select * from ${TABLE} where connection_id = $2 and processor_reference = $1 for update`
        : `select * from ${TABLE} where connection_id is null and processor_reference = $1 for update`,
      source.connection ? [reported.reference, source.connection] : [reported.reference],
    );
    if (!existing) {
      const opened = await this.open(tx, source, payment, reported, now);
      const moved =
        reported.status === 'needs_response' ? opened : await this.move(tx, opened, reported, now);
      await this.emit(
        tx,
        moved ?? opened,
        isClosed(reported.status) ? 'dispute.closed' : 'dispute.created',
        now,
      );
      return 'created';
    }
    const moved = await this.move(tx, existing, reported, now);
    if (!moved) return 'unchanged';
    await this.emit(tx, moved, isClosed(moved.status) ? 'dispute.closed' : 'dispute.updated', now);
    return 'updated';
  }

  /** A new dispute: the amount and fee withdrawn, the amount held back from refunds. */
  private async open(
    tx: Tx,
    source: DisputeSource,
    payment: TransactionRow,
    reported: ProcessorDispute,
    now: Date,
  ): Promise<DisputeRow> {
    const [row] = await tx.query<DisputeRow>(
      `insert into ${TABLE} (id, account_id, livemode, merchant_id, connection_id, transaction_id, processor_reference,
         amount, fee, currency, reason, status, evidence_due_by, processor_updated_at, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8::bigint, $9::bigint, $10, $11, 'needs_response', $12, $13, $13, $13)
       returning *`,
      [
        newId('dp'),
        payment.account_id,
        payment.livemode,
        payment.merchant_id,
        source.connection,
        payment.id,
        reported.reference,
        reported.amount.toString(),
        reported.fee.toString(),
        payment.currency,
        reported.reason,
        reported.evidence_due_by,
        now,
      ],
    );
    await tx.query(
      `update payments.transactions set amount_disputed = amount_disputed + $2::bigint, updated_at = $3 where id = $1`,
      [payment.id, reported.amount.toString(), now],
    );
    await this.post(tx, row, reported.amount, reported.fee, 'withdraw', now);
    return row;
  }

  /**
   * The reported state, if the transition table allows it, and a fee the processor reported
   * only now (Stripe adds it when the funds are withdrawn). Undefined when nothing changed.
   */
  private async move(
    tx: Tx,
    row: DisputeRow,
    reported: ProcessorDispute,
    now: Date,
  ): Promise<DisputeRow | undefined> {
    const status = canMove(row.status, reported.status) ? reported.status : row.status;
    const newFee = isClosed(row.status) ? 0n : reported.fee - toMinor(row.fee);
    const feeBack = status === 'won' ? reported.fee_returned : 0n;
    if (status === row.status && newFee <= 0n) return undefined;
    const [updated] = await tx.query<DisputeRow>(
      `update ${TABLE} set status = $2, fee = fee + $3::bigint, fee_returned = $4::bigint, evidence_due_by = coalesce($5, evidence_due_by),
              closed_at = case when $2 in ('won', 'lost') then $6 else closed_at end, processor_updated_at = $6, updated_at = $6
        where id = $1 returning *`,
      [
        row.id,
        status,
        (newFee > 0n ? newFee : 0n).toString(),
        feeBack.toString(),
        reported.evidence_due_by,
        now,
      ],
    );
    if (newFee > 0n) await this.post(tx, updated, 0n, newFee, 'withdraw', now);
    if (status === 'won' && row.status !== 'won') {
      await this.post(tx, updated, toMinor(updated.amount), toMinor(updated.fee_returned), 'reinstate', now);
      await tx.query(
        `update payments.transactions set amount_disputed = greatest(amount_disputed - $2::bigint, 0), updated_at = $3
          where id = $1`,
        [updated.transaction_id, updated.amount, now],
      );
    }
    return updated;
  }

  private async post(
    tx: Tx,
    dispute: DisputeRow,
    amount: bigint,
    fee: bigint,
    direction: 'withdraw' | 'reinstate',
    now: Date,
  ): Promise<void> {
    const legs = disputeLegs(dispute.merchant_id ?? dispute.account_id, amount, fee, direction);
    if (legs.length === 0) return;
    await postEntries(tx, {
      account: dispute.account_id,
      livemode: dispute.livemode,
      transaction: dispute.transaction_id,
      currency: dispute.currency,
      legs,
      at: now,
      dispute: dispute.id,
    });
  }

  private async emit(
    tx: Tx,
    row: DisputeRow,
    type: 'dispute.created' | 'dispute.updated' | 'dispute.closed',
    now: Date,
  ) {
    await emitRowEvent(tx, TOPICS.paymentsEvents, row, {
      type,
      object: serializeDispute(row),
      at: now,
    });
  }

  get(tenant: Tenant, id: string, tx?: Tx): Promise<DisputeRow> {
    return findOwned<DisputeRow>(tx ?? this.db, TABLE, tenant, id, 'dispute');
  }

  list(tenant: Tenant, query: ListQuery & ListDisputesFilter) {
    const where = ['account_id = $1', 'livemode = $2'];
    const params: unknown[] = [tenant.account, tenant.livemode];
    for (const [column, value] of [
      ['status', query.status],
      ['transaction_id', query.transaction],
    ] as const) {
      if (value !== undefined) {
        params.push(value);
        where.push(`${column} = $${params.length}`);
      }
    }
    return paginate<DisputeRow>(this.db, { table: TABLE, list: query, url: '/v1/disputes', where, params });
  }
}
