// The statements of a refund's tx2 and of its recovery (refunds.service.ts); the refund
// transaction itself moves through the intent saga (intents/intents.sql.ts).

import type { Database, Tx } from '@paygrid/platform';
import type { FinalOutcome } from '../intents/intent-saga';
import type { RefundRow } from './refunds.service';

/** pending -> succeeded | failed (with the processor's reason), once; undefined if already moved. */
export async function settleRefund(
  tx: Tx,
  id: string,
  outcome: FinalOutcome,
  now: Date,
): Promise<RefundRow | undefined> {
  const [row] =
    outcome.status === 'succeeded'
      ? await tx.query<RefundRow>(
          `update payments.refunds set status = 'succeeded', updated_at = $2 where id = $1 and status = 'pending' returning *`,
          [id, now],
        )
      : await tx.query<RefundRow>(
          `update payments.refunds set status = 'failed', failure_reason = $2, updated_at = $3
            where id = $1 and status = 'pending' returning *`,
          [id, outcome.message, now],
        );
  return row;
}

/** A failed refund gives the amount it reserved back to its payment. */
export async function releaseReservation(tx: Tx, refund: RefundRow, now: Date): Promise<void> {
  await tx.query(
    `update payments.transactions set amount_refunded = amount_refunded - $2::bigint, updated_at = $3 where id = $1`,
    [refund.transaction_id, refund.amount, now],
  );
}

export async function refundById(tx: Tx, id: string): Promise<RefundRow> {
  const [row] = await tx.query<RefundRow>('select * from payments.refunds where id = $1', [id]);
  return row;
}

/** Refunds left pending before `cutoff`, with the processor reference and card last4 of their payment. */
export function staleRefunds(
  db: Database,
  cutoff: Date,
): Promise<(RefundRow & { processor_reference: string | null; card_last4: string | null })[]> {
  return db.query<RefundRow & { processor_reference: string | null; card_last4: string | null }>(
    `select r.*, t.processor_reference, t.payment_method->>'last4' as card_last4 from payments.refunds r
       join payments.transactions t on t.id = r.transaction_id
      where r.status = 'pending' and r.created_at < $1 order by r.created_at limit 500`,
    [cutoff],
  );
}
