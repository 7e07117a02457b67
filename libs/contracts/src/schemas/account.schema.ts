// The account's business profile (docs/api.md §5), exactly as the invoicing service serialises it.

import { address, taxIds } from './document-parts';
import { nullable, strictObject, timestamp, type FromContract } from './json-schema';

const text = (description: string, maxLength: number) => nullable({ type: 'string', maxLength, description });

export const AccountSchema = strictObject(
  {
    id: { type: 'string', pattern: '^acct_[0-9A-Za-z]{8,64}$', description: 'The account.' },
    object: { type: 'string', const: 'account' },
    legal_name: text('The registered name, on invoices.', 200),
    trading_name: text('The name customers know (pages, e-mail sender, invoices).', 200),
    address,
    tax_ids: taxIds,
    support_email: nullable({ type: 'string', format: 'email', description: 'Reply-To of every e-mail.' }),
    support_phone: text('Shown on the pages and documents.', 40),
    website: nullable({ type: 'string', format: 'uri' }),
    brand_color: nullable({ type: 'string', pattern: '^#[0-9a-f]{6}$', description: '#rrggbb.' }),
    statement_descriptor: text('What card statements show (5-22 characters).', 22),
    invoice_footer: text('Printed at the foot of every invoice page.', 500),
    payment_terms_days: nullable({
      type: 'integer',
      minimum: 0,
      maximum: 365,
      description: 'Default days until an invoice is due.',
    }),
    receipts: strictObject(
      {
        payments: { type: 'boolean', description: 'E-mail a receipt when a payment succeeds.' },
        refunds: { type: 'boolean', description: 'E-mail a refund notice when a refund succeeds.' },
      },
      'Which receipts are e-mailed to your customers (docs/adr/0012).',
    ),
    portal_subscription_cancel: {
      type: 'boolean',
      description: 'Whether customers may cancel subscriptions at period end in the customer portal.',
    },
    logo_url: nullable({ type: 'string', format: 'uri', description: 'Public; changes with the image.' }),
    version: { type: 'integer', minimum: 0, description: 'Grows with every change.' },
    updated_at: nullable(timestamp('Last change (null: never set).')),
  },
  "The seller's identity on every page, document and e-mail the account's customers receive.",
);

/** The type of the account's business profile on the wire, derived from its schema: what `serializeAccount (invoicing)` returns. */
export type Account = FromContract<typeof AccountSchema>;
