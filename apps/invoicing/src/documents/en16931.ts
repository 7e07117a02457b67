// One mapping from a finalized invoice (its public JSON: seller and customer snapshots, lines,
// totals) to the EN 16931 semantic model, and the checks of what the norm requires. The two
// syntaxes are serialisations of this model and nothing else: UBL 2.1 (ubl.ts) and UN/CEFACT
// CII D16B (cii.ts, embedded in the Factur-X PDF). Pure, no I/O; amounts stay bigint minor
// units until a serialiser writes them with the currency's exponent (decimalOf).
//
// Each line carries its VAT category (S, Z, E, AE, K, G) and, for all but S and Z, the
// exemption reason its breakdown states. The discount, taken off before tax and split across
// the lines, becomes one document-level allowance per VAT category and rate (the sum of that
// group's shares), so every breakdown's taxable amount is its lines' net amount minus its
// allowance exactly (BR-CO-... sums hold to the cent).

import { currencyExponent, toMinor } from '@paygrid/platform';
import type { SerializedInvoice } from '../invoices/invoice.serializer';
import { checkTaxId, EU_VAT_FORMATS, type TaxIdType } from '../account/tax-ids';
import type { TaxCategory } from '../invoices/totals';

export type VatCategory = TaxCategory;

/** Minor units as a decimal with the currency's exponent: 447738 EUR -> "4477.38". */
export function decimalOf(minor: bigint, currency: string): string {
  const exponent = currencyExponent(currency);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** Basis points as a percentage: 2000 -> "20", 525 -> "5.25". */
export function percentOf(bps: number): string {
  const fraction = String(bps % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${Math.trunc(bps / 100)}${fraction ? `.${fraction}` : ''}`;
}

/** A line's category: its own, else derived from its rate (lines stored before categories). */
export const vatCategoryOf = (line: { tax_rate_bps: number; tax_category?: string | null }): VatCategory =>
  (line.tax_category as VatCategory | undefined) ?? (line.tax_rate_bps > 0 ? 'S' : 'Z');

/** The tax id types whose numbers start with these prefixes (the seller's profile checks the same). */
const VAT_TYPE_OF_PREFIX: Readonly<Record<string, TaxIdType>> = {
  ...Object.fromEntries([...Object.keys(EU_VAT_FORMATS), 'GR'].map((p) => [p, 'eu_vat' as const])),
  GB: 'gb_vat',
  CH: 'ch_vat',
  NO: 'no_vat',
};

/**
 * The customer's tax id read as a VAT number (BT-48): `vat` when it has a country prefix
 * (BR-CO-9) and, for the EU, the UK, Switzerland and Norway, the format of that country's
 * numbers (as the seller's are checked); `problem` says why a number with such a prefix is
 * not one. Neither for an id that is not a VAT number (a US EIN, nothing).
 */
export function buyerVatOf(taxId: string | null | undefined): { vat: string | null; problem?: string } {
  const value = taxId?.toUpperCase().replace(/[\s.-]/g, '') ?? '';
  const type = VAT_TYPE_OF_PREFIX[value.slice(0, 2)];
  if (type) {
    const checked = checkTaxId(type, value);
    return 'problem' in checked ? { vat: null, problem: checked.problem } : { vat: checked.value };
  }
  return { vat: /^[A-Z]{2}[0-9A-Z+*]{2,13}$/.test(value) ? value : null };
}

export const buyerVat = (taxId: string | null | undefined): string | null => buyerVatOf(taxId).vat;

/** What EN 16931 needs that the invoice does not have; empty when the XML can be built. */
export function missingForEInvoice(invoice: SerializedInvoice): string[] {
  const missing: string[] = [];
  if (invoice.status === 'draft' || !invoice.number) missing.push('a number (finalize the invoice)');
  const seller = invoice.seller;
  if (!seller?.name) missing.push("the seller's name (POST /v1/account)");
  if (!seller?.address?.country) missing.push("the seller's country (POST /v1/account address)");
  if (!seller?.email) missing.push("the seller's electronic address (support_email)");
  // BR-S-02, BR-Z-02, BR-E-02, BR-AE-02, BR-IC-02, BR-G-02: every category here needs the seller's VAT number.
  if (!seller?.tax_ids.some((t) => t.type.endsWith('_vat')))
    missing.push("the seller's VAT number (tax_ids)");
  const customer = invoice.customer_details;
  if (!customer?.name) missing.push("the customer's name");
  if (!customer?.address?.country) missing.push("the customer's country (address)");
  if (!customer?.email) missing.push("the customer's e-mail (its electronic address)");
  const categories = new Set(invoice.lines.map(vatCategoryOf));
  // BR-AE-02 and BR-IC-02: reverse charge and intra-community supply name the buyer's VAT number.
  const buyer = buyerVatOf(customer?.tax_id);
  if ((categories.has('AE') || categories.has('K')) && !buyer.vat)
    missing.push(
      `the customer's VAT number (tax_id, for reverse charge or an intra-community supply${buyer.problem ? `: ${buyer.problem}` : ''})`,
    );
  if (!invoice.lines.length) missing.push('at least one line');
  return missing;
}

export interface EAddress {
  line1: string | null;
  line2: string | null;
  city: string | null;
  postal_code: string | null;
  state: string | null;
  country: string | null;
}

export interface EParty {
  name: string;
  legal_name: string;
  email: string;
  phone: string | null;
  vat: string | null;
  address: EAddress;
}

/** One VAT breakdown (BG-23): a category and rate, its taxable amount, tax and allowance. */
export interface EBreakdown {
  category: VatCategory;
  bps: number;
  reason: string | null;
  /** The lines' net amounts (before the discount). */
  net: bigint;
  /** The group's share of the discount: one document allowance (BG-20). */
  allowance: bigint;
  taxable: bigint;
  tax: bigint;
}

export interface ELine {
  id: string;
  name: string;
  quantity: number;
  unit_price: bigint;
  net: bigint;
  category: VatCategory;
  bps: number;
}

export interface EInvoice {
  number: string;
  /** YYYY-MM-DD. */
  issue_date: string;
  due_date: string | null;
  currency: string;
  note: string | null;
  buyer_reference: string | null;
  seller: EParty;
  buyer: EParty;
  /** BG-13, for intra-community supplies (BR-IC-11, BR-IC-12): when and to which country. */
  delivery: { date: string; country: string } | null;
  /** BT-20, when there is an amount due and no due date (BR-CO-25). */
  payment_terms: string | null;
  breakdowns: EBreakdown[];
  lines: ELine[];
  totals: {
    lines: bigint;
    allowances: bigint;
    tax_exclusive: bigint;
    tax: bigint;
    tax_inclusive: bigint;
    prepaid: bigint;
    due: bigint;
  };
}

const address = (a: Partial<EAddress> | null | undefined): EAddress => ({
  line1: a?.line1 ?? null,
  line2: a?.line2 ?? null,
  city: a?.city ?? null,
  postal_code: a?.postal_code ?? null,
  state: a?.state ?? null,
  country: a?.country ?? null,
});

/**
 * The invoice in the EN 16931 model, or throws a RangeError naming what is missing
 * (missingForEInvoice): callers check first and answer the client.
 */
export function toEInvoice(invoice: SerializedInvoice): EInvoice {
  const missing = missingForEInvoice(invoice);
  const seller = invoice.seller;
  const customer = invoice.customer_details;
  if (missing.length || !seller || !customer || !invoice.number)
    throw new RangeError(`missing: ${missing.join(', ')}`);

  const groups = new Map<string, EBreakdown>();
  for (const line of invoice.lines) {
    const category = vatCategoryOf(line);
    const key = `${category}:${line.tax_rate_bps}`;
    const group = groups.get(key) ?? {
      category,
      bps: line.tax_rate_bps,
      reason: line.tax_exemption_reason ?? null,
      net: 0n,
      allowance: 0n,
      taxable: 0n,
      tax: 0n,
    };
    group.net += toMinor(line.amount);
    group.allowance += toMinor(line.discount_amount ?? 0);
    group.tax += toMinor(line.tax_amount ?? 0);
    group.taxable = group.net - group.allowance;
    groups.set(key, group);
  }
  const issued = (invoice.status_transitions.finalized_at ?? invoice.created_at ?? '').slice(0, 10);
  const subtotal = toMinor(invoice.subtotal);
  const discount = toMinor(invoice.discount_total);
  const due = toMinor(invoice.amount_due);
  const intraCommunity = invoice.lines.some((l) => vatCategoryOf(l) === 'K');
  return {
    number: invoice.number,
    issue_date: issued,
    due_date: invoice.due_date ? invoice.due_date.slice(0, 10) : null,
    currency: invoice.currency,
    note: invoice.description ?? null,
    buyer_reference: invoice.customer,
    seller: {
      name: seller.name ?? '',
      legal_name: seller.legal_name ?? seller.name ?? '',
      email: seller.email ?? '',
      phone: seller.phone ?? null,
      vat: seller.tax_ids.find((t) => t.type.endsWith('_vat'))?.value ?? null,
      address: address(seller.address),
    },
    buyer: {
      name: customer.name ?? '',
      legal_name: customer.name ?? '',
      email: customer.email ?? '',
      phone: customer.phone ?? null,
      vat: buyerVat(customer.tax_id),
      address: address(customer.address),
    },
    // The model keeps no separate delivery address or date: an intra-community supply is
    // declared delivered on the issue date to the customer's country (its billing address).
    delivery: intraCommunity ? { date: issued, country: customer.address?.country ?? '' } : null,
    payment_terms: !invoice.due_date && due > 0n ? 'Charged to the payment method on file.' : null,
    breakdowns: [...groups.values()],
    lines: invoice.lines.map((line, i) => ({
      id: String(i + 1),
      name: line.description.slice(0, 200),
      quantity: line.quantity,
      unit_price: toMinor(line.unit_amount),
      net: toMinor(line.amount),
      category: vatCategoryOf(line),
      bps: line.tax_rate_bps,
    })),
    totals: {
      lines: subtotal,
      allowances: discount,
      tax_exclusive: subtotal - discount,
      tax: toMinor(invoice.tax_total),
      tax_inclusive: toMinor(invoice.total),
      prepaid: toMinor(invoice.amount_paid),
      due,
    },
  };
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
export const escapeXml = (value: string) => value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

/** `<name attrs>value</name>`, or nothing when the value is empty. */
export const el = (name: string, value: string | null | undefined, attrs = '') =>
  value === null || value === undefined || value === ''
    ? ''
    : `<${name}${attrs}>${escapeXml(value)}</${name}>`;
