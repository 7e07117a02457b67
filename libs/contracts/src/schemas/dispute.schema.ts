// The dispute object (docs/api.md Part 2, disputes), exactly as the payments service serialises
// it (apps/payments/src/disputes/dispute.ts). Opened and moved by the processor's webhooks.

import { idOf, listOf, nullable, strictObject, timestamp, type FromContract } from './json-schema';

const minor = (description: string) =>
  ({
    type: 'integer',
    minimum: 0,
    maximum: 99_999_999_999,
    description,
  }) as const;

export const DisputeSchema = strictObject(
  {
    id: idOf('dp', 'Unique identifier.'),
    object: { type: 'string', const: 'dispute' },
    livemode: { type: 'boolean' },
    transaction: idOf('txn', 'The disputed payment.'),
    merchant: nullable(idOf('mer', 'The merchant paid.')),
    amount: {
      ...minor('The disputed amount, minor units; held back from refunds while open or lost.'),
      minimum: 1,
    },
    fee: minor("The processor's dispute fee, minor units (0 when it reports none)."),
    fee_returned: minor('What of the fee the processor gave back (a won dispute, on some processors).'),
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    reason: { type: 'string', description: "The card network's reason, as the processor names it." },
    status: {
      type: 'string',
      enum: ['needs_response', 'under_review', 'won', 'lost'],
      description: 'needs_response -> under_review -> won | lost (either may also follow needs_response).',
    },
    processor_reference: { type: 'string', description: "The processor's dispute id (Stripe: `du_...`)." },
    evidence_due_by: nullable(timestamp('When the processor needs the evidence.')),
    closed_at: nullable(timestamp('When it was won or lost.')),
    created_at: timestamp('When the processor reported it.'),
    updated_at: timestamp('Last change.'),
  },
  "A payer's chargeback of a payment, as the processor reports it.",
);

export const DisputeListSchema = listOf('Dispute', '/v1/disputes');

/** The type of the dispute on the wire, derived from its schema: what `serializeDispute` returns. */
export type Dispute = FromContract<typeof DisputeSchema>;
