// The customer object and its billing history (docs/api.md §6), exactly as the invoicing
// service serialises them.

import {
  idOf,
  listOf,
  nullable,
  schemaRef,
  strictObject,
  timestamp,
  withoutRequired,
  type FromContract,
} from './json-schema';

const text = (maxLength: number, description?: string) =>
  nullable({ type: 'string', maxLength, ...(description ? { description } : {}) });
const currency = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217.' } as const;
const money = (description: string) => ({ type: 'integer', description }) as const;

const customer = strictObject(
  {
    id: idOf('cus', 'Unique identifier.'),
    object: { type: 'string', const: 'customer' },
    livemode: { type: 'boolean' },
    name: text(200),
    email: nullable({ type: 'string', format: 'email' }),
    phone: text(40),
    address: nullable(
      strictObject({
        line1: text(200),
        line2: text(200),
        city: text(100),
        postal_code: text(20),
        state: text(100),
        country: nullable({ type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' }),
      }),
    ),
    tax_id: text(50),
    currency: nullable({ ...currency, description: 'The currency the customer is billed in.' }),
    external_id: text(100, "Your id for the customer; unique among the account's customers."),
    default_mandate: nullable(idOf('mdt', 'The mandate charged when invoices are paid automatically.')),
    preferred_locales: {
      type: 'array',
      maxItems: 5,
      items: { type: 'string', pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$' },
      description:
        'Languages, most preferred first: pages, e-mails and PDFs use the first supported one (en, de, fr, es, pl).',
    },
    test_clock: nullable(idOf('clock', 'The test clock the customer runs on (test mode).')),
    metadata: schemaRef('Metadata'),
    deleted: { type: 'boolean', description: 'Whether the customer is archived (`DELETE`).' },
    deleted_at: nullable(timestamp('When the customer was archived.')),
    created_at: timestamp('Creation time.'),
    updated_at: timestamp('Last change.'),
    billing_summary: strictObject(
      {
        total_invoiced: money(
          "Sum of the totals of the finalized invoices (open, paid, uncollectible; not void) in the customer's `currency`, minor units.",
        ),
        total_paid: money(
          'Succeeded payments of the customer in its `currency`, minor units (refunds not deducted).',
        ),
        balance_due: money('Still owed on open invoices (their `amount_due`), minor units.'),
        currency: nullable(currency),
        invoice_count: {
          type: 'integer',
          minimum: 0,
          description: 'Finalized invoices counted in `total_invoiced`.',
        },
      },
      'Only when the customer is retrieved on its own (`GET /v1/customers/:id`).',
    ),
  },
  'Someone you bill. `DELETE` archives: the customer stays readable, marked `deleted`.',
);

export const CustomerSchema = {
  ...customer,
  required: withoutRequired(customer, 'billing_summary'),
};

export const CustomerListSchema = listOf('Customer', '/v1/customers');

export const BillingHistoryItemSchema = strictObject(
  {
    object: { type: 'string', const: 'billing_history_item' },
    type: {
      type: 'string',
      enum: ['payment', 'refund', 'invoice'],
      description: 'A payment, a refund of one, or a finalized invoice (dated by its finalization).',
    },
    id: {
      type: 'string',
      pattern: '^[a-z]+_[0-9A-Za-z]{8,64}$',
      description: 'The id of the payment (`txn_`), refund (`re_`) or invoice (`inv_`).',
      examples: ['txn_4fQk2nT8bW1xZc9LmP0aRs7e'],
    },
    status: {
      type: 'string',
      description: "The latest status, e.g. `succeeded`, or the invoice's `open`, `paid`...",
    },
    amount: nullable({ type: 'integer', minimum: 0, description: 'Minor units (an invoice: its `total`).' }),
    currency: nullable(currency),
    occurred_at: timestamp('When it happened (its first event).'),
    updated_at: timestamp('Its latest event.'),
  },
  "One entry of a customer's billing history.",
);

export const BillingHistorySchema = strictObject(
  {
    object: { type: 'string', const: 'list' },
    data: { type: 'array', items: BillingHistoryItemSchema, description: 'Newest first.' },
    has_more: { type: 'boolean', description: 'Whether another page follows this one.' },
    url: {
      type: 'string',
      pattern: '^/v1/customers/cus_[0-9A-Za-z]{8,64}/billing-history$',
      description: 'The list endpoint.',
    },
  },
  "A page of a customer's billing history: invoices, payments and refunds, newest first.",
);

export const PortalSessionSchema = strictObject(
  {
    id: idOf('bps', 'Unique identifier (sessions are not stored: the link itself is the credential).'),
    object: { type: 'string', const: 'portal_session' },
    livemode: { type: 'boolean' },
    customer: idOf('cus', 'The customer the portal shows.'),
    url: {
      type: 'string',
      format: 'uri',
      description:
        'The portal: a signed link to send the customer to (`/portal/<token>`), valid until `expires_at`.',
    },
    return_url: nullable({ type: 'string', format: 'uri', description: 'Where "Return to ..." leads.' }),
    locale: nullable({
      type: 'string',
      description: "The portal's language when given; otherwise the customer's `preferred_locales`.",
    }),
    expires_at: timestamp('When the link stops working.'),
    created_at: timestamp('Creation time.'),
  },
  "A customer's access to the customer portal: open and paid invoices, subscriptions, saved cards.",
);

/** The type of the customer on the wire, derived from its schema: what `serializeCustomer` returns. */
export type Customer = FromContract<typeof CustomerSchema>;

/** The type of one billing-history entry on the wire, derived from its schema: what `serializeBillingHistoryItem` returns. */
export type BillingHistoryItem = FromContract<typeof BillingHistoryItemSchema>;

/** The type of a portal session on the wire, derived from its schema. */
export type PortalSession = FromContract<typeof PortalSessionSchema>;
