// Invoice (and estimate) totals, computed by the server in bigint minor units: a pure function,
// no I/O, property-tested in tests/unit/invoice-totals.test.ts.
//
// Order of operations (Stripe's): line amount = quantity x unit_amount; the invoice-level
// discount is taken off BEFORE tax, allocated across the lines in proportion to their amounts
// with exact integer allocation (largest remainder, ties to the earlier line), so the line
// discounts add up to discount_total exactly; tax is then computed once per line on the
// discounted line amount, rounded half-even (docs/api.md §6). Hence
//   total = subtotal - discount_total + tax_total,
// and since a discount never exceeds the subtotal (a larger fixed amount is capped at it) and
// no line or rate is negative, nothing is ever negative.

import { applyBasisPoints, divideHalfEven } from '@paygrid/platform';

/** At most 250 lines per invoice (docs/api.md §4). */
export const MAX_LINES = 250;
/** Tax rates and percentage discounts are in basis points: 10 000 = 100 %. */
export const MAX_BPS = 10_000;

export interface LineInput {
  description: string;
  quantity: number | bigint;
  unit_amount: number | bigint | string;
  /** Basis points (2000 = 20 %); 0 or absent = untaxed. */
  tax_rate_bps?: number | bigint | null;
  /** The VAT category (EN 16931); checked and defaulted by document-parts.ts. */
  tax_category?: TaxCategory | null;
  tax_exemption_reason?: string | null;
}

export type TaxCategory = 'S' | 'Z' | 'E' | 'AE' | 'K' | 'G';

/** `percent_bps` (1-10 000) or a fixed `amount` in the invoice's minor unit; not both. */
export type DiscountInput = { percent_bps: number | bigint } | { amount: number | bigint | string };

export interface ComputedLine {
  description: string;
  quantity: bigint;
  unit_amount: bigint;
  tax_rate_bps: bigint;
  /** quantity x unit_amount, before discount and tax. */
  amount: bigint;
  /** This line's share of the invoice discount. */
  discount_amount: bigint;
  /** amount - discount_amount: what the tax is computed on. */
  taxable_amount: bigint;
  tax_amount: bigint;
}

export interface Totals {
  lines: ComputedLine[];
  subtotal: bigint;
  discount_total: bigint;
  tax_total: bigint;
  total: bigint;
}

const big = (value: number | bigint | string): bigint => (typeof value === 'bigint' ? value : BigInt(value));

/** The discount on `subtotal`: a percentage rounded half-even, or a fixed amount capped at the subtotal. */
export function discountOn(subtotal: bigint, discount: DiscountInput | null | undefined): bigint {
  if (!discount) return 0n;
  const wanted =
    'percent_bps' in discount ? applyBasisPoints(subtotal, discount.percent_bps) : big(discount.amount);
  if (wanted < 0n) throw new RangeError('discount must not be negative');
  return wanted > subtotal ? subtotal : wanted;
}

/**
 * Splits `total` across `weights` in proportion, exactly: each share is floor(total x w / sum),
 * and the units left over go one each to the largest remainders (earlier index first on ties).
 * With 0 <= total <= sum(weights), no share exceeds its weight.
 */
export function allocate(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (total === 0n || sum === 0n) return weights.map(() => 0n);
  const shares = weights.map((w) => (total * w) / sum);
  let left = total - shares.reduce((a, b) => a + b, 0n);
  const order = weights
    .map((w, index) => ({ index, remainder: (total * w) % sum }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of order) {
    if (left === 0n) break;
    shares[index] += 1n;
    left -= 1n;
  }
  return shares;
}

export function computeTotals(lines: readonly LineInput[], discount?: DiscountInput | null): Totals {
  const base = lines.map((line) => {
    const quantity = big(line.quantity);
    const unit_amount = big(line.unit_amount);
    const tax_rate_bps = big(line.tax_rate_bps ?? 0);
    if (quantity < 0n || unit_amount < 0n || tax_rate_bps < 0n) {
      throw new RangeError('quantity, unit_amount and tax_rate_bps must not be negative');
    }
    return {
      description: line.description,
      quantity,
      unit_amount,
      tax_rate_bps,
      amount: quantity * unit_amount,
    };
  });
  const subtotal = base.reduce((sum, line) => sum + line.amount, 0n);
  const discount_total = discountOn(subtotal, discount);
  const shares = allocate(
    discount_total,
    base.map((line) => line.amount),
  );
  const computed = base.map((line, i): ComputedLine => {
    const taxable_amount = line.amount - shares[i];
    return Object.assign({}, line, {
      discount_amount: shares[i],
      taxable_amount,
      tax_amount: divideHalfEven(taxable_amount * line.tax_rate_bps, 10_000n),
    });
  });
  const tax_total = computed.reduce((sum, line) => sum + line.tax_amount, 0n);
  return {
    lines: computed,
    subtotal,
    discount_total,
    tax_total,
    total: subtotal - discount_total + tax_total,
  };
}
