// The transaction object: its row, its states and its JSON (docs/api.md §5). Every money
// movement (a payment, a refund) is one row of payments.transactions; a pending row is the
// intent of a processor call (intents/intent-saga.ts).

import {
  iso,
  jsonBool,
  jsonText,
  jsonTimestamp,
  minorToJson,
  toMinor,
  type TextRow,
} from '@paygrid/platform';
import type { PaymentMethodSummary } from '../connectors/connector';
import type { Transaction } from '@paygrid/contracts';

export type TransactionType = 'payment' | 'refund';
/**
 * pending -> succeeded | failed, or pending -> requires_action (the payer is authenticating,
 * 3-D Secure) -> succeeded | failed; each final move once (intents/intents.sql.ts guards them).
 */
export type TransactionStatus = 'pending' | 'requires_action' | 'succeeded' | 'failed';

export interface TransactionRow {
  id: string;
  account_id: string;
  livemode: boolean;
  merchant_id: string | null;
  type: TransactionType;
  status: TransactionStatus;
  amount: string;
  currency: string;
  amount_refunded: string;
  /** Held back from refunds by an open or lost dispute (disputes/dispute.ts). */
  amount_disputed: string;
  refunded_transaction: string | null;
  payment_link: string | null;
  mandate: string | null;
  invoice: string | null;
  customer: string | null;
  client_reference_id: string | null;
  reference: string | null;
  /** Where the receipt goes: the address the payer gave on the hosted checkout. */
  receipt_email: string | null;
  payment_method: PaymentMethodSummary | null;
  failure_code: Transaction['failure_code'];
  failure_message: string | null;
  processor_reference: string | null;
  /** Where the payer was sent to authenticate (requires_action); internal, never serialized. */
  authentication_url: string | null;
  /**
   * The mandate a card-keeping payment creates when it succeeds, kept while it waits on 3-D
   * Secure (card-payments/pay-by-card.ts); internal, never serialized.
   */
  mandate_terms: StoredMandateTerms | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

/** MandateTerms as JSON (a recurring amount as a string of minor units). */
export interface StoredMandateTerms {
  payment_link?: string | null;
  customer?: string | null;
  client_reference_id?: string | null;
  payer: { name: string | null; email: string | null };
  recurring?: { amount: string; interval: string; interval_count: number };
  metadata?: Record<string, string>;
}

/** What a succeeded payment can still give back; 0 for anything else. */
export function refundableAmount(
  t: Pick<TransactionRow, 'type' | 'status' | 'amount' | 'amount_refunded'> & { amount_disputed?: string },
): bigint {
  if (t.type !== 'payment' || t.status !== 'succeeded') return 0n;
  // An open or lost dispute holds its amount back (disputes/dispute.ts).
  const left = toMinor(t.amount) - toMinor(t.amount_refunded) - toMinor(t.amount_disputed ?? '0');
  return left > 0n ? left : 0n;
}

export function serializeTransaction(t: TransactionRow): Transaction {
  return {
    id: t.id,
    object: 'transaction',
    livemode: t.livemode,
    type: t.type,
    status: t.status,
    amount: minorToJson(toMinor(t.amount)),
    currency: t.currency,
    amount_refunded: minorToJson(toMinor(t.amount_refunded)),
    refundable_amount: minorToJson(refundableAmount(t)),
    refunded_transaction: t.refunded_transaction,
    merchant: t.merchant_id,
    payment_link: t.payment_link,
    mandate: t.mandate,
    invoice: t.invoice,
    customer: t.customer,
    client_reference_id: t.client_reference_id,
    reference: t.reference,
    receipt_email: t.receipt_email ?? null,
    payment_method: t.payment_method,
    failure_code: t.failure_code,
    failure_message: t.failure_message,
    metadata: t.metadata,
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
  };
}

/** The columns transactionJson reads, in its order: a list page's select list (textRows). */
export const TRANSACTION_TEXT_COLUMNS =
  'id, livemode, type, status, amount, currency, amount_refunded, amount_disputed, refunded_transaction, ' +
  'merchant_id, payment_link, mandate, invoice, customer, client_reference_id, reference, receipt_email, ' +
  'payment_method, failure_code, failure_message, metadata, created_at, updated_at';

/**
 * serializeTransaction's JSON, written from a text row of TRANSACTION_TEXT_COLUMNS: amounts as
 * PostgreSQL wrote their digits, jsonb as its text (JSON already), strings escaped, dates as
 * `iso` writes them. A list page's 100 objects are written this way instead of parsed into
 * rows and objects and serialised again (bench/README.md finding 59).
 * tests/integration/transaction-json.test.ts holds it to serializeTransaction's objects for
 * generated rows, on PostgreSQL and on PGlite.
 */
export function transactionJson(row: TextRow): string {
  const [id, livemode, type, status, amount, currency, amountRefunded, amountDisputed] = row;
  const refundable =
    type === 'payment' && status === 'succeeded'
      ? refundableAmount({
          type,
          status,
          amount: amount as string,
          amount_refunded: amountRefunded as string,
          amount_disputed: amountDisputed as string,
        })
      : 0n;
  return (
    `{"id":${jsonText(id)},"object":"transaction","livemode":${jsonBool(livemode)},"type":${jsonText(type)},` +
    `"status":${jsonText(status)},"amount":${amount},"currency":${jsonText(currency)},` +
    `"amount_refunded":${amountRefunded},"refundable_amount":${refundable},` +
    `"refunded_transaction":${jsonText(row[8])},"merchant":${jsonText(row[9])},"payment_link":${jsonText(row[10])},` +
    `"mandate":${jsonText(row[11])},"invoice":${jsonText(row[12])},"customer":${jsonText(row[13])},` +
    `"client_reference_id":${jsonText(row[14])},"reference":${jsonText(row[15])},` +
    `"receipt_email":${jsonText(row[16])},"payment_method":${row[17] ?? 'null'},` +
    `"failure_code":${jsonText(row[18])},"failure_message":${jsonText(row[19])},"metadata":${row[20]},` +
    `"created_at":${jsonTimestamp(row[21])},"updated_at":${jsonTimestamp(row[22])}}`
  );
}

/** What the intent row of a payment records (tx1). */
export interface PaymentIntent {
  amount: bigint;
  currency: string;
  merchant: string | null;
  payment_link?: string | null;
  mandate?: string | null;
  invoice?: string | null;
  customer?: string | null;
  client_reference_id?: string | null;
  reference?: string | null;
  receipt_email?: string | null;
  payment_method: PaymentMethodSummary | null;
  metadata?: Record<string, string>;
  /** A card-keeping payment's mandate, created when the payment succeeds. */
  mandate_terms?: StoredMandateTerms | null;
}
