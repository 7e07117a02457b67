// The estimate / quote object (API.md section 6), exactly as the invoicing service serialises it.

import { idOf, listOf, nullable, schemaRef, strictObject, timestamp, type JsonSchema } from './json-schema';

const currency: JsonSchema = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217.' };
const money = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
const text = (description: string): JsonSchema => nullable({ type: 'string', description });

const line = strictObject(
  {
    description: { type: 'string', maxLength: 500 },
    quantity: { type: 'integer', minimum: 1 },
    unit_amount: money('Minor units.'),
    tax_rate_bps: { type: 'integer', minimum: 0, maximum: 10_000, description: 'Basis points: 2000 = 20 %.' },
    amount: money('quantity x unit_amount, before discount and tax.'),
    discount_amount: money("This line's share of the discount (largest-remainder allocation)."),
    tax_amount: money('Tax on (amount - discount_amount), rounded half-even once.'),
  },
  'One line, computed as on invoices.',
);

const address = nullable(
  strictObject({
    line1: text('Line 1.'),
    line2: text('Line 2.'),
    city: text('City.'),
    postal_code: text('Postal code.'),
    state: text('State or region.'),
    country: text('ISO 3166-1 alpha-2.'),
  }),
);

export const EstimateSchema: JsonSchema = strictObject(
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
    lines: { type: 'array', items: line, maxItems: 250 },
    discount: nullable({
      type: 'object',
      description: 'Taken off before tax: `{ percent_bps }` or `{ amount }`.',
      properties: {
        percent_bps: { type: 'integer', minimum: 1, maximum: 10_000 },
        amount: { type: 'integer', minimum: 1 },
      },
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 1,
    }),
    subtotal: money('Sum of the line amounts.'),
    discount_total: money('Never more than the subtotal.'),
    tax_total: money('Sum of the line taxes.'),
    total: money('subtotal - discount_total + tax_total.'),
    expires_at: nullable(timestamp('A sent estimate not accepted by then becomes `expired`.')),
    public_url: nullable({
      type: 'string',
      format: 'uri',
      description: "The customer's page, where they accept or decline (once sent).",
    }),
    invoice: nullable(idOf('inv', 'The invoice it was converted into.')),
    seller: nullable(strictObject({ name: { type: 'string' } }, 'The seller as of the last send.')),
    customer_details: nullable(
      strictObject(
        {
          name: text('Name.'),
          email: text('E-mail address.'),
          phone: text('Phone.'),
          address,
          tax_id: text('Tax id.'),
        },
        'The customer as of the last send.',
      ),
    ),
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
