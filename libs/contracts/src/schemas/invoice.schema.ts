// The invoice object (docs/api.md §6), exactly as the invoicing service serialises it.

import {
  currency,
  customerDetails,
  sellerDetails,
  documentDiscount,
  documentLines,
  documentTotals,
  money,
  text,
} from './document-parts';
import { idOf, listOf, nullable, schemaRef, strictObject, timestamp, type FromContract } from './json-schema';

export const InvoiceSchema = strictObject(
  {
    id: idOf('inv', 'Unique identifier.'),
    object: { type: 'string', const: 'invoice' },
    livemode: { type: 'boolean' },
    customer: idOf('cus', 'The customer billed.'),
    status: { type: 'string', enum: ['draft', 'open', 'paid', 'void', 'uncollectible'] },
    number: nullable({
      type: 'string',
      description: 'Gapless per account and mode, assigned at finalization (`INV-0001`).',
    }),
    currency,
    description: text('Shown on the invoice.'),
    lines: documentLines(
      "This line's share of the invoice discount (largest-remainder allocation).",
      'One line of the invoice.',
    ),
    discount: documentDiscount(
      'The invoice-level discount, taken off before tax: `{ percent_bps }` or `{ amount }`.',
    ),
    ...documentTotals,
    amount_paid: money('Received so far.'),
    amount_due: money('Still to pay: total - amount_paid, never negative.'),
    collection_method: { type: 'string', enum: ['send_invoice', 'charge_automatically'] },
    days_until_due: nullable({ type: 'integer', minimum: 0 }),
    due_date: nullable(timestamp('When payment is due (send_invoice).')),
    hosted_url: nullable({
      type: 'string',
      format: 'uri',
      description: 'The hosted invoice page (not for drafts).',
    }),
    pdf_url: nullable({
      type: 'string',
      format: 'uri',
      description: 'The PDF, public like the page (not for drafts).',
    }),
    subscription: nullable(idOf('sub', 'The subscription that produced the invoice.')),
    period_start: nullable(timestamp('Start of the subscription period billed.')),
    period_end: nullable(timestamp('End of the subscription period billed.')),
    estimate: nullable(idOf('est', 'The estimate or quote converted into this invoice.')),
    test_clock: nullable(idOf('clock', "The customer's test clock.")),
    seller: sellerDetails('The seller as it was when the invoice was finalized (the business profile).'),
    customer_details: customerDetails('The customer as it was when the invoice was finalized.'),
    status_transitions: strictObject({
      finalized_at: nullable(timestamp('draft -> open.')),
      paid_at: nullable(timestamp('-> paid.')),
      voided_at: nullable(timestamp('-> void.')),
      marked_uncollectible_at: nullable(timestamp('-> uncollectible.')),
    }),
    sent_at: nullable(timestamp('The last e-mail to the customer.')),
    overdue: { type: 'boolean', description: 'Open past its due date (invoice.overdue was emitted).' },
    attempt_count: { type: 'integer', minimum: 0, description: 'Mandate charges requested so far.' },
    last_payment_error: nullable(
      strictObject(
        {
          code: text('The decline code, e.g. `card_declined`.'),
          message: text('Why the payment failed.'),
          transaction: nullable(idOf('txn', 'The failed payment.')),
        },
        'The last payment attempt failed (the invoice stays open).',
      ),
    ),
    paid_out_of_band: { type: 'boolean', description: 'Marked paid with `paid_out_of_band: true`.' },
    metadata: schemaRef('Metadata'),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  },
  'A bill to a customer. Totals are computed by the server.',
);

export const InvoiceListSchema = listOf('Invoice', '/v1/invoices');

export const DeletedInvoiceSchema = strictObject(
  {
    id: idOf('inv', 'The deleted draft.'),
    object: { type: 'string', const: 'invoice' },
    deleted: { type: 'boolean', const: true },
  },
  'A deleted draft invoice.',
);

/** The type of the invoice on the wire, derived from its schema: what `serializeInvoice` returns. */
export type Invoice = FromContract<typeof InvoiceSchema>;

/** The type of a deleted draft invoice on the wire, derived from its schema. */
export type DeletedInvoice = FromContract<typeof DeletedInvoiceSchema>;
