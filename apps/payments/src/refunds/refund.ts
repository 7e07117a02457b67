// A refund as the payments service keeps it (payments.refunds), what creating one takes, and
// the refusals of docs/errors.md a refund request can meet.

import { ApiError } from '@paygrid/platform';
import type { TransactionRow } from '../transactions/transaction';

export type RefundReason = 'duplicate' | 'fraudulent' | 'requested_by_customer';

export interface RefundRow {
  id: string;
  account_id: string;
  livemode: boolean;
  transaction_id: string;
  refund_transaction_id: string;
  amount: string;
  currency: string;
  reason: RefundReason | null;
  status: 'pending' | 'succeeded' | 'failed';
  failure_reason: string | null;
  metadata: Record<string, string>;
  idempotency_key: string | null;
  request_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface CreateRefundInput {
  transaction: string;
  amount?: number;
  reason?: RefundReason;
  metadata?: Record<string, string>;
}

/** The refunded payment as the processor knows it. */
export interface PaymentReference {
  processor_reference: string | null;
  card_last4: string | null;
}

/** The Idempotency-Key of the request and its fingerprint, kept on the refund itself. */
export interface RefundIdempotency {
  key: string;
  fingerprint: string;
}

export const inProgress = () =>
  new ApiError(
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still in progress; retry shortly.',
    undefined,
    { headers: { 'retry-after': '1' } },
  );

export const notRefundable = (t: TransactionRow) =>
  new ApiError(
    'transaction_not_refundable',
    t.type !== 'payment'
      ? 'Only payments can be refunded; this transaction is a refund.'
      : `Only succeeded payments can be refunded; this payment is ${t.status}.`,
    'transaction',
  );

export const exceeds = (remaining: bigint) =>
  new ApiError(
    'refund_exceeds_remaining',
    `The refund exceeds what remains refundable on the payment (${remaining}).`,
    'amount',
  );
