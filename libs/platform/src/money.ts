// Money is an integer count of the currency's minor unit, carried as bigint (never a JS
// float). Exponents are ISO 4217's: JPY 0, USD 2, KWD 3.

const EXPONENT_0 = [
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'UYI',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
];
const EXPONENT_3 = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'];
const EXPONENT_4 = ['CLF', 'UYW'];
// The ISO 4217 active codes with exponent 2 (the default). Codes without a minor unit
// (XAU, XDR, ...) are not supported for payments.
const EXPONENT_2 = (
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF ' +
  'CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ' +
  'ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN ' +
  'MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS ' +
  'SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VES WST XCD YER ZAR ZMW ZWG'
).split(' ');

const EXPONENTS: ReadonlyMap<string, number> = new Map([
  ...EXPONENT_0.map((c) => [c, 0] as const),
  ...EXPONENT_2.map((c) => [c, 2] as const),
  ...EXPONENT_3.map((c) => [c, 3] as const),
  ...EXPONENT_4.map((c) => [c, 4] as const),
]);

export const SUPPORTED_CURRENCIES: readonly string[] = [...EXPONENTS.keys()].sort();

/** The largest amount accepted anywhere (docs/api.md §1). */
export const MAX_AMOUNT = 99_999_999_999n;

/** Upper-cases and checks a currency code; undefined when unsupported. */
export function normalizeCurrency(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  // Case-insensitive, but exactly three letters: "USD " is not a currency code.
  const code = input.toUpperCase();
  return EXPONENTS.has(code) ? code : undefined;
}

export function currencyExponent(currency: string): number {
  const exponent = EXPONENTS.get(currency.toUpperCase());
  if (exponent === undefined) throw new RangeError(`unsupported currency ${currency}`);
  return exponent;
}

/** Formats minor units for people: `formatMinor(123456n, 'USD')` is `1,234.56 USD`. */
export function formatMinor(amount: bigint, currency: string): string {
  const exponent = currencyExponent(currency);
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction} ${currency}`;
}

/**
 * Rounds numerator/denominator to the nearest integer, ties to even (banker's rounding).
 * All in bigint: `divideHalfEven(5n, 2n)` is 2n, `divideHalfEven(7n, 2n)` is 4n.
 */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  if (denominator < 0n) return divideHalfEven(-numerator, -denominator);
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  let quotient = n / denominator;
  const twiceRemainder = (n % denominator) * 2n;
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n))
    quotient += 1n;
  return negative ? -quotient : quotient;
}

/** amount x basis points / 10 000, rounded half-even once. */
export function applyBasisPoints(amount: bigint, bps: bigint | number): bigint {
  return divideHalfEven(amount * BigInt(bps), 10_000n);
}

/** Parses a bigint column value (pg returns int8 as a string) without going through number. */
export function toMinor(value: string | number | bigint): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not an integer amount: ${value}`);
    return BigInt(value);
  }
  if (!/^-?\d+$/.test(value)) throw new RangeError(`not an integer amount: ${value}`);
  return BigInt(value);
}

/** JSON output of an amount: a number, exact because every amount is <= MAX_AMOUNT < 2^53. */
export function minorToJson(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError('amount outside the safe integer range');
  }
  return Number(value);
}
