// The estimate / quote object (docs/api.md §6), exactly as the invoicing service serialises it.

import {
  currency,
  customerDetails,
  documentDiscount,
  documentLines,
  documentTotals,
  text,
} from './document-parts';
import { idOf, listOf, nullable, schemaRef, strictObject, timestamp, type FromContract } from './json-schema';

export const EstimateSchema = strictObject(
  {
    id: idOf('est', 'Unique identifier.'),
    object: { type: 'string', const: 'estimate' },
    livemode: { type: 'boolean' },
    kind: { type: 'string', enum: ['estimate', 'quote'], description: 'Same flow; own numbering.' },
    customer: idOf('cus', 'The customer the estimate is for.'),
    status: {
      type: 'string',
      enum: ['draft', 'sent', 'accepted', 'declined', 'expired', 'canceled', 'invoiced'],
    },
    number: nullable({
      type: 'string',
      description: 'Gapless per account, mode and kind, taken at the first send (`EST-0001`, `Q-0001`).',
    }),
    currency,
    description: text('Shown on the document.'),
    lines: documentLines(
      "This line's share of the discount (largest-remainder allocation).",
      'One line, computed as on invoices.',
    ),
    discount: documentDiscount('Taken off before tax: `{ percent_bps }` or `{ amount }`.'),
    ...documentTotals,
    expires_at: nullable(timestamp('A sent estimate not accepted by then becomes `expired`.')),
    public_url: nullable({
      type: 'string',
      format: 'uri',
      description: "The customer's page, where they accept or decline (once sent).",
    }),
    invoice: nullable(idOf('inv', 'The invoice it was converted into.')),
    seller: nullable(strictObject({ name: { type: 'string' } }, 'The seller as of the last send.')),
    customer_details: customerDetails('The customer as of the last send.'),
    status_transitions: strictObject({
      sent_at: nullable(timestamp('The last send.')),
      accepted_at: nullable(timestamp('-> accepted.')),
      declined_at: nullable(timestamp('-> declined.')),
      expired_at: nullable(timestamp('-> expired.')),
      canceled_at: nullable(timestamp('-> canceled.')),
      invoiced_at: nullable(timestamp('-> invoiced.')),
    }),
    decided_via: nullable({
      type: 'string',
      enum: ['api', 'page'],
      description: 'Who recorded the decision: the API (`/accept`, `/decline`) or the customer on the page.',
    }),
    metadata: schemaRef('Metadata'),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  },
  'An estimate or quote: an offer the customer accepts or declines, then converted into an invoice.',
);

export const EstimateListSchema = listOf('Estimate', '/v1/estimates');

/** The type of the estimate on the wire, derived from its schema: what `serializeEstimate` returns. */
export type Estimate = FromContract<typeof EstimateSchema>;
