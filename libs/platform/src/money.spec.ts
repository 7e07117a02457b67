import fc from 'fast-check';
import {
  applyBasisPoints,
  currencyExponent,
  divideHalfEven,
  formatMinor,
  MAX_AMOUNT,
  minorToJson,
  normalizeCurrency,
  SUPPORTED_CURRENCIES,
  toMinor,
} from './money';

const abs = (n: bigint): bigint => (n < 0n ? -n : n);

describe('currencyExponent', () => {
  it.each([
    ['JPY', 0],
    ['KRW', 0],
    ['USD', 2],
    ['EUR', 2],
    ['KWD', 3],
    ['BHD', 3],
    ['CLF', 4],
  ])('%s has exponent %i', (currency, exponent) => {
    expect(currencyExponent(currency)).toBe(exponent);
  });

  it('accepts lower-case codes', () => {
    expect(currencyExponent('jpy')).toBe(0);
    expect(currencyExponent('usd')).toBe(2);
    expect(currencyExponent('kwd')).toBe(3);
  });

  it.each(['XAU', 'XDR', 'ABC', '', 'US'])('throws a RangeError for unsupported %p', (currency) => {
    expect(() => currencyExponent(currency)).toThrow(RangeError);
    expect(() => currencyExponent(currency)).toThrow(/unsupported currency/);
  });

  it('knows an exponent for every supported currency', () => {
    expect(SUPPORTED_CURRENCIES.length).toBeGreaterThan(150);
    for (const currency of SUPPORTED_CURRENCIES) {
      expect(currency).toMatch(/^[A-Z]{3}$/);
      expect([0, 2, 3, 4]).toContain(currencyExponent(currency));
    }
    expect(new Set(SUPPORTED_CURRENCIES).size).toBe(SUPPORTED_CURRENCIES.length);
  });
});

describe('normalizeCurrency', () => {
  it('upper-cases supported codes, and takes no spaces around them', () => {
    expect(normalizeCurrency('usd')).toBe('USD');
    expect(normalizeCurrency(' eur ')).toBeUndefined();
    expect(normalizeCurrency('USD ')).toBeUndefined();
    expect(normalizeCurrency('JPY')).toBe('JPY');
    expect(normalizeCurrency('kWd')).toBe('KWD');
  });

  it('returns undefined for unsupported codes and non-strings', () => {
    expect(normalizeCurrency('xau')).toBeUndefined();
    expect(normalizeCurrency('dollars')).toBeUndefined();
    expect(normalizeCurrency('')).toBeUndefined();
    expect(normalizeCurrency(840)).toBeUndefined();
    expect(normalizeCurrency(null)).toBeUndefined();
    expect(normalizeCurrency(undefined)).toBeUndefined();
    expect(normalizeCurrency({ code: 'USD' })).toBeUndefined();
  });
});

describe('formatMinor', () => {
  it('formats two-decimal currencies with thousands separators', () => {
    expect(formatMinor(123456n, 'USD')).toBe('1,234.56 USD');
    expect(formatMinor(100n, 'USD')).toBe('1.00 USD');
    expect(formatMinor(123456789012n, 'EUR')).toBe('1,234,567,890.12 EUR');
  });

  it('pads small amounts with leading zeros', () => {
    expect(formatMinor(0n, 'USD')).toBe('0.00 USD');
    expect(formatMinor(5n, 'USD')).toBe('0.05 USD');
    expect(formatMinor(99n, 'USD')).toBe('0.99 USD');
    expect(formatMinor(7n, 'KWD')).toBe('0.007 KWD');
  });

  it('formats negative amounts with a leading minus', () => {
    expect(formatMinor(-123456n, 'USD')).toBe('-1,234.56 USD');
    expect(formatMinor(-5n, 'USD')).toBe('-0.05 USD');
    expect(formatMinor(-1000n, 'JPY')).toBe('-1,000 JPY');
  });

  it('formats zero-decimal currencies without a fraction', () => {
    expect(formatMinor(1234567n, 'JPY')).toBe('1,234,567 JPY');
    expect(formatMinor(999n, 'JPY')).toBe('999 JPY');
    expect(formatMinor(0n, 'JPY')).toBe('0 JPY');
  });

  it('formats three-decimal currencies', () => {
    expect(formatMinor(1234n, 'KWD')).toBe('1.234 KWD');
    expect(formatMinor(1234567n, 'KWD')).toBe('1,234.567 KWD');
    expect(formatMinor(-1000n, 'KWD')).toBe('-1.000 KWD');
  });

  it('throws for unsupported currencies', () => {
    expect(() => formatMinor(100n, 'XAU')).toThrow(RangeError);
  });
});

describe('divideHalfEven', () => {
  it.each([
    [5n, 2n, 2n],
    [7n, 2n, 4n],
    [1n, 2n, 0n],
    [3n, 2n, 2n],
    [-5n, 2n, -2n],
    [-7n, 2n, -4n],
    [-1n, 2n, 0n],
    [25n, 10n, 2n],
    [35n, 10n, 4n],
    [-25n, 10n, -2n],
    [-35n, 10n, -4n],
    [5n, -2n, -2n],
    [-5n, -2n, 2n],
    [7n, -2n, -4n],
  ])('ties go to even: %p / %p = %p', (n, d, expected) => {
    expect(divideHalfEven(n, d)).toBe(expected);
  });

  it.each([
    [26n, 10n, 3n],
    [24n, 10n, 2n],
    [-26n, 10n, -3n],
    [-24n, 10n, -2n],
    [10n, 3n, 3n],
    [20n, 3n, 7n],
    [-20n, 3n, -7n],
    [0n, 7n, 0n],
    [100n, 1n, 100n],
  ])('rounds non-ties to nearest: %p / %p = %p', (n, d, expected) => {
    expect(divideHalfEven(n, d)).toBe(expected);
  });

  it('throws on division by zero', () => {
    expect(() => divideHalfEven(1n, 0n)).toThrow(RangeError);
  });

  it('property: the result is the nearest integer, |n - r*d| * 2 <= |d|', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
        fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }).filter((d) => d !== 0n),
        (n, d) => {
          const r = divideHalfEven(n, d);
          expect(abs(n - r * d) * 2n <= abs(d)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('property: an exact tie rounds to an even result', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }),
        fc.bigInt({ min: 1n, max: 2n ** 30n }),
        fc.boolean(),
        (k, half, negateDivisor) => {
          // n / d = k + 1/2 exactly, with d = 2 * half.
          const d = 2n * half;
          const n = k * d + half;
          const r = divideHalfEven(n, negateDivisor ? -d : d);
          expect(r % 2n === 0n).toBe(true);
          const expected = negateDivisor ? -r : r;
          expect(expected === k || expected === k + 1n).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('property: symmetric, divideHalfEven(-n, d) === -divideHalfEven(n, d)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
        fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }).filter((d) => d !== 0n),
        (n, d) => {
          expect(divideHalfEven(-n, d)).toBe(-divideHalfEven(n, d));
          expect(divideHalfEven(n, -d)).toBe(-divideHalfEven(n, d));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('property: exact divisions are exact', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }),
        fc.bigInt({ min: -(2n ** 30n), max: 2n ** 30n }).filter((d) => d !== 0n),
        (q, d) => {
          expect(divideHalfEven(q * d, d)).toBe(q);
        },
      ),
    );
  });
});

describe('applyBasisPoints', () => {
  it('computes amount x bps / 10 000 with half-even rounding', () => {
    expect(applyBasisPoints(10_000n, 290)).toBe(290n); // 2.9 % of 100.00
    expect(applyBasisPoints(1234n, 290n)).toBe(36n); // 35.786 -> 36
    expect(applyBasisPoints(50n, 100)).toBe(0n); // 0.5 -> 0 (even)
    expect(applyBasisPoints(150n, 100)).toBe(2n); // 1.5 -> 2 (even)
    expect(applyBasisPoints(250n, 100)).toBe(2n); // 2.5 -> 2 (even)
    expect(applyBasisPoints(-250n, 100)).toBe(-2n);
    expect(applyBasisPoints(12345n, 0)).toBe(0n);
    expect(applyBasisPoints(MAX_AMOUNT, 5000)).toBe(50_000_000_000n); // 49 999 999 999.5 -> even
  });

  it('property: 10 000 bps is the identity', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX_AMOUNT, max: MAX_AMOUNT }), (amount) => {
        expect(applyBasisPoints(amount, 10_000)).toBe(amount);
        expect(applyBasisPoints(amount, 10_000n)).toBe(amount);
      }),
    );
  });

  it('property: the result is within half a minor unit of the exact value', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -MAX_AMOUNT, max: MAX_AMOUNT }),
        fc.integer({ min: 0, max: 10_000 }),
        (amount, bps) => {
          const r = applyBasisPoints(amount, bps);
          expect(abs(amount * BigInt(bps) - r * 10_000n) * 2n <= 10_000n).toBe(true);
        },
      ),
    );
  });

  it('rejects fractional basis points', () => {
    expect(() => applyBasisPoints(100n, 1.5)).toThrow();
  });
});

describe('toMinor', () => {
  it('parses integer strings', () => {
    expect(toMinor('123')).toBe(123n);
    expect(toMinor('0')).toBe(0n);
    expect(toMinor('-42')).toBe(-42n);
    expect(toMinor('99999999999')).toBe(MAX_AMOUNT);
    // beyond 2^53, still exact because it never goes through number
    expect(toMinor('9007199254740993')).toBe(9007199254740993n);
  });

  it('passes bigints through', () => {
    expect(toMinor(123n)).toBe(123n);
    expect(toMinor(-7n)).toBe(-7n);
    expect(toMinor(2n ** 70n)).toBe(2n ** 70n);
  });

  it('accepts safe integer numbers', () => {
    expect(toMinor(123)).toBe(123n);
    expect(toMinor(-5)).toBe(-5n);
    expect(toMinor(Number.MAX_SAFE_INTEGER)).toBe(BigInt(Number.MAX_SAFE_INTEGER));
  });

  it.each(['1.5', '1e3', '', ' 12', '12 ', 'abc', '0x10', '+5', '--1'])('rejects the string %p', (value) => {
    expect(() => toMinor(value)).toThrow(RangeError);
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -(2 ** 53), 1e20])(
    'rejects the number %p',
    (value) => {
      expect(() => toMinor(value)).toThrow(RangeError);
    },
  );
});

describe('minorToJson', () => {
  it('returns the amount as an exact number', () => {
    expect(minorToJson(0n)).toBe(0);
    expect(minorToJson(123n)).toBe(123);
    expect(minorToJson(-123n)).toBe(-123);
    expect(minorToJson(MAX_AMOUNT)).toBe(99_999_999_999);
    expect(minorToJson(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(minorToJson(BigInt(Number.MIN_SAFE_INTEGER))).toBe(Number.MIN_SAFE_INTEGER);
  });

  it('refuses values outside the safe integer range', () => {
    expect(() => minorToJson(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow(RangeError);
    expect(() => minorToJson(BigInt(Number.MIN_SAFE_INTEGER) - 1n)).toThrow(RangeError);
  });

  it('property: round-trips through toMinor', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX_AMOUNT, max: MAX_AMOUNT }), (amount) => {
        expect(toMinor(minorToJson(amount))).toBe(amount);
        expect(toMinor(JSON.stringify(minorToJson(amount)))).toBe(amount);
      }),
    );
  });
});
