import { ApiError } from '@paygrid/platform';
import type { TransactionRow } from '../transactions/transaction';
import {
  awaitFirstSubmission,
  chargeFromForm,
  formExpiredPage,
  isRefused,
  notCompletedMessage,
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

  it('charges, releasing the form token before turning a refused card or merchant into a page', async () => {
    const released: string[] = [];
    const release = async () => {
      released.push('released');
    };
    const ok = await chargeFromForm(async () => row({ status: 'succeeded' }), release);
    expect(isRefused(ok)).toBe(false);
    expect(released).toEqual([]);

    const invalid = await chargeFromForm(async () => {
      throw new ApiError('parameter_invalid', 'Your card has expired.');
    }, release);
    expect(invalid).toEqual({ refused: 'invalid', message: 'Your card has expired.' });
    const closed = await chargeFromForm(async () => {
      throw new ApiError('merchant_not_active', 'no');
    }, release);
    expect(closed).toEqual({ refused: 'merchant_not_active' });
    const crash = new Error('connection reset');
    await expect(
      chargeFromForm(async () => {
        throw crash;
      }, release),
    ).rejects.toBe(crash);
    expect(released).toEqual(['released', 'released', 'released']);
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
    expect(notCompletedMessage(row({ status: 'failed', failure_message: 'Insufficient funds.' }))).toBe(
      'Your payment was not completed: Insufficient funds. You have not been charged; try another card.',
    );
    expect(notCompletedMessage(row({ status: 'failed', failure_message: null }))).toBe(
      'Your payment was not completed: the card was declined. You have not been charged; try another card.',
    );
    expect(notCompletedMessage(row({ status: 'pending' }))).toBe(
      'The payment could not be confirmed; try again.',
    );
    const page = formExpiredPage();
    expect(page).toContain('<h1>This form has expired</h1>');
    expect(page).toContain('<link rel="stylesheet" href="/pay/assets/checkout.css">');
  });
});
