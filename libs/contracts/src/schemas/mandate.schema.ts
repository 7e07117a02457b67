// The mandate object (docs/api.md §5), exactly as the payments service serialises it.

import { idOf, listOf, nullable, schemaRef, strictObject, timestamp, type FromContract } from './json-schema';

export const MandateSchema = strictObject(
  {
    id: idOf('mdt', 'Unique identifier.'),
    object: { type: 'string', const: 'mandate' },
    livemode: { type: 'boolean' },
    status: { type: 'string', enum: ['active', 'canceled', 'failed'] },
    type: {
      type: 'string',
      enum: ['recurring', 'on_demand'],
      description:
        '`recurring`: charged every cycle by the scheduler (from a recurring payment link). `on_demand`: charged per invoice by the invoicing service.',
    },
    merchant: nullable(idOf('mer', 'The merchant paid.')),
    payment_link: nullable(idOf('plink', 'The recurring link whose checkout created it.')),
    customer: nullable(idOf('cus', 'The invoicing customer whose card it is (on-demand mandates).')),
    client_reference_id: nullable({ type: 'string', description: 'Your reference, carried from the link.' }),
    payer: strictObject(
      {
        name: nullable({ type: 'string' }),
        email: nullable({ type: 'string' }),
      },
      'Who authorised the mandate, as entered on the checkout page.',
    ),
    payment_method: strictObject(
      {
        brand: { type: 'string', enum: ['visa', 'mastercard', 'amex', 'discover', 'unknown'] },
        last4: { type: 'string', pattern: '^\\d{4}$' },
        exp_month: { type: 'integer', minimum: 1, maximum: 12 },
        exp_year: { type: 'integer' },
      },
      'The stored card: never the full number or the CVC.',
    ),
    amount: nullable({
      type: 'integer',
      minimum: 1,
      maximum: 99_999_999_999,
      description: 'Minor units charged each cycle (recurring mandates).',
    }),
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217.' },
    interval: nullable({ type: 'string', enum: ['day', 'week', 'month', 'year'] }),
    interval_count: nullable({ type: 'integer', minimum: 1 }),
    next_charge_at: nullable(
      timestamp(
        'When the scheduler charges next (a retry after a failure); null unless active and recurring.',
      ),
    ),
    failure_code: nullable({
      type: 'string',
      description: 'The decline of the last failed charge attempt, if the latest attempt failed.',
    }),
    canceled_at: nullable(timestamp('When it was canceled.')),
    metadata: schemaRef('Metadata'),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  },
  'Permission to charge a stored card again: every cycle of a recurring link, or per invoice.',
);

export const MandateListSchema = listOf('Mandate', '/v1/mandates');

/** The type of the mandate on the wire, derived from its schema: what `serializeMandate` returns. */
export type Mandate = FromContract<typeof MandateSchema>;
