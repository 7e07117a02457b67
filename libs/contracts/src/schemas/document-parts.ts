// The parts invoices and estimates share (lines, discount, totals, customer snapshot), described once
// so the two documents cannot drift apart; each caller passes the wording that names its document.

import { nullable, strictObject } from './json-schema';

export const currency = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217.' } as const;
export const money = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;
export const text = (description: string) => nullable({ type: 'string', description });

/**
 * VAT categories of a line (UNCL 5305, the EN 16931 subset built so far): S standard rated
 * (a positive rate), Z zero rated, E exempt, AE reverse charge (the last three at rate 0; E and
 * AE with an exemption reason).
 */
export const TAX_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G'] as const;

/** One computed line; `discountShare` and `description` name the document. */
export const documentLines = (discountShare: string, description: string) =>
  ({
    type: 'array',
    items: strictObject(
      {
        description: { type: 'string', maxLength: 500 },
        quantity: { type: 'integer', minimum: 1 },
        unit_amount: money('Minor units.'),
        tax_rate_bps: {
          type: 'integer',
          minimum: 0,
          maximum: 10_000,
          description: 'Basis points: 2000 = 20 %.',
        },
        amount: money('quantity x unit_amount, before discount and tax.'),
        discount_amount: money(discountShare),
        tax_amount: money('Tax on (amount - discount_amount), rounded half-even once.'),
        tax_category: {
          type: 'string',
          enum: TAX_CATEGORIES,
          description:
            'VAT category: S (standard rated), Z (zero rated), E (exempt), AE (reverse charge), K (intra-community supply), G (export outside the EU).',
        },
        tax_exemption_reason: text('Why no VAT is charged (E, AE, K and G lines).'),
      },
      description,
    ),
    maxItems: 250,
  }) as const;

export const documentDiscount = (description: string) =>
  nullable({
    type: 'object',
    description,
    properties: {
      percent_bps: { type: 'integer', minimum: 1, maximum: 10_000 },
      amount: { type: 'integer', minimum: 1 },
    },
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
  });

export const documentTotals = {
  subtotal: money('Sum of the line amounts.'),
  discount_total: money('Never more than the subtotal.'),
  tax_total: money('Sum of the line taxes.'),
  total: money('subtotal - discount_total + tax_total.'),
} as const;

export const address = nullable(
  strictObject({
    line1: text('Line 1.'),
    line2: text('Line 2.'),
    city: text('City.'),
    postal_code: text('Postal code.'),
    state: text('State or region.'),
    country: text('ISO 3166-1 alpha-2.'),
  }),
);

/** The customer as the document froze it; `description` says when. */
export const customerDetails = (description: string) =>
  nullable(
    strictObject(
      {
        name: text('Name.'),
        email: text('E-mail address.'),
        phone: text('Phone.'),
        address,
        tax_id: text('Tax id.'),
        preferred_locales: {
          type: 'array',
          items: { type: 'string' },
          description:
            "The customer's languages: the document's pages, e-mails and PDF use the first supported one.",
        },
      },
      description,
    ),
  );

/** Tax ids as the account profile keeps them (docs/api.md §5). */
export const TAX_ID_TYPES = ['eu_vat', 'gb_vat', 'ch_vat', 'no_vat', 'us_ein', 'au_abn'] as const;
export const taxIds = {
  type: 'array',
  maxItems: 5,
  items: strictObject({
    type: { type: 'string', enum: TAX_ID_TYPES },
    value: { type: 'string', description: 'Normalised: upper case, without spaces or dots.' },
  }),
} as const;

/** The seller as an invoice froze it at finalization, from the account's business profile. */
export const sellerDetails = (description: string) =>
  nullable(
    strictObject(
      {
        name: text('The trading name (else the legal name, else the account name).'),
        legal_name: text('Legal name.'),
        address,
        tax_ids: taxIds,
        email: text('Support e-mail address.'),
        phone: text('Support phone.'),
        website: text('Website.'),
        footer: text('The invoice footer.'),
      },
      description,
    ),
  );
