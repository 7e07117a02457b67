import {
  CATALOGUES,
  LOCALES,
  messagesFor,
  messagesForAcceptLanguage,
  negotiateLocale,
  type MessageKey,
} from './messages';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message files', () => {
  const reference = Object.keys(CATALOGUES.en).sort();

  it.each(LOCALES.filter((l) => l !== 'en'))('%s has exactly the English keys', (locale) => {
    expect(Object.keys(CATALOGUES[locale]).sort()).toEqual(reference);
  });

  it.each(LOCALES)('%s: every message is non-empty and has the English placeholders', (locale) => {
    for (const key of reference as MessageKey[]) {
      const text = CATALOGUES[locale][key];
      expect(typeof text).toBe('string');
      expect(text.trim()).not.toBe('');
      expect([key, placeholders(text)]).toEqual([key, placeholders(CATALOGUES.en[key])]);
    }
  });
});

describe('messagesFor', () => {
  it('picks the first supported language of the preferences, English otherwise', () => {
    expect(negotiateLocale(['ja', 'de-AT', 'fr'])).toBe('de');
    expect(negotiateLocale(['pl_PL'])).toBe('pl');
    expect(negotiateLocale(['ja'])).toBe('en');
    expect(negotiateLocale(null)).toBe('en');
  });

  it('fills placeholders and formats money and dates for the locale (Intl, exact decimals)', () => {
    const de = messagesFor(['de']);
    expect(de.t('invoice_page.pay', { amount: de.money(44976n, 'EUR') })).toBe('449,76\u00a0€ bezahlen');
    expect(de.date('2026-11-24T10:00:00Z')).toBe('24. November 2026');
    const pl = messagesFor(['pl']);
    expect(pl.money(123456789n, 'PLN')).toBe('1\u00a0234\u00a0567,89\u00a0zł');
    expect(pl.date('2026-11-24T00:00:00Z')).toBe('24 listopada 2026');
    expect(messagesFor(['fr']).money(1234n, 'JPY')).toBe('1\u202f234\u00a0JPY');
    expect(messagesFor(['es']).money(-500n, 'EUR')).toBe('-5,00\u00a0€');
    // A 16-digit amount stays exact (it would not as a float).
    expect(messagesFor(['en']).money(9_007_199_254_740_993n, 'USD')).toBe('$90,071,992,547,409.93');
  });

  it('without a preference keeps the unambiguous "1,234.56 EUR" and British dates', () => {
    const none = messagesFor([]);
    expect(none.locale).toBe('en');
    expect(none.money(123456n, 'EUR')).toBe('1,234.56 EUR');
    expect(none.date('2026-11-24T00:00:00Z')).toBe('24 November 2026');
  });
});

describe('messagesForAcceptLanguage', () => {
  it('takes the supported language of highest weight, English (unambiguous money) otherwise', () => {
    expect(messagesForAcceptLanguage('de-CH,de;q=0.9,en;q=0.8').locale).toBe('de');
    expect(messagesForAcceptLanguage('ja,en;q=0.5,pl;q=0.7').locale).toBe('pl');
    expect(messagesForAcceptLanguage('fr;q=0.2, es;q=0.8').locale).toBe('es');
    expect(messagesForAcceptLanguage('de;q=0, fr;q=0.1').locale).toBe('fr');
    expect(messagesForAcceptLanguage('*, ja').locale).toBe('en');
    expect(messagesForAcceptLanguage(undefined).locale).toBe('en');
    expect(messagesForAcceptLanguage('en-US,de;q=0.9').money(123456n, 'EUR')).toBe('1,234.56 EUR');
    expect(messagesForAcceptLanguage('de-DE').money(123456n, 'EUR')).toBe('1.234,56\u00a0€');
    // A huge header is read only so far; garbage is no language.
    expect(messagesForAcceptLanguage(`${'x,'.repeat(10_000)}de`).locale).toBe('en');
    expect(messagesForAcceptLanguage(';;;q=2,,').locale).toBe('en');
  });
});
