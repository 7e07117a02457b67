// A finalized invoice as a UBL 2.1 Invoice in the shape of PEPPOL BIS Billing 3.0 (EN 16931):
// one serialisation of the EN 16931 model that en16931.ts maps the invoice to (cii.ts is the
// other). Pure, no I/O. The element order is the UBL schema's (it is a sequence). Amounts are
// the invoice's own minor units written as decimals, so the XML's totals equal the invoice's.

import type { SerializedInvoice } from '../invoices/invoice.serializer';
import {
  decimalOf,
  el,
  escapeXml as esc,
  percentOf,
  toEInvoice,
  type EBreakdown,
  type EParty,
} from './en16931';

export { decimalOf, missingForEInvoice, percentOf, vatCategoryOf, type VatCategory } from './en16931';

const NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
const CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

function party(p: EParty): string {
  const a = p.address;
  return `<cac:Party>
${el('cbc:EndpointID', p.email, ' schemeID="EM"')}
<cac:PartyName>${el('cbc:Name', p.name)}</cac:PartyName>
<cac:PostalAddress>${el('cbc:StreetName', a.line1)}${el('cbc:AdditionalStreetName', a.line2)}${el('cbc:CityName', a.city)}${el('cbc:PostalZone', a.postal_code)}${el('cbc:CountrySubentity', a.state)}<cac:Country>${el('cbc:IdentificationCode', a.country)}</cac:Country></cac:PostalAddress>
${p.vat ? `<cac:PartyTaxScheme>${el('cbc:CompanyID', p.vat)}<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>` : ''}
<cac:PartyLegalEntity>${el('cbc:RegistrationName', p.legal_name)}</cac:PartyLegalEntity>
<cac:Contact>${el('cbc:Telephone', p.phone)}${el('cbc:ElectronicMail', p.email)}</cac:Contact>
</cac:Party>`;
}

/** A TaxCategory: the reason only in the VAT breakdown and document allowances (not on lines). */
const taxCategory = (tag: string, g: Pick<EBreakdown, 'category' | 'bps'> & { reason?: string | null }) =>
  `<${tag}><cbc:ID>${g.category}</cbc:ID><cbc:Percent>${percentOf(g.bps)}</cbc:Percent>${el('cbc:TaxExemptionReason', g.reason)}<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></${tag}>`;

/**
 * The UBL document, or throws a RangeError naming what is missing (missingForEInvoice):
 * callers check first and answer the client.
 */
export function invoiceToUbl(invoice: SerializedInvoice): string {
  const e = toEInvoice(invoice);
  const money = (name: string, minor: bigint) =>
    `<${name} currencyID="${esc(e.currency)}">${decimalOf(minor, e.currency)}</${name}>`;
  const allowances = e.breakdowns
    .filter((g) => g.allowance > 0n)
    .map(
      (g) =>
        `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReason>Discount</cbc:AllowanceChargeReason>${money('cbc:Amount', g.allowance)}${taxCategory('cac:TaxCategory', g)}</cac:AllowanceCharge>`,
    );
  const subtotals = e.breakdowns.map(
    (g) =>
      `<cac:TaxSubtotal>${money('cbc:TaxableAmount', g.taxable)}${money('cbc:TaxAmount', g.tax)}${taxCategory('cac:TaxCategory', g)}</cac:TaxSubtotal>`,
  );
  const lines = e.lines.map(
    (line) => `<cac:InvoiceLine>
<cbc:ID>${line.id}</cbc:ID>
<cbc:InvoicedQuantity unitCode="C62">${line.quantity}</cbc:InvoicedQuantity>
${money('cbc:LineExtensionAmount', line.net)}
<cac:Item>${el('cbc:Name', line.name)}${taxCategory('cac:ClassifiedTaxCategory', line)}</cac:Item>
<cac:Price>${money('cbc:PriceAmount', line.unit_price)}</cac:Price>
</cac:InvoiceLine>`,
  );
  const delivery = e.delivery
    ? `<cac:Delivery><cbc:ActualDeliveryDate>${e.delivery.date}</cbc:ActualDeliveryDate><cac:DeliveryLocation><cac:Address><cac:Country>${el('cbc:IdentificationCode', e.delivery.country)}</cac:Country></cac:Address></cac:DeliveryLocation></cac:Delivery>`
    : '';
  const terms = e.payment_terms
    ? `<cac:PaymentTerms>${el('cbc:Note', e.payment_terms)}</cac:PaymentTerms>`
    : '';
  const t = e.totals;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="${NS.invoice}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}">
<cbc:CustomizationID>${CUSTOMIZATION}</cbc:CustomizationID>
<cbc:ProfileID>${PROFILE}</cbc:ProfileID>
${el('cbc:ID', e.number)}
<cbc:IssueDate>${e.issue_date}</cbc:IssueDate>
${e.due_date ? `<cbc:DueDate>${e.due_date}</cbc:DueDate>` : ''}
<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
${el('cbc:Note', e.note)}
<cbc:DocumentCurrencyCode>${esc(e.currency)}</cbc:DocumentCurrencyCode>
${el('cbc:BuyerReference', e.buyer_reference)}
<cac:AccountingSupplierParty>${party(e.seller)}</cac:AccountingSupplierParty>
<cac:AccountingCustomerParty>${party(e.buyer)}</cac:AccountingCustomerParty>
${delivery}
${terms}
${allowances.join('\n')}
<cac:TaxTotal>${money('cbc:TaxAmount', t.tax)}
${subtotals.join('\n')}
</cac:TaxTotal>
<cac:LegalMonetaryTotal>${money('cbc:LineExtensionAmount', t.lines)}${money('cbc:TaxExclusiveAmount', t.tax_exclusive)}${money('cbc:TaxInclusiveAmount', t.tax_inclusive)}${money('cbc:AllowanceTotalAmount', t.allowances)}${money('cbc:PrepaidAmount', t.prepaid)}${money('cbc:PayableAmount', t.due)}</cac:LegalMonetaryTotal>
${lines.join('\n')}
</Invoice>
`.replace(/\n{2,}/g, '\n');
}
