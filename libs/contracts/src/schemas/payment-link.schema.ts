// The payment link object (docs/api.md §5), exactly as the payments service serialises it.

import { idOf, listOf, nullable, schemaRef, strictObject, timestamp, type FromContract } from './json-schema';

const amount = (description: string) =>
  ({
    type: 'integer',
    minimum: 1,
    maximum: 99_999_999_999,
    description,
  }) as const;

export const PaymentLinkSchema = strictObject(
  {
    id: idOf('plink', 'Unique identifier.'),
    object: { type: 'string', const: 'payment_link' },
    livemode: { type: 'boolean' },
    merchant: nullable(idOf('mer', 'The merchant paid.')),
    type: { type: 'string', enum: ['one_time', 'recurring'] },
    amount: nullable(amount('Minor units, when the link has a single amount.')),
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217.' },
    line_items: nullable({
      type: 'array',
      maxItems: 20,
      description: 'What is sold, when the link lists items.',
      items: strictObject({
        description: { type: 'string' },
        quantity: { type: 'integer', minimum: 1 },
        unit_amount: amount('Minor units.'),
      }),
    }),
    amount_total: amount(
      'What the payer pays: amount, or the sum of the line items (computed by the server).',
    ),
    recurring: nullable(
      strictObject(
        {
          interval: { type: 'string', enum: ['day', 'week', 'month', 'year'] },
          interval_count: { type: 'integer', minimum: 1 },
        },
        'For recurring links: the billing cycle.',
      ),
    ),
    description: nullable({ type: 'string' }),
    max_completions: nullable({
      type: 'integer',
      minimum: 1,
      description: 'Payments after which the link completes.',
    }),
    completions_count: { type: 'integer', minimum: 0, description: 'Successful payments so far.' },
    expires_at: nullable({ ...timestamp('When the link stops accepting payments.') }),
    after_completion: nullable(
      strictObject({ redirect_url: { type: 'string', format: 'uri' } }, 'Where the payer goes after paying.'),
    ),
    client_reference_id: nullable({
      type: 'string',
      description: 'Your reference, carried onto each payment.',
    }),
    url: { type: 'string', format: 'uri', description: 'The hosted checkout page.' },
    status: { type: 'string', enum: ['active', 'inactive', 'completed', 'expired'] },
    metadata: schemaRef('Metadata'),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
  },
  'A shareable URL of a hosted checkout page that takes card payments for a fixed amount or list of items.',
);

export const PaymentLinkListSchema = listOf('PaymentLink', '/v1/payment-links');

/** The type of the payment link on the wire, derived from its schema: what `serializePaymentLink` returns. */
export type PaymentLink = FromContract<typeof PaymentLinkSchema>;
