// Invoice totals: hand-computed cases and properties over random lines (fast-check).

import fc from 'fast-check';
import {
  allocate,
  computeTotals,
  type DiscountInput,
  type LineInput,
} from '../../apps/invoicing/src/invoices/totals';

const line = fc.record({
  description: fc.constant('item'),
  quantity: fc.integer({ min: 0, max: 10_000 }),
  unit_amount: fc.bigInt({ min: 0n, max: 9_999_999n }),
  tax_rate_bps: fc.integer({ min: 0, max: 10_000 }),
});
const discount: fc.Arbitrary<DiscountInput | null> = fc.oneof(
  fc.constant(null),
  fc.record({ percent_bps: fc.integer({ min: 1, max: 10_000 }) }),
  fc.record({ amount: fc.bigInt({ min: 1n, max: 99_999_999_999n }) }),
);

describe('computeTotals', () => {
  it('computes three lines, two tax rates and a percentage discount exactly', () => {
    // 2 x 1500 = 3000 @ 20 %, 1 x 999 = 999 @ 20 %, 3 x 333 = 999 @ 5 %; subtotal 4998.
    // 10 % off: 499.8 -> 500 (half-even). Shares: 3000 -> 300.12.. floor 300; 999 -> 99.94..
    // floor 99; 999 -> 99 floor; left 2 -> the two 999 lines (remainder .9399 each, earlier first).
    const totals = computeTotals(
      [
        { description: 'Consulting', quantity: 2, unit_amount: 1500, tax_rate_bps: 2000 },
        { description: 'Licence', quantity: 1, unit_amount: 999, tax_rate_bps: 2000 },
        { description: 'Books', quantity: 3, unit_amount: 333, tax_rate_bps: 500 },
      ],
      { percent_bps: 1000 },
    );
    expect(totals.subtotal).toBe(4998n);
    expect(totals.discount_total).toBe(500n);
    expect(totals.lines.map((l) => l.discount_amount)).toEqual([300n, 100n, 100n]);
    // Tax: 2700 x 20 % = 540; 899 x 20 % = 179.8 -> 180; 899 x 5 % = 44.95 -> 45.
    expect(totals.lines.map((l) => l.tax_amount)).toEqual([540n, 180n, 45n]);
    expect(totals.tax_total).toBe(765n);
    expect(totals.total).toBe(4998n - 500n + 765n);
  });

  it('rounds tax half-even once per line', () => {
    // 25 x 2 % = 0.5 -> 0; 75 x 2 % = 1.5 -> 2.
    const totals = computeTotals([
      { description: 'a', quantity: 1, unit_amount: 25, tax_rate_bps: 200 },
      { description: 'b', quantity: 1, unit_amount: 75, tax_rate_bps: 200 },
    ]);
    expect(totals.lines.map((l) => l.tax_amount)).toEqual([0n, 2n]);
  });

  it('caps a fixed discount at the subtotal, so nothing is due and nothing is negative', () => {
    const totals = computeTotals([{ description: 'a', quantity: 2, unit_amount: 100, tax_rate_bps: 2000 }], {
      amount: 1_000,
    });
    expect(totals).toMatchObject({ subtotal: 200n, discount_total: 200n, tax_total: 0n, total: 0n });
  });

  it('handles no lines and zero lines', () => {
    expect(computeTotals([], { percent_bps: 5000 }).total).toBe(0n);
    expect(computeTotals([{ description: 'free', quantity: 0, unit_amount: 5, tax_rate_bps: 0 }]).total).toBe(
      0n,
    );
  });

  it('refuses negative input', () => {
    expect(() => computeTotals([{ description: 'a', quantity: -1, unit_amount: 5 }])).toThrow(RangeError);
  });

  it('keeps the identities for random lines and discounts', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), discount, (lines: LineInput[], d) => {
        const t = computeTotals(lines, d);
        const figures = [t.subtotal, t.discount_total, t.tax_total, t.total];
        for (const l of t.lines) figures.push(l.amount, l.discount_amount, l.taxable_amount, l.tax_amount);
        expect(figures.every((f) => typeof f === 'bigint' && f >= 0n)).toBe(true);
        expect(t.total).toBe(t.subtotal - t.discount_total + t.tax_total);
        expect(t.discount_total).toBeLessThanOrEqual(t.subtotal);
        expect(t.lines.reduce((s, l) => s + l.amount, 0n)).toBe(t.subtotal);
        expect(t.lines.reduce((s, l) => s + l.discount_amount, 0n)).toBe(t.discount_total);
        expect(t.lines.reduce((s, l) => s + l.tax_amount, 0n)).toBe(t.tax_total);
        for (const l of t.lines) {
          expect(l.discount_amount).toBeLessThanOrEqual(l.amount);
          // Half-even: within half a unit of the exact tax.
          const exact2 = l.taxable_amount * l.tax_rate_bps * 2n;
          const diff = l.tax_amount * 20_000n - exact2;
          expect(diff <= 10_000n && diff >= -10_000n).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('allocates exactly and proportionally (largest remainder)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 1_000_000_000n }), { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (weights, fraction) => {
          const sum = weights.reduce((a, b) => a + b, 0n);
          const total = (sum * BigInt(Math.floor(fraction * 1_000_000))) / 1_000_000n;
          const shares = allocate(total, weights);
          expect(shares.reduce((a, b) => a + b, 0n)).toBe(sum === 0n ? 0n : total);
          shares.forEach((share, i) => {
            expect(share).toBeGreaterThanOrEqual(0n);
            expect(share).toBeLessThanOrEqual(weights[i]);
            // Never more than one unit away from the exact proportional share.
            if (sum > 0n) {
              const exactTimesSum = total * weights[i];
              expect(share * sum - exactTimesSum < sum && exactTimesSum - share * sum < sum).toBe(true);
            }
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
