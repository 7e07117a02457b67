// The pure parts of the UBL e-invoice (apps/invoicing/src/documents/ubl.ts): amounts in each
// currency's exponent, rates as percentages, the VAT category of a rate.

import fc from 'fast-check';
import { decimalOf, percentOf, vatCategoryOf } from '../../apps/invoicing/src/documents/ubl';

describe('UBL amounts and rates', () => {
  it('writes minor units with the currency exponent, never through a float', () => {
    expect(decimalOf(447_738n, 'EUR')).toBe('4477.38');
    expect(decimalOf(5n, 'EUR')).toBe('0.05');
    expect(decimalOf(0n, 'EUR')).toBe('0.00');
    expect(decimalOf(1500n, 'JPY')).toBe('1500');
    expect(decimalOf(-250n, 'USD')).toBe('-2.50');
    expect(decimalOf(9_007_199_254_740_993n, 'EUR')).toBe('90071992547409.93');
  });

  it('round-trips every amount exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n }), (minor) => {
        const [whole, fraction] = decimalOf(minor, 'EUR').split('.');
        expect(BigInt(whole) * 100n + BigInt(fraction)).toBe(minor);
      }),
    );
  });

  it("writes rates as percentages and takes each line's VAT category", () => {
    expect(percentOf(2000)).toBe('20');
    expect(percentOf(2300)).toBe('23');
    expect(percentOf(525)).toBe('5.25');
    expect(percentOf(550)).toBe('5.5');
    expect(percentOf(0)).toBe('0');
    // A line's own category, else (lines stored before categories) derived from its rate.
    expect(vatCategoryOf({ tax_rate_bps: 800 })).toBe('S');
    expect(vatCategoryOf({ tax_rate_bps: 0 })).toBe('Z');
    expect(vatCategoryOf({ tax_rate_bps: 0, tax_category: 'AE' })).toBe('AE');
  });
});
