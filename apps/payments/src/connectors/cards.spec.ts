import fc from 'fast-check';
import { cardBrand, digitsOnly, luhnValid, summarizeCard, validateCard } from './cards';
import { SANDBOX_TEST_CARDS, SandboxConnector } from './sandbox.connector';

const NOW = new Date('2026-11-22T00:00:00Z');
const card = (number: string, extra: Partial<{ exp_month: number; exp_year: number; cvc: string }> = {}) => ({
  number,
  exp_month: 12,
  exp_year: 2030,
  cvc: '123',
  ...extra,
});

describe('cards', () => {
  it('accepts every sandbox test card as Luhn-valid Visa', () => {
    for (const number of Object.keys(SANDBOX_TEST_CARDS)) {
      expect(luhnValid(number)).toBe(true);
      expect(cardBrand(number)).toBe('visa');
    }
  });

  it('detects any single-digit change (Luhn property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 1, max: 9 }), (position, delta) => {
        const base = '4242424242424242';
        const changed =
          base.slice(0, position) + ((Number(base[position]) + delta) % 10) + base.slice(position + 1);
        return !luhnValid(changed);
      }),
    );
  });

  it('validates number, month, year, expiry and CVC length', () => {
    expect(validateCard(card('4242 4242 4242 4242'), NOW)).toBeUndefined();
    expect(validateCard(card('4242424242424241'), NOW)?.param).toBe('number');
    expect(validateCard(card('4242424242424242', { exp_month: 13 }), NOW)?.param).toBe('exp_month');
    expect(validateCard(card('4242424242424242', { exp_month: 10, exp_year: 2026 }), NOW)?.message).toBe(
      'The card has expired.',
    );
    expect(validateCard(card('4242424242424242', { exp_month: 11, exp_year: 2026 }), NOW)).toBeUndefined();
    expect(validateCard(card('4242424242424242', { cvc: '12' }), NOW)?.param).toBe('cvc');
    expect(validateCard(card('378282246310005', { cvc: '123' }), NOW)?.param).toBe('cvc');
    expect(validateCard(card('378282246310005', { cvc: '1234' }), NOW)).toBeUndefined();
  });

  it('keeps only brand, last4 and expiry', () => {
    const summary = summarizeCard(card('4000-0000-0000-0341', { exp_year: 31 }));
    expect(summary).toEqual({ brand: 'visa', last4: '0341', exp_month: 12, exp_year: 2031 });
    expect(JSON.stringify(summary)).not.toContain('400000');
    expect(digitsOnly('4242 4242-4242 4242')).toBe('4242424242424242');
  });
});

describe('SandboxConnector', () => {
  const base = { amount: 1000n, currency: 'USD', livemode: false };

  it('answers each test card as docs/api.md §5 says', async () => {
    const connector = new SandboxConnector();
    const outcomes: Record<string, string> = {};
    for (const number of Object.keys(SANDBOX_TEST_CARDS)) {
      const result = await connector.charge({
        ...base,
        idempotency_key: `k-${number}`,
        card: card(number),
        store_credential: false,
      });
      outcomes[number] = result.status === 'failed' ? result.code : result.status;
    }
    expect(outcomes).toEqual({
      '4242424242424242': 'succeeded',
      '4000000000000002': 'card_declined',
      '4000000000009995': 'insufficient_funds',
      '4000000000000069': 'expired_card',
      '4000000000000119': 'processing_error',
      '4000000000000341': 'succeeded',
      '4000000000000259': 'succeeded',
      '4000000000005126': 'succeeded',
      '4000000000007726': 'succeeded',
      // No return URL: nobody to authenticate (the API's test helper, a stored card).
      '4000002760003184': 'authentication_required',
    });
  });

  it("declines every refund of the 5126 card's charges, and of no other card's", async () => {
    const connector = new SandboxConnector();
    const refund = (card_last4?: string) =>
      connector.refund({
        ...base,
        idempotency_key: `re-${card_last4}`,
        processor_reference: 'sbx_ch_x',
        card_last4,
      });
    expect(await refund('5126')).toMatchObject({ status: 'failed', code: 'processing_error' });
    for (const last4 of ['4242', '0341', '0259', undefined])
      expect(await refund(last4)).toMatchObject({
        status: 'succeeded',
        processor_reference: expect.stringMatching(/^sbx_re_/),
      });
  });

  it("accepts the 7726 card's refunds pending, and a lookup finds them succeeded; others as refund answers them", async () => {
    const connector = new SandboxConnector();
    const request = (card_last4: string) => ({
      ...base,
      idempotency_key: `re-${card_last4}`,
      processor_reference: 'sbx_ch_x',
      card_last4,
    });
    const pending = await connector.refund(request('7726'));
    expect(pending).toEqual({ status: 'pending', processor_reference: expect.stringMatching(/^sbx_re_/) });
    const lookup = (card_last4: string) =>
      connector.lookupRefund({
        idempotency_key: `re-${card_last4}`,
        refund_reference: null,
        payment_reference: 'sbx_ch_x',
        card_last4,
        livemode: false,
      });
    expect(await lookup('7726')).toEqual({
      status: 'succeeded',
      processor_reference: pending.processor_reference,
    });
    expect(await lookup('5126')).toMatchObject({ status: 'failed' });
    expect(await lookup('4242')).toEqual(await connector.refund(request('4242')));
  });

  it('reports a dispute with each charge of the 0259 card (a kept card too), and with no other', async () => {
    const connector = new SandboxConnector();
    for (const store_credential of [false, true]) {
      const disputed = await connector.charge({
        ...base,
        idempotency_key: `k-0259-${store_credential}`,
        card: card('4000000000000259'),
        store_credential,
      });
      expect(disputed).toMatchObject({
        status: 'succeeded',
        dispute: {
          reference: expect.stringMatching(/^sbx_du_/),
          payment_reference: disputed.processor_reference,
          amount: base.amount,
          currency: base.currency,
          fee: 0n,
          reason: 'fraudulent',
          status: 'needs_response',
        },
      });
      if (store_credential)
        expect(disputed).toMatchObject({ credential: expect.stringMatching(/^sbxcred_ok_/) });
    }
    const plain = await connector.charge({
      ...base,
      idempotency_key: 'k-4242',
      card: card('4242424242424242'),
      store_credential: false,
    });
    expect(plain).not.toHaveProperty('dispute');
  });

  it('sends the 3-D Secure card to its challenge page, and looks the decision up', async () => {
    const decisions = new Map<string, 'approved' | 'failed'>();
    const connector = new SandboxConnector({
      decision: async (reference) => decisions.get(reference),
      decide: async (reference, decision) =>
        decisions.get(reference) ?? (decisions.set(reference, decision), decision),
    });
    const returnUrl = 'https://pay.example.test/pay/return/txn_1?token=t';
    const result = await connector.charge({
      ...base,
      idempotency_key: 'txn_1',
      card: card('4000 0027 6000 3184'),
      store_credential: false,
      return_url: returnUrl,
    });
    if (result.status !== 'requires_action')
      throw new Error(`expected requires_action, got ${result.status}`);
    // A path on the platform's own origin, wherever the payer reached it.
    expect(result.redirect_url.startsWith('/pay/sandbox/challenge/')).toBe(true);
    const challenge = new URL(result.redirect_url, 'https://any.example.test');
    expect(challenge.pathname).toBe(`/pay/sandbox/challenge/${result.processor_reference}`);
    expect(challenge.searchParams.get('return_url')).toBe(returnUrl);
    const lookup = {
      idempotency_key: 'txn_1',
      processor_reference: result.processor_reference,
      livemode: false,
    };
    expect(await connector.lookup(lookup)).toEqual({
      status: 'requires_action',
      processor_reference: result.processor_reference,
    });
    decisions.set(result.processor_reference, 'failed');
    expect(await connector.lookup(lookup)).toMatchObject({
      status: 'failed',
      code: 'authentication_required',
    });
    decisions.set(result.processor_reference, 'approved');
    expect(await connector.lookup(lookup)).toMatchObject({ status: 'succeeded' });
    // A charge that keeps the card (a mandate's first) authenticates the same way; approved, it
    // names the credential the mandate keeps, which charges off-session later.
    const kept = await connector.charge({
      ...base,
      idempotency_key: 'txn_2',
      card: card('4000002760003184'),
      store_credential: true,
      return_url: returnUrl,
    });
    if (kept.status !== 'requires_action') throw new Error(`expected requires_action, got ${kept.status}`);
    decisions.set(kept.processor_reference, 'approved');
    const approved = await connector.lookup({ ...lookup, processor_reference: kept.processor_reference });
    expect(approved).toMatchObject({
      status: 'succeeded',
      credential: expect.stringMatching(/^sbxcred_ok_/),
    });
    const credential = 'credential' in approved ? (approved.credential ?? '') : '';
    expect(
      await connector.chargeStored({ ...base, idempotency_key: 'txn_3', credential, attempt: 1 }),
    ).toMatchObject({ status: 'succeeded' });
    // Without a return URL (an off-session charge, the API's test helper) nobody can authenticate.
    const offSession = await connector.charge({
      ...base,
      idempotency_key: 'txn_4',
      card: card('4000002760003184'),
      store_credential: true,
    });
    expect(offSession).toMatchObject({ status: 'failed', code: 'authentication_required' });
  });

  it('cancels an abandoned challenge, unless the payer decided first', async () => {
    const decisions = new Map<string, 'approved' | 'failed'>();
    const connector = new SandboxConnector({
      decision: async (reference) => decisions.get(reference),
      decide: async (reference, decision) =>
        decisions.get(reference) ?? (decisions.set(reference, decision), decision),
    });
    const charge = (key: string) =>
      connector.charge({
        ...base,
        idempotency_key: key,
        card: card('4000002760003184'),
        store_credential: false,
        return_url: 'https://pay.example.test/r',
      });
    const abandoned = await charge('txn_5');
    if (abandoned.status !== 'requires_action') throw new Error('expected requires_action');
    const request = {
      idempotency_key: 'txn_5',
      processor_reference: abandoned.processor_reference,
      livemode: false,
    };
    expect(await connector.cancelAuthentication(request)).toMatchObject({
      status: 'failed',
      code: 'authentication_required',
      message: expect.stringMatching(/in time/),
    });
    expect(decisions.get(abandoned.processor_reference)).toBe('failed');
    const approvedFirst = await charge('txn_6');
    if (approvedFirst.status !== 'requires_action') throw new Error('expected requires_action');
    decisions.set(approvedFirst.processor_reference, 'approved');
    expect(
      await connector.cancelAuthentication({
        ...request,
        processor_reference: approvedFirst.processor_reference,
      }),
    ).toMatchObject({ status: 'succeeded' });
  });

  it('answers a lookup without a reference from the test card, as its charge answered', async () => {
    const connector = new SandboxConnector();
    const ask = (last4: string | undefined) =>
      connector.lookup({
        idempotency_key: 'txn_9',
        processor_reference: null,
        livemode: false,
        card_last4: last4,
      });
    expect(await ask('4242')).toMatchObject({ status: 'succeeded' });
    expect(await ask('9995')).toMatchObject({ status: 'failed', code: 'insufficient_funds' });
    expect(await ask('1111')).toEqual({ status: 'not_found' });
    expect(await ask(undefined)).toEqual({ status: 'not_found' });
  });

  it('refuses cards that are not test cards', async () => {
    const result = await new SandboxConnector().charge({
      ...base,
      idempotency_key: 'x',
      card: card('5555555555554444'),
      store_credential: false,
    });
    expect(result.status).toBe('failed');
  });

  it('charges a stored 0341 credential once, then fails later cycles', async () => {
    const connector = new SandboxConnector();
    const first = await connector.charge({
      ...base,
      idempotency_key: 'first',
      card: card('4000000000000341'),
      store_credential: true,
    });
    expect(first.status).toBe('succeeded');
    const later = await connector.chargeStored({
      ...base,
      idempotency_key: 'cycle-2',
      credential: first.credential ?? '',
      attempt: 1,
    });
    expect(later).toMatchObject({ status: 'failed', code: 'card_declined' });
    const good = await connector.charge({
      ...base,
      idempotency_key: 'good',
      card: card('4242424242424242'),
      store_credential: true,
    });
    const renewal = await connector.chargeStored({
      ...base,
      idempotency_key: 'cycle-2b',
      credential: good.credential ?? '',
      attempt: 1,
    });
    expect(renewal.status).toBe('succeeded');
    expect(good.credential).not.toContain('4242');
  });

  it('answers a retried call exactly like the first (idempotent per key), across instances', async () => {
    const a = await new SandboxConnector().charge({
      ...base,
      idempotency_key: 'txn_1',
      card: card('4242424242424242'),
      store_credential: true,
    });
    const b = await new SandboxConnector().charge({
      ...base,
      idempotency_key: 'txn_1',
      card: card('4242424242424242'),
      store_credential: true,
    });
    expect(b).toEqual(a);
    const c = await new SandboxConnector().charge({
      ...base,
      idempotency_key: 'txn_2',
      card: card('4242424242424242'),
      store_credential: true,
    });
    expect(c.processor_reference).not.toBe(a.processor_reference);
  });
});
