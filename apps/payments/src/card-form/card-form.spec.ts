import { ApiError, CATALOGUES, LOCALES, messagesFor } from '@paygrid/platform';
import { ABANDONED_MESSAGE } from '../connectors/connector';
import { SANDBOX_DECLINE_MESSAGES } from '../connectors/sandbox.connector';
import { validateCard } from '../connectors/cards';
import {
  DECLINE_MESSAGES,
  SAVE_CARD_AUTHENTICATION_MESSAGE,
  SAVE_CARD_NO_ANSWER_MESSAGE,
} from '../connectors/stripe/stripe-outcomes';
import type { TransactionRow } from '../transactions/transaction';
import {
  awaitFirstSubmission,
  chargeRefusing,
  formExpiredPage,
  CARD_INCOMPLETE,
  CHECK_CARD_AGAIN,
  isRefused,
  localizedError,
  notCompletedMessage,
  notPayablePage,
  paymentsNotAvailablePage,
  parseCard,
} from './card-form';

const CARD = { card_number: ' 4242 4242 4242 4242 ', exp_month: '12', exp_year: '30', cvc: '123' };
const row = (fields: Partial<TransactionRow>) => ({ id: 'txn_1', ...fields }) as TransactionRow;

describe('the card form', () => {
  it('reads a posted card, two-digit years in this century', () => {
    expect(parseCard(CARD)).toEqual({
      number: '4242 4242 4242 4242',
      exp_month: 12,
      exp_year: 2030,
      cvc: '123',
    });
    expect(parseCard({ ...CARD, exp_year: '2031', card_number: '4242-4242-4242-4242' })).toEqual({
      number: '4242-4242-4242-4242',
      exp_month: 12,
      exp_year: 2031,
      cvc: '123',
    });
  });

  it('refuses a card with a missing or malformed field', () => {
    for (const broken of [
      { ...CARD, card_number: '4242' },
      { ...CARD, card_number: '4242 4242 4242 424x' },
      { ...CARD, exp_month: '1.5' },
      { ...CARD, exp_year: 'soon' },
      { ...CARD, cvc: '12' },
      { ...CARD, cvc: 123 },
      { ...CARD, cvc: undefined },
      {},
    ]) {
      expect(parseCard(broken)).toBeUndefined();
    }
  });

  it('charges, turning a refused card or merchant into a page and letting anything else through', async () => {
    const ok = await chargeRefusing(async () => row({ status: 'succeeded' }));
    expect(isRefused(ok)).toBe(false);
    const invalid = await chargeRefusing(async () => {
      throw new ApiError('parameter_invalid', 'Your card has expired.');
    });
    expect(invalid).toEqual({ refused: 'invalid', message: 'Your card has expired.' });
    const closed = await chargeRefusing(async () => {
      throw new ApiError('merchant_not_active', 'no');
    });
    expect(closed).toEqual({ refused: 'merchant_not_active' });
    const crash = new Error('connection reset');
    await expect(
      chargeRefusing(async () => {
        throw crash;
      }),
    ).rejects.toBe(crash);
  });

  it('waits for the first submission of a reused token', async () => {
    expect(await awaitFirstSubmission(async () => undefined)).toEqual({ kind: 'released' });
    let calls = 0;
    const done = await awaitFirstSubmission(async () => ({ transaction_id: ++calls < 3 ? null : 'txn_9' }));
    expect(done).toEqual({ kind: 'done', transactionId: 'txn_9' });
    expect(calls).toBe(3);
  });

  it('gives up waiting after 20 seconds', async () => {
    jest.useFakeTimers();
    try {
      let calls = 0;
      const waiting = awaitFirstSubmission(async () => {
        calls++;
        return { transaction_id: null };
      });
      await jest.advanceTimersByTimeAsync(20_000);
      expect(await waiting).toEqual({ kind: 'pending' });
      expect(calls).toBe(200);
    } finally {
      jest.useRealTimers();
    }
  });

  it('words a decline and the expired-form page', () => {
    const en = messagesFor([]);
    expect(notCompletedMessage(row({ status: 'failed', failure_message: 'Insufficient funds.' }), en)).toBe(
      'Your payment was not completed: Insufficient funds. You have not been charged; try another card.',
    );
    expect(notCompletedMessage(row({ status: 'failed', failure_message: null }), en)).toBe(
      'Your payment was not completed: The card was declined. You have not been charged; try another card.',
    );
    expect(notCompletedMessage(row({ status: 'pending' }), en)).toBe(
      'The payment could not be confirmed; try again.',
    );
    const page = formExpiredPage(en);
    expect(page).toContain('<h1>This form has expired</h1>');
    expect(page).toContain('<link rel="stylesheet" href="/pay/assets/checkout.css">');
  });

  /** A card failing each check of validateCard in turn (the Visa and Amex test numbers). */
  const NOW = new Date('2026-11-25T00:00:00Z');
  const good = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
  const CARD_CHECKS = [
    { ...good, number: '4242424242424241' },
    { ...good, exp_month: 13 },
    { ...good, exp_year: 2101 },
    { ...good, exp_year: 2025 },
    { ...good, cvc: '12' },
    { ...good, number: '378282246310005', cvc: '123' },
  ];

  it("every connector's decline message and the forms' errors are in the catalogue, so each is translated", () => {
    const ours = [
      ...Object.values(DECLINE_MESSAGES),
      ...Object.values(SANDBOX_DECLINE_MESSAGES),
      ABANDONED_MESSAGE,
      SAVE_CARD_AUTHENTICATION_MESSAGE,
      SAVE_CARD_NO_ANSWER_MESSAGE,
      CARD_INCOMPLETE,
      CHECK_CARD_AGAIN,
      ...CARD_CHECKS.map((card) => validateCard(card, NOW)?.message ?? 'no problem found'),
    ];
    expect(new Set(ours.slice(-CARD_CHECKS.length)).size).toBe(CARD_CHECKS.length);
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const m = messagesFor([locale]);
      for (const message of ours) {
        const translated = localizedError(message, m);
        expect({ locale, message, translated: translated !== message }).toEqual({
          locale,
          message,
          translated: true,
        });
        expect(Object.values(CATALOGUES[locale])).toContain(translated);
      }
      // A message that is not one of the catalogue's (a processor's own words) stays as it is.
      expect(localizedError('Do not honor.', m)).toBe('Do not honor.');
    }
  });

  it('a German payer reads the decline, its code standing in for a processor detail, and the pages in German', () => {
    const de = messagesFor(['de']);
    expect(
      notCompletedMessage(
        row({
          status: 'failed',
          failure_code: 'insufficient_funds',
          failure_message: 'The card has insufficient funds.',
        }),
        de,
      ),
    ).toBe(
      'Ihre Zahlung wurde nicht abgeschlossen: Die Karte ist nicht ausreichend gedeckt. Es wurde nichts abgebucht; versuchen Sie es mit einer anderen Karte.',
    );
    // A processor's own detail has no translation; its decline code has.
    expect(localizedError('Only the published test cards work in the sandbox.', de, 'card_declined')).toBe(
      'Die Karte wurde abgelehnt.',
    );
    expect(
      localizedError('Only the published test cards work in the sandbox.', messagesFor([]), 'card_declined'),
    ).toBe('Only the published test cards work in the sandbox.');
    expect(formExpiredPage(de)).toContain('<h1>Dieses Formular ist abgelaufen</h1>');
    expect(formExpiredPage(de)).toContain('<html lang="de">');
    expect(paymentsNotAvailablePage(messagesFor(['pl']))).toContain(
      '<h1>Płatności nie są jeszcze dostępne</h1>',
    );
    expect(notPayablePage('merchant_not_active', 'invoice', messagesFor(['fr']))).toContain(
      'Ce vendeur ne peut pas accepter de paiements par carte pour le moment.',
    );
  });
});
