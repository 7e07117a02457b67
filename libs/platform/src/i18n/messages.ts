// The words customers read (hosted pages, e-mails, PDFs) in their language: one JSON message
// file per locale under ./locales (English is the reference; a test checks that every key is
// in every file and that the placeholders match), looked up by key, never written into a
// template. Dates and money are formatted by Intl for the locale; money goes to Intl as a
// decimal string built from integer minor units, so no amount ever passes through a float.
//
// A customer's `preferred_locales` ("de-AT", "pl", ...) pick the first supported language;
// none (or none supported) is English. Any page, mail or document (receipts included) takes a
// `Messages` from `messagesFor(preferred_locales)` and asks it for its words.

import { currencyExponent, formatMinor } from '../money';
import de from './locales/de.json';
import en from './locales/en.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import pl from './locales/pl.json';

export type MessageKey = keyof typeof en;
type Catalogue = Record<MessageKey, string>;

/** The supported languages, English first (the fallback). */
export const LOCALES = ['en', 'de', 'fr', 'es', 'pl'] as const;
export type Locale = (typeof LOCALES)[number];

export const CATALOGUES: Record<Locale, Catalogue> = { en, de, fr, es, pl };

/** The first of `preferred` whose language we speak ("de-AT" -> "de"); English otherwise. */
export function negotiateLocale(preferred: readonly string[] | null | undefined): Locale {
  for (const tag of preferred ?? []) {
    const language = String(tag).toLowerCase().split(/[-_]/)[0];
    if ((LOCALES as readonly string[]).includes(language)) return language as Locale;
  }
  return 'en';
}

export interface Messages {
  readonly locale: Locale;
  /** What it was made from (`messagesFor(preferred)` makes it again, e.g. on a worker thread). */
  readonly preferred: readonly string[];
  /** The message for `key` with its `{name}` placeholders filled (values as given, unescaped). */
  t(key: MessageKey, params?: Record<string, string | number>): string;
  /** An amount in minor units, e.g. 44976n EUR -> "449,76 €" (de) or "449.76 EUR" (no preference). */
  money(amount: bigint, currency: string): string;
  /** A calendar date in UTC, e.g. "24. November 2026" (de). */
  date(value: Date | string): string;
}

/** "-12345", 2 -> "-123.45": the exact decimal string Intl.NumberFormat takes. */
function decimalString(amount: bigint, exponent: number): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter as T;
}

/**
 * The messages for a customer's `preferred_locales`. Without a preference the money reads as
 * it always has ("1,234.56 EUR", unambiguous in any language) and dates in British English;
 * with one, both follow the locale through Intl.
 */
export function messagesFor(preferred: readonly string[] | null | undefined): Messages {
  const locale = negotiateLocale(preferred);
  const chosen = Boolean(preferred?.length);
  const intlLocale = chosen ? locale : 'en-GB';
  const catalogue = CATALOGUES[locale];
  return {
    locale,
    preferred: [...(preferred ?? [])],
    t(key, params) {
      const text = catalogue[key] ?? en[key];
      return params ? text.replace(/\{(\w+)\}/g, (m, name: string) => String(params[name] ?? m)) : text;
    },
    money(amount, currency) {
      const code = currency.toUpperCase();
      if (!chosen) return formatMinor(amount, code);
      const exponent = currencyExponent(code);
      const format = cached(
        `n:${locale}:${code}`,
        () =>
          new Intl.NumberFormat(locale, {
            style: 'currency',
            currency: code,
            minimumFractionDigits: exponent,
            maximumFractionDigits: exponent,
          }),
      ) as Intl.NumberFormat;
      // Intl takes an exact decimal string (ECMA-402 NumberFormat v3, Node 20).
      return format.format(decimalString(amount, exponent) as unknown as number);
    },
    date(value) {
      const format = cached(
        `d:${intlLocale}`,
        () =>
          new Intl.DateTimeFormat(intlLocale, {
            timeZone: 'UTC',
            day: 'numeric',
            month: 'long',
            year: 'numeric',
          }),
      ) as Intl.DateTimeFormat;
      return format.format(new Date(value));
    },
  };
}

/**
 * The messages for a browser's `Accept-Language` ("de-CH,de;q=0.9,en;q=0.8"), for public pages
 * that have no customer to ask (the hosted checkout, an invoice's card form): the supported
 * language of highest weight (ties in the header's order; `q=0` refuses one). English, or no
 * header, keeps the unambiguous English page ("1,234.56 EUR"). Bounded: the first 512
 * characters and 32 entries.
 */
export function messagesForAcceptLanguage(header: string | string[] | undefined): Messages {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const ranked = value
    .slice(0, 512)
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [tag, ...params] = part.split(';').map((s) => s.trim());
      const q = params.map((p) => /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i.exec(p)?.[1]).find(Boolean);
      return { tag, weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  const locale = negotiateLocale(ranked.map((entry) => entry.tag));
  return messagesFor(locale === 'en' ? [] : [locale]);
}

/**
 * The English texts of the catalogue's payment messages (a decline's reason, a card check's,
 * the card forms' errors), to their keys: a connector's or a use case's message is English,
 * as the API reports it, and is shown on a hosted page in the payer's language when it is one
 * of ours.
 */
const PAYMENT_MESSAGES = new Map<string, MessageKey>(
  (Object.entries(en) as [MessageKey, string][])
    .filter(
      ([key]) =>
        key.startsWith('decline.') ||
        key.startsWith('card.') ||
        key === 'pay.card_incomplete' ||
        key === 'pay.check_card_again',
    )
    .map(([key, text]) => [text, key]),
);

/**
 * A payment's failure in the payer's language: one of our messages is translated; any other
 * (a processor's own detail) stays as it is in English and, in another language, gives way to
 * the translated reason of its decline code when there is one.
 */
export function localizedPaymentMessage(message: string, m: Messages, code?: string | null): string {
  const known = PAYMENT_MESSAGES.get(message);
  if (known) return m.t(known);
  const byCode = `decline.${code ?? ''}`;
  if (m.locale !== 'en' && byCode in en) return m.t(byCode as MessageKey);
  return message;
}
