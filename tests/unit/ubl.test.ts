// The pure parts of the UBL e-invoice (apps/invoicing/src/documents/ubl.ts): amounts in each
// currency's exponent, rates as percentages, the VAT category of a rate.

import fc from 'fast-check';
import { buyerVatOf } from '../../apps/invoicing/src/documents/en16931';
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

  it("reads the customer's tax id as a VAT number only when its country's format fits", () => {
    expect(buyerVatOf('DE 136 695 976')).toEqual({ vat: 'DE136695976' });
    expect(buyerVatOf('fr40303265045')).toEqual({ vat: 'FR40303265045' });
    expect(buyerVatOf('GB 123 4567 89')).toEqual({ vat: 'GB123456789' });
    // An EU prefix with a number of the wrong shape is no VAT number, and says why.
    expect(buyerVatOf('DE12')).toEqual({
      vat: null,
      problem: 'DE12 is not in the format of a DE VAT number',
    });
    expect(buyerVatOf('GR123456789')).toEqual({
      vat: null,
      problem: 'a Greek VAT number starts with EL, not GR',
    });
    // Not a VAT number at all: nothing, no complaint.
    expect(buyerVatOf('12-3456789')).toEqual({ vat: null });
    expect(buyerVatOf(null)).toEqual({ vat: null });
  });
});
