// The transaction and refund objects (docs/api.md §5), exactly as the payments service
// serialises them.

import { idOf, listOf, nullable, schemaRef, strictObject, timestamp, type FromContract } from './json-schema';

const amount = (description: string) =>
  ({
    type: 'integer',
    minimum: 0,
    maximum: 99_999_999_999,
    description,
  }) as const;
const currency = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217.' } as const;
const status = {
  type: 'string',
  enum: ['pending', 'requires_action', 'succeeded', 'failed'],
  description:
    '`requires_action`: the payer is authenticating at the processor (3-D Secure); the payment becomes `succeeded` or `failed` when they return or the processor reports.',
} as const;
const optionalId = (prefix: string, description: string) => nullable(idOf(prefix, description));

export const TransactionSchema = strictObject(
  {
    id: idOf('txn', 'Unique identifier.'),
    object: { type: 'string', const: 'transaction' },
    livemode: { type: 'boolean' },
    type: { type: 'string', enum: ['payment', 'refund'] },
    status,
    amount: { ...amount("Minor units; positive. A refund's is the refunded amount."), minimum: 1 },
    currency,
    amount_refunded: amount('Refunded so far, including refunds still pending (payments only).'),
    refundable_amount: amount('What can still be refunded: 0 unless a succeeded payment.'),
    refunded_transaction: optionalId('txn', 'For a refund: the payment it refunds.'),
    merchant: optionalId('mer', 'The merchant paid.'),
    payment_link: optionalId('plink', 'The payment link paid, if any.'),
    mandate: optionalId('mdt', 'The mandate charged, if any.'),
    invoice: optionalId('inv', 'The invoice paid, if any.'),
    customer: optionalId('cus', 'The customer, if any.'),
    client_reference_id: nullable({ type: 'string', description: 'Your reference, carried from the link.' }),
    reference: nullable({
      type: 'string',
      description: "The charge request's reference (payments.commands.v1: unique per account and mode).",
    }),
    receipt_email: nullable({
      type: 'string',
      description:
        'Where the receipt goes: the address the payer gave on the hosted checkout (payments only). Invoicing e-mails the receipt when the payment succeeds (GET /v1/transactions/:id/receipt).',
    }),
    payment_method: nullable(
      strictObject(
        {
          brand: { type: 'string', enum: ['visa', 'mastercard', 'amex', 'discover', 'unknown'] },
          last4: { type: 'string', pattern: '^\\d{4}$' },
          exp_month: { type: 'integer', minimum: 1, maximum: 12 },
          exp_year: { type: 'integer' },
        },
        'The card: never the full number or the CVC.',
      ),
    ),
    failure_code: nullable({
      type: 'string',
      enum: [
        'card_declined',
        'insufficient_funds',
        'expired_card',
        'incorrect_cvc',
        'authentication_required',
        'processing_error',
        'processor_not_configured',
        'mandate_invalid',
      ],
      description:
        'Why it failed: a decline code; `authentication_required` when customer authentication (3-D Secure) was asked where nobody could give it (an off-session charge), failed, or not completed within the hour the payer has (the payment is then canceled at the processor); `processor_not_configured` for a live charge with no processor connected; `mandate_invalid` for a charge request on an unknown, inactive or other-currency mandate.',
    }),
    failure_message: nullable({ type: 'string' }),
    metadata: schemaRef('Metadata'),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  },
  'One money movement, a payment or a refund, backed by double-entry ledger entries.',
);

export const TransactionListSchema = listOf('Transaction', '/v1/transactions');

export const RefundSchema = strictObject(
  {
    id: idOf('re', 'Unique identifier.'),
    object: { type: 'string', const: 'refund' },
    livemode: { type: 'boolean' },
    transaction: idOf('txn', 'The payment refunded.'),
    refund_transaction: idOf('txn', 'The refund transaction that moves the money back.'),
    amount: { ...amount('Minor units.'), minimum: 1 },
    currency,
    reason: nullable({ type: 'string', enum: ['duplicate', 'fraudulent', 'requested_by_customer'] }),
    status,
    failure_reason: nullable({ type: 'string' }),
    metadata: schemaRef('Metadata'),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  },
  'A full or partial refund of a succeeded payment.',
);

export const RefundListSchema = listOf('Refund', '/v1/refunds');

/** The type of the transaction on the wire, derived from its schema: what `serializeTransaction` returns. */
export type Transaction = FromContract<typeof TransactionSchema>;

/** The type of the refund on the wire, derived from its schema: what `serializeRefund` returns. */
export type Refund = FromContract<typeof RefundSchema>;
