// A refund the processor reports failed after it had reported it succeeded (Stripe: a refund
// is `succeeded` at once, and moves to `failed` days later when the card's issuer cannot take
// the money back, e.g. a closed card account; its refund.failed webhook says so). The money
// never reached the payer: it is the merchant's again. In one transaction, guarded on the
// refund still being `succeeded` so a replayed webhook changes nothing:
//   - the refund and its refund transaction move succeeded -> failed, with the processor's reason;
//   - the payment's amount_refunded gives the amount back (refundable again);
//   - the ledger gets the correcting posting (the refund's legs reversed, on the refund
//     transaction: entries are never updated or deleted, so a reversed refund's entries net to
//     zero, which ledger.ts postingMismatches checks);
//   - the caller emits refund.failed with the refund as it now is.

import { toMinor, type Tx } from '@paygrid/platform';
import { paymentLegs, postEntries } from '../ledger/ledger';
import type { TransactionRow } from '../transactions/transaction';
import type { RefundRow } from './refund';

export async function reverseRefund(
  tx: Tx,
  refund: RefundRow,
  reason: string,
  now: Date,
): Promise<{ refund: RefundRow; merchant: string | null } | undefined> {
  const [reversed] = await tx.query<RefundRow>(
    `update payments.refunds set status = 'failed', failure_reason = $2, updated_at = $3
      where id = $1 and status = 'succeeded' returning *`,
    [refund.id, reason, now],
  );
  if (!reversed) return undefined;
  const [refundTxn] = await tx.query<TransactionRow>(
    `update payments.transactions set status = 'failed', failure_code = 'processing_error', failure_message = $2,
       updated_at = $3
      where id = $1 and status = 'succeeded' returning *`,
    [refund.refund_transaction_id, reason, now],
  );
  await tx.query(
    `update payments.transactions set amount_refunded = amount_refunded - $2::bigint, updated_at = $3 where id = $1`,
    [refund.transaction_id, refund.amount, now],
  );
  await postEntries(tx, {
    account: refundTxn.account_id,
    livemode: refundTxn.livemode,
    transaction: refundTxn.id,
    currency: refundTxn.currency,
    legs: paymentLegs(refundTxn.merchant_id ?? refundTxn.account_id, toMinor(refundTxn.amount)),
    at: now,
  });
  return { refund: reversed, merchant: refundTxn.merchant_id };
}
