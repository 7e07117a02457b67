// Card number handling: validation, brand, and the only parts that may be kept (brand,
// last4, expiry). The full number and the CVC never leave the request that carries them.

import { CATALOGUES } from '@paygrid/platform';
import type { CardBrand, CardDetails, PaymentMethodSummary } from './connector';

/** The checks' messages are the catalogue's English (the API's); the card forms translate them. */
const en = CATALOGUES.en;

export function digitsOnly(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** The Luhn checksum every real card number satisfies. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(number: string): CardBrand {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^6(011|5)/.test(number)) return 'discover';
  return 'unknown';
}

export type CardProblem = { param: 'number' | 'exp_month' | 'exp_year' | 'cvc'; message: string };

/** Checks a card's shape and expiry against `now`; the first problem, or undefined. */
export function validateCard(card: CardDetails, now: Date): CardProblem | undefined {
  const number = digitsOnly(card.number);
  if (!luhnValid(number)) return { param: 'number', message: en['card.invalid_number'] };
  if (!Number.isInteger(card.exp_month) || card.exp_month < 1 || card.exp_month > 12) {
    return { param: 'exp_month', message: en['card.invalid_exp_month'] };
  }
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  if (!Number.isInteger(year) || year < 2000 || year > 2100)
    return { param: 'exp_year', message: en['card.invalid_exp_year'] };
  const endOfMonth = Date.UTC(year, card.exp_month, 1);
  if (endOfMonth <= now.getTime()) return { param: 'exp_year', message: en['card.expired'] };
  const amex = cardBrand(number) === 'amex';
  if (!(amex ? /^\d{4}$/ : /^\d{3}$/).test(card.cvc))
    return { param: 'cvc', message: en[amex ? 'card.cvc_4' : 'card.cvc_3'] };
  return undefined;
}

export function summarizeCard(card: CardDetails): PaymentMethodSummary {
  const number = digitsOnly(card.number);
  return {
    brand: cardBrand(number),
    last4: number.slice(-4),
    exp_month: card.exp_month,
    exp_year: card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year,
  };
}
