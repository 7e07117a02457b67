// What invoices and estimates compute the same way, written once: the customer snapshot a
// document freezes, the priced lines it stores (totals from totals.ts) and the
// lines-and-totals part of its public JSON (its PDF view: documents/document-view-parts.ts).
// Amounts stay integer minor units throughout (toMinor/minorToJson, never a float).

import { ApiError, MAX_AMOUNT, minorToJson, toMinor } from '@paygrid/platform';
import type { Address, CustomerRow } from '../customers/customers.service';
import { computeTotals, type DiscountInput, type LineInput, type TaxCategory } from './totals';

export interface StoredLine {
  description: string;
  quantity: number;
  unit_amount: number;
  tax_rate_bps: number;
  amount: number;
  discount_amount: number;
  tax_amount: number;
  /** Absent on lines stored before categories existed (serialized as derived from the rate). */
  tax_category?: TaxCategory;
  tax_exemption_reason?: string | null;
}

export interface CustomerSnapshot {
  name: string | null;
  email: string | null;
  phone: string | null;
  address: Address | null;
  tax_id: string | null;
  /** The customer's languages when the document was finalized or sent (pages, mail, PDF). */
  preferred_locales?: string[];
}

export type Discount = { percent_bps: number } | { amount: number } | null;

/** The customer as the document shows it from now on (later edits to the customer do not change it). */
export const customerSnapshot = (c: CustomerRow): CustomerSnapshot => ({
  name: c.name,
  email: c.email,
  phone: c.phone,
  address: c.address,
  tax_id: c.tax_id,
  preferred_locales: c.preferred_locales ?? [],
});

/** A stored snapshot in today's shape (snapshots taken before languages were kept have none). */
export const fullCustomerSnapshot = (
  stored: CustomerSnapshot | null,
): (CustomerSnapshot & { preferred_locales: string[] }) | null =>
  stored ? Object.assign({}, stored, { preferred_locales: stored.preferred_locales ?? [] }) : null;

/** A discount is `{ percent_bps }` or `{ amount }`: exactly one of the two. */
export function checkDiscount(discount: DiscountInput | null): void {
  if (discount && 'percent_bps' in discount && 'amount' in discount) {
    throw new ApiError('parameter_invalid', 'discount takes percent_bps or amount, not both.', 'discount');
  }
  if (discount && !('percent_bps' in discount) && !('amount' in discount)) {
    throw new ApiError('parameter_missing', 'discount needs percent_bps or amount.', 'discount');
  }
}

/** The totals and the lines as stored; `noun` (`invoice`, `estimate`) names the document in the error. */
export function pricedLines(lines: LineInput[], discount: DiscountInput | null, noun: string) {
  const totals = computeTotals(lines, discount);
  if (totals.total > MAX_AMOUNT || totals.subtotal > MAX_AMOUNT) {
    throw new ApiError('parameter_invalid', `The ${noun} total must be at most ${MAX_AMOUNT}.`, 'lines');
  }
  const categories = taxCategories(lines);
  const stored: StoredLine[] = totals.lines.map((line, i) => ({
    description: line.description,
    quantity: minorToJson(line.quantity),
    unit_amount: minorToJson(line.unit_amount),
    tax_rate_bps: minorToJson(line.tax_rate_bps),
    amount: minorToJson(line.amount),
    discount_amount: minorToJson(line.discount_amount),
    tax_amount: minorToJson(line.tax_amount),
    ...categories[i],
  }));
  return { totals, lines: stored };
}

/** S with a positive rate, Z at 0: the category of a line that names none. */
export const defaultTaxCategory = (bps: number | bigint): TaxCategory => (BigInt(bps) > 0n ? 'S' : 'Z');

/**
 * Each line's VAT category and exemption reason, checked as EN 16931 has them: S needs a
 * positive rate, every other category a rate of 0; E, AE, K and G need a reason, S and Z take none; all the
 * lines of one category share its reason (an invoice has one VAT breakdown per category).
 */
export function taxCategories(
  lines: readonly LineInput[],
): { tax_category: TaxCategory; tax_exemption_reason: string | null }[] {
  const reasons = new Map<TaxCategory, string>();
  return lines.map((line, i) => {
    const rate = BigInt(line.tax_rate_bps ?? 0);
    const category = line.tax_category ?? defaultTaxCategory(rate);
    const reason = line.tax_exemption_reason ?? null;
    const param = `lines[${i}]`;
    if (category === 'S' && rate === 0n)
      throw invalidLine(`${param}: tax_category S needs a positive tax_rate_bps.`, `${param}[tax_rate_bps]`);
    if (category !== 'S' && rate !== 0n)
      throw invalidLine(
        `${param}: tax_category ${category} has a tax_rate_bps of 0.`,
        `${param}[tax_rate_bps]`,
      );
    const needsReason = category !== 'S' && category !== 'Z';
    if (needsReason && !reason)
      throw new ApiError(
        'parameter_missing',
        `${param}: tax_category ${category} needs a tax_exemption_reason.`,
        `${param}[tax_exemption_reason]`,
      );
    if (!needsReason && reason)
      throw invalidLine(
        `${param}: tax_exemption_reason is for E, AE, K and G lines only.`,
        `${param}[tax_exemption_reason]`,
      );
    if (reason) {
      const earlier = reasons.get(category);
      if (earlier !== undefined && earlier !== reason)
        throw invalidLine(
          `${param}: every ${category} line of a document has the same tax_exemption_reason.`,
          `${param}[tax_exemption_reason]`,
        );
      reasons.set(category, reason);
    }
    return { tax_category: category, tax_exemption_reason: reason };
  });
}

const invalidLine = (message: string, param: string) => new ApiError('parameter_invalid', message, param);

/** The stored document's amounts: bigint columns come from pg as strings. */
interface StoredAmounts {
  lines: StoredLine[];
  discount: Discount;
  subtotal: string;
  discount_total: string;
  tax_total: string;
  total: string;
}

const money = (value: string) => minorToJson(toMinor(value));

/** A stored line in today's shape (lines stored before tax categories were kept have none). */
export const serializeLine = (line: StoredLine) =>
  Object.assign({}, line, {
    tax_category: line.tax_category ?? defaultTaxCategory(line.tax_rate_bps),
    tax_exemption_reason: line.tax_exemption_reason ?? null,
  });

/** `lines`, `discount` and the four totals of the public JSON, in this order. */
export function serializeLinesAndTotals(row: StoredAmounts) {
  return {
    lines: row.lines.map(serializeLine),
    discount: row.discount,
    subtotal: money(row.subtotal),
    discount_total: money(row.discount_total),
    tax_total: money(row.tax_total),
    total: money(row.total),
  };
}
