// A finalized invoice as a UBL 2.1 Invoice in the shape of PEPPOL BIS Billing 3.0 (EN 16931),
// built from the invoice's public JSON: its seller and customer snapshots, lines and totals.
// Pure, no I/O. The element order is the UBL schema's (it is a sequence). Amounts are the
// invoice's own minor units written as decimals, so the XML's totals equal the invoice's.
//
// Each line carries its VAT category (S, Z, E, AE) and, for E and AE, the exemption reason
// its breakdown states. The discount, taken off before tax and split across the lines,
// becomes one document-level allowance per VAT category and rate (the sum of that group's
// shares), so every breakdown's taxable amount is its lines' net amount minus its allowance
// exactly.

import { currencyExponent, toMinor } from '@paygrid/platform';
import type { SerializedInvoice } from '../invoices/invoice.serializer';

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
const CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
const esc = (value: string) => value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

/** `<cbc:Name>value</cbc:Name>`, or nothing when the value is empty. */
const el = (name: string, value: string | null | undefined, attrs = '') =>
  value === null || value === undefined || value === '' ? '' : `<${name}${attrs}>${esc(value)}</${name}>`;

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

export type VatCategory = 'S' | 'Z' | 'E' | 'AE';
/** A line's category: its own, else derived from its rate (lines stored before categories). */
export const vatCategoryOf = (line: { tax_rate_bps: number; tax_category?: string | null }): VatCategory =>
  (line.tax_category as VatCategory | undefined) ?? (line.tax_rate_bps > 0 ? 'S' : 'Z');

/** What EN 16931 needs that the invoice does not have; empty when the XML can be built. */
export function missingForEInvoice(invoice: SerializedInvoice): string[] {
  const missing: string[] = [];
  if (invoice.status === 'draft' || !invoice.number) missing.push('a number (finalize the invoice)');
  const seller = invoice.seller;
  if (!seller?.name) missing.push("the seller's name (POST /v1/account)");
  if (!seller?.address?.country) missing.push("the seller's country (POST /v1/account address)");
  if (!seller?.email) missing.push("the seller's electronic address (support_email)");
  // BR-S-02, BR-Z-02, BR-E-02, BR-AE-02: every VAT category needs the seller's VAT number.
  if (!seller?.tax_ids.some((t) => t.type.endsWith('_vat')))
    missing.push("the seller's VAT number (tax_ids)");
  const customer = invoice.customer_details;
  if (!customer?.name) missing.push("the customer's name");
  if (!customer?.address?.country) missing.push("the customer's country (address)");
  if (!customer?.email) missing.push("the customer's e-mail (its electronic address)");
  // BR-AE-02: a reverse-charge invoice names the buyer's VAT number.
  if (invoice.lines.some((l) => vatCategoryOf(l) === 'AE') && !buyerVat(customer?.tax_id ?? null))
    missing.push("the customer's VAT number (tax_id, for reverse charge)");
  if (!invoice.lines.length) missing.push('at least one line');
  return missing;
}

interface Group {
  category: VatCategory;
  bps: number;
  reason: string | null;
  net: bigint;
  allowance: bigint;
  tax: bigint;
}

type Party = {
  name: string | null;
  legal_name?: string | null;
  email: string | null;
  phone?: string | null;
  vat?: string | null;
  address: {
    line1: string | null;
    line2: string | null;
    city: string | null;
    postal_code: string | null;
    state: string | null;
    country: string | null;
  } | null;
};

function party(p: Party): string {
  const a = p.address;
  return `<cac:Party>
${el('cbc:EndpointID', p.email, ' schemeID="EM"')}
<cac:PartyName>${el('cbc:Name', p.name)}</cac:PartyName>
<cac:PostalAddress>${el('cbc:StreetName', a?.line1)}${el('cbc:AdditionalStreetName', a?.line2)}${el('cbc:CityName', a?.city)}${el('cbc:PostalZone', a?.postal_code)}${el('cbc:CountrySubentity', a?.state)}<cac:Country>${el('cbc:IdentificationCode', a?.country)}</cac:Country></cac:PostalAddress>
${p.vat ? `<cac:PartyTaxScheme>${el('cbc:CompanyID', p.vat)}<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>` : ''}
<cac:PartyLegalEntity>${el('cbc:RegistrationName', p.legal_name ?? p.name)}</cac:PartyLegalEntity>
${p.phone || p.email ? `<cac:Contact>${el('cbc:Telephone', p.phone)}${el('cbc:ElectronicMail', p.email)}</cac:Contact>` : ''}
</cac:Party>`;
}

/** The customer's tax id when it reads as a VAT number (a country prefix, BR-CO-9); else none. */
function buyerVat(taxId: string | null): string | null {
  const value = taxId?.toUpperCase().replace(/[\s.-]/g, '') ?? '';
  return /^[A-Z]{2}[0-9A-Z+*]{2,13}$/.test(value) ? value : null;
}

/** A TaxCategory: the reason only in the VAT breakdown and document allowances (not on lines). */
const taxCategory = (tag: string, g: Pick<Group, 'category' | 'bps'> & { reason?: string | null }) =>
  `<${tag}><cbc:ID>${g.category}</cbc:ID><cbc:Percent>${percentOf(g.bps)}</cbc:Percent>${el('cbc:TaxExemptionReason', g.reason)}<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></${tag}>`;

/**
 * The UBL document, or throws a RangeError naming what is missing (missingForEInvoice):
 * callers check first and answer the client.
 */
export function invoiceToUbl(invoice: SerializedInvoice): string {
  const missing = missingForEInvoice(invoice);
  if (missing.length) throw new RangeError(`missing: ${missing.join(', ')}`);
  const currency = invoice.currency;
  const money = (name: string, minor: bigint) =>
    `<${name} currencyID="${esc(currency)}">${decimalOf(minor, currency)}</${name}>`;
  const seller = invoice.seller;
  const customer = invoice.customer_details;
  if (!seller || !customer) throw new RangeError('missing: seller or customer');

  const groups = new Map<string, Group>();
  for (const line of invoice.lines) {
    const category = vatCategoryOf(line);
    const key = `${category}:${line.tax_rate_bps}`;
    const group = groups.get(key) ?? {
      category,
      bps: line.tax_rate_bps,
      reason: line.tax_exemption_reason ?? null,
      net: 0n,
      allowance: 0n,
      tax: 0n,
    };
    group.net += toMinor(line.amount);
    group.allowance += toMinor(line.discount_amount ?? 0);
    group.tax += toMinor(line.tax_amount ?? 0);
    groups.set(key, group);
  }
  const issued = (invoice.status_transitions.finalized_at ?? invoice.created_at ?? '').slice(0, 10);
  const subtotal = toMinor(invoice.subtotal);
  const discount = toMinor(invoice.discount_total);
  const tax = toMinor(invoice.tax_total);
  const total = toMinor(invoice.total);
  const paid = toMinor(invoice.amount_paid);
  const due = toMinor(invoice.amount_due);
  const sellerVat = seller.tax_ids.find((t) => t.type.endsWith('_vat'))?.value ?? null;

  const allowances = [...groups.values()]
    .filter((g) => g.allowance > 0n)
    .map(
      (g) =>
        `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReason>Discount</cbc:AllowanceChargeReason>${money('cbc:Amount', g.allowance)}${taxCategory('cac:TaxCategory', g)}</cac:AllowanceCharge>`,
    );
  const subtotals = [...groups.values()].map(
    (g) =>
      `<cac:TaxSubtotal>${money('cbc:TaxableAmount', g.net - g.allowance)}${money('cbc:TaxAmount', g.tax)}${taxCategory('cac:TaxCategory', g)}</cac:TaxSubtotal>`,
  );
  const lines = invoice.lines.map(
    (line, i) => `<cac:InvoiceLine>
<cbc:ID>${i + 1}</cbc:ID>
<cbc:InvoicedQuantity unitCode="C62">${line.quantity}</cbc:InvoicedQuantity>
${money('cbc:LineExtensionAmount', toMinor(line.amount))}
<cac:Item>${el('cbc:Name', line.description.slice(0, 200))}${taxCategory('cac:ClassifiedTaxCategory', { category: vatCategoryOf(line), bps: line.tax_rate_bps })}</cac:Item>
<cac:Price>${money('cbc:PriceAmount', toMinor(line.unit_amount))}</cac:Price>
</cac:InvoiceLine>`,
  );
  // BR-CO-25: an amount due needs a due date or payment terms; automatic collection has none.
  const terms =
    !invoice.due_date && due > 0n
      ? `<cac:PaymentTerms><cbc:Note>Charged to the payment method on file.</cbc:Note></cac:PaymentTerms>`
      : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="${NS.invoice}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}">
<cbc:CustomizationID>${CUSTOMIZATION}</cbc:CustomizationID>
<cbc:ProfileID>${PROFILE}</cbc:ProfileID>
${el('cbc:ID', invoice.number)}
<cbc:IssueDate>${issued}</cbc:IssueDate>
${invoice.due_date ? `<cbc:DueDate>${invoice.due_date.slice(0, 10)}</cbc:DueDate>` : ''}
<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
${el('cbc:Note', invoice.description)}
<cbc:DocumentCurrencyCode>${esc(currency)}</cbc:DocumentCurrencyCode>
${el('cbc:BuyerReference', invoice.customer)}
<cac:AccountingSupplierParty>${party({ ...seller, vat: sellerVat })}</cac:AccountingSupplierParty>
<cac:AccountingCustomerParty>${party({ ...customer, vat: buyerVat(customer.tax_id) })}</cac:AccountingCustomerParty>
${terms}
${allowances.join('\n')}
<cac:TaxTotal>${money('cbc:TaxAmount', tax)}
${subtotals.join('\n')}
</cac:TaxTotal>
<cac:LegalMonetaryTotal>${money('cbc:LineExtensionAmount', subtotal)}${money('cbc:TaxExclusiveAmount', subtotal - discount)}${money('cbc:TaxInclusiveAmount', total)}${money('cbc:AllowanceTotalAmount', discount)}${money('cbc:PrepaidAmount', paid)}${money('cbc:PayableAmount', due)}</cac:LegalMonetaryTotal>
${lines.join('\n')}
</Invoice>
`.replace(/\n{2,}/g, '\n');
}
