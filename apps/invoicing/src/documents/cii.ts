// A finalized invoice as a UN/CEFACT Cross Industry Invoice (CII D16B) in the EN 16931
// profile (Factur-X 1.0 / ZUGFeRD 2.x "EN 16931", also XRechnung's CII syntax): the second
// serialisation of the EN 16931 model that en16931.ts maps the invoice to (ubl.ts is the
// first), so the two documents cannot disagree. Pure, no I/O. Element order follows the CII
// schema's sequences; dates are format 102 (YYYYMMDD).

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

const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};
/** The EN 16931 guideline (BT-24): Factur-X's "EN 16931" profile (its XMP ConformanceLevel). */
export const CII_GUIDELINE = 'urn:cen.eu:en16931:2017';

const date = (iso: string) =>
  `<udt:DateTimeString format="102">${iso.slice(0, 10).replace(/-/g, '')}</udt:DateTimeString>`;

function party(tag: string, p: EParty): string {
  const a = p.address;
  return `<ram:${tag}>
${el('ram:Name', p.legal_name)}
${p.legal_name !== p.name ? `<ram:SpecifiedLegalOrganization>${el('ram:TradingBusinessName', p.name)}</ram:SpecifiedLegalOrganization>` : ''}
<ram:DefinedTradeContact>${p.phone ? `<ram:TelephoneUniversalCommunication>${el('ram:CompleteNumber', p.phone)}</ram:TelephoneUniversalCommunication>` : ''}<ram:EmailURIUniversalCommunication>${el('ram:URIID', p.email)}</ram:EmailURIUniversalCommunication></ram:DefinedTradeContact>
<ram:PostalTradeAddress>${el('ram:PostcodeCode', a.postal_code)}${el('ram:LineOne', a.line1)}${el('ram:LineTwo', a.line2)}${el('ram:CityName', a.city)}${el('ram:CountryID', a.country)}${el('ram:CountrySubDivisionName', a.state)}</ram:PostalTradeAddress>
<ram:URIUniversalCommunication>${el('ram:URIID', p.email, ' schemeID="EM"')}</ram:URIUniversalCommunication>
${p.vat ? `<ram:SpecifiedTaxRegistration>${el('ram:ID', p.vat, ' schemeID="VA"')}</ram:SpecifiedTaxRegistration>` : ''}
</ram:${tag}>`;
}

/** A category and rate, as lines and allowances carry it (no amounts, no reason). */
const categoryTax = (tag: string, g: Pick<EBreakdown, 'category' | 'bps'>) =>
  `<ram:${tag}><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${g.category}</ram:CategoryCode><ram:RateApplicablePercent>${percentOf(g.bps)}</ram:RateApplicablePercent></ram:${tag}>`;

/**
 * The CII document, or throws a RangeError naming what is missing (missingForEInvoice):
 * callers check first and answer the client.
 */
export function invoiceToCii(invoice: SerializedInvoice): string {
  const e = toEInvoice(invoice);
  const amount = (name: string, minor: bigint, attrs = '') =>
    `<${name}${attrs}>${decimalOf(minor, e.currency)}</${name}>`;
  const lines = e.lines.map(
    (line) => `<ram:IncludedSupplyChainTradeLineItem>
<ram:AssociatedDocumentLineDocument><ram:LineID>${line.id}</ram:LineID></ram:AssociatedDocumentLineDocument>
<ram:SpecifiedTradeProduct>${el('ram:Name', line.name)}</ram:SpecifiedTradeProduct>
<ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice>${amount('ram:ChargeAmount', line.unit_price)}</ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
<ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="C62">${line.quantity}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
<ram:SpecifiedLineTradeSettlement>${categoryTax('ApplicableTradeTax', line)}<ram:SpecifiedTradeSettlementLineMonetarySummation>${amount('ram:LineTotalAmount', line.net)}</ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
</ram:IncludedSupplyChainTradeLineItem>`,
  );
  const breakdowns = e.breakdowns.map(
    (g) =>
      `<ram:ApplicableTradeTax>${amount('ram:CalculatedAmount', g.tax)}<ram:TypeCode>VAT</ram:TypeCode>${el('ram:ExemptionReason', g.reason)}${amount('ram:BasisAmount', g.taxable)}<ram:CategoryCode>${g.category}</ram:CategoryCode><ram:RateApplicablePercent>${percentOf(g.bps)}</ram:RateApplicablePercent></ram:ApplicableTradeTax>`,
  );
  const allowances = e.breakdowns
    .filter((g) => g.allowance > 0n)
    .map(
      (g) =>
        `<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false</udt:Indicator></ram:ChargeIndicator>${amount('ram:ActualAmount', g.allowance)}<ram:Reason>Discount</ram:Reason>${categoryTax('CategoryTradeTax', g)}</ram:SpecifiedTradeAllowanceCharge>`,
    );
  const delivery = e.delivery
    ? `<ram:ShipToTradeParty><ram:PostalTradeAddress>${el('ram:CountryID', e.delivery.country)}</ram:PostalTradeAddress></ram:ShipToTradeParty><ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime>${date(e.delivery.date)}</ram:OccurrenceDateTime></ram:ActualDeliverySupplyChainEvent>`
    : '';
  const terms =
    e.payment_terms || e.due_date
      ? `<ram:SpecifiedTradePaymentTerms>${el('ram:Description', e.payment_terms)}${e.due_date ? `<ram:DueDateDateTime>${date(e.due_date)}</ram:DueDateDateTime>` : ''}</ram:SpecifiedTradePaymentTerms>`
      : '';
  const t = e.totals;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="${NS.rsm}" xmlns:qdt="${NS.qdt}" xmlns:ram="${NS.ram}" xmlns:udt="${NS.udt}">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${CII_GUIDELINE}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument>
${el('ram:ID', e.number)}
<ram:TypeCode>380</ram:TypeCode>
<ram:IssueDateTime>${date(e.issue_date)}</ram:IssueDateTime>
${e.note ? `<ram:IncludedNote>${el('ram:Content', e.note)}</ram:IncludedNote>` : ''}
</rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
${lines.join('\n')}
<ram:ApplicableHeaderTradeAgreement>
${el('ram:BuyerReference', e.buyer_reference)}
${party('SellerTradeParty', e.seller)}
${party('BuyerTradeParty', e.buyer)}
</ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery>${delivery}</ram:ApplicableHeaderTradeDelivery>
<ram:ApplicableHeaderTradeSettlement>
<ram:InvoiceCurrencyCode>${esc(e.currency)}</ram:InvoiceCurrencyCode>
${breakdowns.join('\n')}
${allowances.join('\n')}
${terms}
<ram:SpecifiedTradeSettlementHeaderMonetarySummation>${amount('ram:LineTotalAmount', t.lines)}${amount('ram:AllowanceTotalAmount', t.allowances)}${amount('ram:TaxBasisTotalAmount', t.tax_exclusive)}${amount('ram:TaxTotalAmount', t.tax, ` currencyID="${esc(e.currency)}"`)}${amount('ram:GrandTotalAmount', t.tax_inclusive)}${amount('ram:TotalPrepaidAmount', t.prepaid)}${amount('ram:DuePayableAmount', t.due)}</ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement>
</rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
`.replace(/\n{2,}/g, '\n');
}
