// The lines-and-totals part of a document's PDF view, shared by invoices and estimates
// (their stored and public parts: invoices/document-parts.ts).
// Amounts stay integer minor units throughout (toMinor, never a float).

import { formatMinor, toMinor } from '@paygrid/platform';
import type { CustomerSnapshot, StoredLine } from '../invoices/document-parts';
import { formatRate } from './format-rate';
import type { InvoiceDocumentView } from './invoice-pdf';

type Amount = number | string | null | undefined;
const big = (value: Amount) => toMinor(value ?? 0);

/** A document's lines, discount and totals (as stored or as serialized) and its customer. */
interface DocumentAmounts {
  currency: string;
  customer: CustomerSnapshot | null;
  lines: StoredLine[];
  /** As stored (`Discount`) or as the contract types it (both keys optional, exactly one present). */
  discount: { percent_bps?: number; amount?: number } | null;
  subtotal: Amount;
  discount_total: Amount;
  tax_total: Amount;
  total: Amount;
}

/** The customer, lines, discount and totals of the PDF view. */
export function documentViewParts(doc: DocumentAmounts) {
  const { customer } = doc;
  const { discount } = doc;
  return {
    customer: {
      name: customer?.name ?? null,
      email: customer?.email ?? null,
      phone: customer?.phone ?? null,
      tax_id: customer?.tax_id ?? null,
      address: customer?.address ?? null,
    },
    lines: doc.lines.map((line) => ({
      description: line.description,
      quantity: BigInt(line.quantity),
      unit_amount: big(line.unit_amount),
      tax_rate_bps: BigInt(line.tax_rate_bps ?? 0),
      amount: big(line.amount),
      tax_amount: big(line.tax_amount),
      taxable_amount: big(line.amount) - big(line.discount_amount),
    })),
    subtotal: big(doc.subtotal),
    discount_total: big(doc.discount_total),
    discount_label: discount?.percent_bps
      ? formatRate(discount.percent_bps)
      : discount?.amount
        ? `${formatMinor(big(discount.amount), doc.currency)} off`
        : null,
    tax_total: big(doc.tax_total),
    total: big(doc.total),
  } satisfies Partial<InvoiceDocumentView>;
}
