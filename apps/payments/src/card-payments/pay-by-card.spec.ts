// The protocol of PayByCard around a form token, without I/O: the token is claimed in the
// charge's tx1 (a refusal there rolls tx1 back: nothing charged, nothing to give back), a
// form without a usable card claims and gives the token back, the token is completed where the
// form asks (in tx2 or after it), and a used token answers its first submission. The charge itself (saga,
// SQL, processor) is proven end to end by tests/integration/payment-links, mandates and
// invoices-payment in both modes.

import { ApiError, type Tx } from '@paygrid/platform';
import { CARD_INCOMPLETE, CHECK_CARD_AGAIN } from '../card-form/card-form';
import type { MandatesService } from '../mandates/mandates.service';
import type { TransactionRow } from '../transactions/transaction';
import type { ChargeCardOptions, TransactionsService } from '../transactions/transactions.service';
import type { FormClaim, FormRefusal, FormToken } from './form-token';
import { PayByCard, type CardPayment } from './pay-by-card';

const card = { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' };
const paid = { id: 'txn_1', status: 'succeeded' } as TransactionRow;
const tx = {} as Tx;

/**
 * A TransactionsService whose chargeCard runs tx1's inIntent (the claim written with the
 * intent) and its claim's decision (a throw there ends it, as a rolled-back tx1 does), then answers `charge()` and runs tx2's onRecorded on
 * a fake tx. `calls` holds the charges that got past tx1.
 */
function transactions(charge: () => Promise<TransactionRow>) {
  const calls: ChargeCardOptions[] = [];
  const service = {
    chargeCard: async (_tenant: unknown, _input: unknown, options: ChargeCardOptions) => {
      // The claim's decision as tx1's statement would answer it (the fake token decides alone).
      options.inIntent?.()?.decide({});
      calls.push(options);
      const row = await charge();
      await options.onRecorded?.(tx, row);
      return row;
    },
    get: async (_tenant: unknown, id: string) => ({ ...paid, id }),
  };
  return { service: service as unknown as TransactionsService, calls };
}

function token(claim: FormClaim, when: 'with_outcome' | 'after_outcome' = 'after_outcome') {
  const log: string[] = [];
  let submission: { transaction_id: string | null } | undefined = { transaction_id: 'txn_first' };
  const form: FormToken<FormRefusal> = {
    claimIn: () => {
      log.push('claim in tx1');
      return { queries: [], decision: '', decide: () => claim };
    },
    claim: async () => {
      log.push('claim alone');
      return claim;
    },
    release: async () => {
      log.push('release');
      submission = undefined;
    },
    complete:
      when === 'with_outcome'
        ? {
            when,
            run: async (t, row) => void log.push(`complete ${row.id} ${t === tx ? 'in tx2' : 'outside'}`),
          }
        : { when, run: async (row) => void log.push(`complete ${row.id} after`) },
    submission: async () => submission,
  };
  return { form, log, release: () => (submission = undefined) };
}

const payment = (form: FormToken<FormRefusal>, withCard = true): CardPayment<FormRefusal> => ({
  tenant: { account: 'acct_1', livemode: false },
  charge: { amount: 100n, currency: 'USD' },
  card: withCard ? card : undefined,
  form,
});

const mandates = {} as MandatesService;

describe('PayByCard', () => {
  it('charges a claimed token and completes it after tx2, or in tx2 when the form asks', async () => {
    for (const when of ['after_outcome', 'with_outcome'] as const) {
      const { form, log } = token({ kind: 'claimed' }, when);
      const { service } = transactions(async () => paid);
      expect(await new PayByCard(service, mandates).pay(payment(form))).toEqual({
        kind: 'charged',
        transaction: paid,
      });
      expect(log).toEqual([
        'claim in tx1',
        when === 'with_outcome' ? 'complete txn_1 in tx2' : 'complete txn_1 after',
      ]);
    }
  });

  it('gives the token back when the card is incomplete; a charge refused before the processor call has nothing to give back', async () => {
    const incomplete = token({ kind: 'claimed' });
    const { service, calls } = transactions(async () => paid);
    expect(await new PayByCard(service, mandates).pay(payment(incomplete.form, false))).toEqual({
      kind: 'invalid',
      message: CARD_INCOMPLETE,
    });
    expect(incomplete.log).toEqual(['claim alone', 'release']);
    expect(calls).toHaveLength(0);

    const refused = token({ kind: 'claimed' });
    const noProcessor = transactions(async () => {
      throw new ApiError('processor_not_configured', 'none');
    });
    expect(await new PayByCard(noProcessor.service, mandates).pay(payment(refused.form))).toEqual({
      kind: 'processor_not_configured',
    });
    // A refusal of the charge leaves tx1 uncommitted, and its claim with it: no release.
    expect(refused.log).toEqual(['claim in tx1']);
  });

  it('answers a used token with its first submission, and a released one with the form again', async () => {
    const { service, calls } = transactions(async () => paid);
    const used = token({ kind: 'used' });
    expect(await new PayByCard(service, mandates).pay(payment(used.form))).toEqual({
      kind: 'charged',
      transaction: { ...paid, id: 'txn_first' },
    });
    const released = token({ kind: 'used' });
    released.release();
    expect(await new PayByCard(service, mandates).pay(payment(released.form))).toEqual({
      kind: 'invalid',
      message: CHECK_CARD_AGAIN,
    });
    expect(calls).toHaveLength(0);
  });

  it("passes the form's own refusals through without charging", async () => {
    const { service, calls } = transactions(async () => paid);
    for (const refusal of [
      { kind: 'busy' },
      { kind: 'full' },
      { kind: 'paid', transaction: 'txn_9' },
    ] as const) {
      expect(await new PayByCard(service, mandates).pay(payment(token(refusal).form))).toEqual(refusal);
    }
    expect(calls).toHaveLength(0);
  });

  it('keeps the card (a mandate) only when asked', async () => {
    const { service, calls } = transactions(async () => paid);
    await new PayByCard(service, mandates).charge({ ...payment(token({ kind: 'claimed' }).form), card });
    await new PayByCard(service, mandates).charge({
      ...payment(token({ kind: 'claimed' }).form),
      card,
      mandate: { payer: { name: null, email: null } },
    });
    expect(calls.map((c) => c.storeCredential ?? false)).toEqual([false, true]);
  });
});
