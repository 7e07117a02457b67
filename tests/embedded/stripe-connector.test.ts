// The Stripe connector against stripe-mock, Stripe's official mock server, which validates
// every request against Stripe's published API (a wrong type or an unknown parameter is a 400).
// A recording proxy in front of it shows what the connector sends (the Idempotency-Key above
// all) and injects the failures stripe-mock cannot give (a 5xx, a 402 decline). One stripe-mock
// per fixture set drives the PaymentIntent outcomes: succeeded, requires_action, declined, and
// the bundled default (requires_payment_method).

import { StripeConnector, StripeProcessor } from '../../apps/payments/src/connectors/stripe';
import type { ConnectorOutcome } from '../../apps/payments/src/connectors/connector';
import {
  apiBaseOf,
  startRecordingProxy,
  startStripeMock,
  type RecordingProxy,
  type StripeMock,
  type StripeMockOutcome,
} from '../support/stripe-mock';

const OUTCOMES: StripeMockOutcome[] = ['succeeded', 'requires_action', 'declined', 'bundled'];
const mocks = new Map<StripeMockOutcome, StripeMock>();
const proxies = new Map<StripeMockOutcome, RecordingProxy>();
const CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
const KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';

function connectorFor(outcome: StripeMockOutcome): { connector: StripeConnector; proxy: RecordingProxy } {
  const proxy = proxies.get(outcome) as RecordingProxy;
  const processor = new StripeProcessor(apiBaseOf(proxy.url));
  return { connector: processor.connector({ secret_key: KEY, webhook_signing_secret: 'whsec_x' }), proxy };
}

const form = (body: string) => new URLSearchParams(body);
const since = (proxy: RecordingProxy, start: number) => proxy.requests.slice(start);

beforeAll(async () => {
  for (const outcome of OUTCOMES) {
    const mock = await startStripeMock(outcome);
    mocks.set(outcome, mock);
    proxies.set(outcome, await startRecordingProxy(mock.url));
  }
}, 120_000);

afterAll(async () => {
  for (const proxy of proxies.values()) await proxy.stop();
  for (const mock of mocks.values()) await mock.stop();
});

describe('one-off charges', () => {
  it('creates a PaymentMethod, then a PaymentIntent confirmed with it under the intent id', async () => {
    const { connector, proxy } = connectorFor('succeeded');
    const start = proxy.requests.length;
    const outcome = await connector.charge({
      idempotency_key: 'txn_charge0001',
      amount: 2500n,
      currency: 'GBP',
      livemode: true,
      card: CARD,
      store_credential: false,
    });
    expect(outcome).toEqual({ status: 'succeeded', processor_reference: expect.stringMatching(/^pi_/) });
    const sent = since(proxy, start);
    expect(sent.map((r) => [r.method, r.path, r.status, r.headers['idempotency-key']])).toEqual([
      ['POST', '/v1/payment_methods', 200, 'txn_charge0001-pm'],
      ['POST', '/v1/payment_intents', 200, 'txn_charge0001'],
    ]);
    const intent = form(sent[1].body);
    expect(Object.fromEntries(intent)).toMatchObject({
      amount: '2500',
      currency: 'gbp',
      confirm: 'true',
      payment_method: expect.stringMatching(/^pm_/),
    });
    // The card travels only to the PaymentMethod; the PaymentIntent never carries it.
    expect(sent[1].body).not.toContain('4242');
    expect(form(sent[0].body).get('card[number]')).toBe('4242424242424242');
    expect(sent.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it.each([
    ['requires_action', 'authentication_required'],
    ['declined', 'insufficient_funds'],
    ['bundled', 'card_declined'],
  ] as const)('a PaymentIntent answered %s is failed with %s, never succeeded', async (mock, code) => {
    const { connector } = connectorFor(mock);
    const outcome = await connector.charge({
      idempotency_key: `txn_${mock}01`,
      amount: 1000n,
      currency: 'EUR',
      livemode: true,
      card: CARD,
      store_credential: false,
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      code,
      processor_reference: expect.stringMatching(/^pi_/),
    });
  });

  it('maps 402 card errors onto our decline codes, without retrying them', async () => {
    const cases: [Record<string, string>, ConnectorOutcome['status'], string][] = [
      [
        { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' },
        'failed',
        'card_declined',
      ],
      [{ type: 'card_error', code: 'expired_card' }, 'failed', 'expired_card'],
      [{ type: 'card_error', code: 'incorrect_cvc' }, 'failed', 'incorrect_cvc'],
      [
        { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' },
        'failed',
        'insufficient_funds',
      ],
      [{ type: 'card_error', code: 'authentication_required' }, 'failed', 'authentication_required'],
      [{ type: 'card_error', code: 'processing_error' }, 'failed', 'processing_error'],
    ];
    const { connector, proxy } = connectorFor('succeeded');
    for (const [error, status, code] of cases) {
      const start = proxy.requests.length;
      proxy.failNext('/v1/payment_intents', 402, { ...error, message: 'declined' });
      const outcome = await connector.charge({
        idempotency_key: `txn_402_${code}`,
        amount: 1000n,
        currency: 'USD',
        livemode: true,
        card: CARD,
        store_credential: false,
      });
      expect({
        error,
        outcome: outcome.status,
        code: outcome.status === 'failed' ? outcome.code : null,
      }).toEqual({
        error,
        outcome: status,
        code,
      });
      expect(since(proxy, start).filter((r) => r.path === '/v1/payment_intents')).toHaveLength(1);
    }
  });

  it('retries a 5xx with the same Idempotency-Key, and succeeds once Stripe answers', async () => {
    const { connector, proxy } = connectorFor('succeeded');
    const start = proxy.requests.length;
    proxy.failNext('/v1/payment_intents', 500, { type: 'api_error', message: 'boom' });
    const outcome = await connector.charge({
      idempotency_key: 'txn_retry0001',
      amount: 700n,
      currency: 'USD',
      livemode: true,
      card: CARD,
      store_credential: false,
    });
    expect(outcome.status).toBe('succeeded');
    const intents = since(proxy, start).filter((r) => r.path === '/v1/payment_intents');
    expect(intents.map((r) => [r.status, r.headers['idempotency-key']])).toEqual([
      [500, 'txn_retry0001'],
      [200, 'txn_retry0001'],
    ]);
    expect(intents[1].body).toBe(intents[0].body);
  });

  it('leaves the outcome unknown (thrown, the intent stays pending) when Stripe keeps failing', async () => {
    const { connector, proxy } = connectorFor('succeeded');
    const start = proxy.requests.length;
    proxy.failNext('/v1/payment_intents', 503, { type: 'api_error', message: 'down' }, 3);
    await expect(
      connector.charge({
        idempotency_key: 'txn_down0001',
        amount: 700n,
        currency: 'USD',
        livemode: true,
        card: CARD,
        store_credential: false,
      }),
    ).rejects.toMatchObject({ code: 'upstream_unavailable' });
    const intents = since(proxy, start).filter((r) => r.path === '/v1/payment_intents');
    // The first try and the SDK's two retries, all under the one key.
    expect(intents.map((r) => r.headers['idempotency-key'])).toEqual([
      'txn_down0001',
      'txn_down0001',
      'txn_down0001',
    ]);
  });

  it('does not retry a 4xx: an invalid request is a failed payment with processing_error', async () => {
    const { connector, proxy } = connectorFor('succeeded');
    const start = proxy.requests.length;
    proxy.failNext('/v1/payment_intents', 400, { type: 'invalid_request_error', code: 'parameter_unknown' });
    const outcome = await connector.charge({
      idempotency_key: 'txn_400_0001',
      amount: 700n,
      currency: 'USD',
      livemode: true,
      card: CARD,
      store_credential: false,
    });
    expect(outcome).toMatchObject({ status: 'failed', code: 'processing_error' });
    expect(since(proxy, start).filter((r) => r.path === '/v1/payment_intents')).toHaveLength(1);
  });

  it('refuses currencies whose Stripe minor unit differs from ISO 4217, before calling Stripe', async () => {
    const { connector, proxy } = connectorFor('succeeded');
    const start = proxy.requests.length;
    const outcome = await connector.charge({
      idempotency_key: 'txn_isk00001',
      amount: 100n,
      currency: 'ISK',
      livemode: true,
      card: CARD,
      store_credential: false,
    });
    expect(outcome).toMatchObject({ status: 'failed', code: 'processing_error' });
    expect(since(proxy, start)).toHaveLength(0);
  });
});

describe('stored cards (mandates)', () => {
  it('keeps the card as a Customer + PaymentMethod and charges later cycles off-session', async () => {
    const { connector, proxy } = connectorFor('succeeded');
    const start = proxy.requests.length;
    const first = await connector.charge({
      idempotency_key: 'txn_mandate001',
      amount: 1500n,
      currency: 'EUR',
      livemode: true,
      card: CARD,
      store_credential: true,
    });
    expect(first).toMatchObject({
      status: 'succeeded',
      credential: expect.stringMatching(/^cus_\w+\|pm_\w+$/),
    });
    const sent = since(proxy, start);
    expect(sent.map((r) => [r.path, r.status, r.headers['idempotency-key']])).toEqual([
      ['/v1/payment_methods', 200, 'txn_mandate001-pm'],
      ['/v1/customers', 200, 'txn_mandate001-cus'],
      ['/v1/payment_intents', 200, 'txn_mandate001'],
    ]);
    expect(Object.fromEntries(form(sent[2].body))).toMatchObject({
      setup_future_usage: 'off_session',
      customer: expect.stringMatching(/^cus_/),
    });

    const cycleStart = proxy.requests.length;
    const cycle = await connector.chargeStored({
      idempotency_key: 'txn_cycle0002',
      amount: 1500n,
      currency: 'EUR',
      livemode: true,
      credential: first.credential ?? '',
      attempt: 1,
    });
    expect(cycle.status).toBe('succeeded');
    const [cycleIntent] = since(proxy, cycleStart);
    expect([cycleIntent.path, cycleIntent.status, cycleIntent.headers['idempotency-key']]).toEqual([
      '/v1/payment_intents',
      200,
      'txn_cycle0002',
    ]);
    const [customer, paymentMethod] = (first.credential ?? '').split('|');
    expect(Object.fromEntries(form(cycleIntent.body))).toMatchObject({
      off_session: 'true',
      confirm: 'true',
      customer,
      payment_method: paymentMethod,
    });
  });

  it('fails an off-session charge that asks for authentication with authentication_required', async () => {
    const { connector } = connectorFor('requires_action');
    const outcome = await connector.chargeStored({
      idempotency_key: 'txn_cycle3ds1',
      amount: 1500n,
      currency: 'EUR',
      livemode: true,
      credential: 'cus_Abcdefgh|pm_Abcdefgh',
      attempt: 1,
    });
    expect(outcome).toMatchObject({ status: 'failed', code: 'authentication_required' });
  });

  it('refuses a credential that is not a Stripe one without calling Stripe', async () => {
    const { connector, proxy } = connectorFor('succeeded');
    const start = proxy.requests.length;
    const outcome = await connector.chargeStored({
      idempotency_key: 'txn_badcred01',
      amount: 1500n,
      currency: 'EUR',
      livemode: true,
      credential: 'sbxcred_ok_123',
      attempt: 1,
    });
    expect(outcome).toMatchObject({ status: 'failed', code: 'processing_error' });
    expect(since(proxy, start)).toHaveLength(0);
  });
});

describe('refunds', () => {
  it('refunds in part, several times, each under its own key', async () => {
    const { connector, proxy } = connectorFor('succeeded');
    const start = proxy.requests.length;
    for (const [key, amount] of [
      ['re_first0001', 500n],
      ['re_second001', 700n],
    ] as const) {
      const outcome = await connector.refund({
        idempotency_key: key,
        amount,
        currency: 'GBP',
        livemode: true,
        processor_reference: 'pi_Abcdefgh12345',
      });
      expect(outcome).toEqual({ status: 'succeeded', processor_reference: expect.stringMatching(/^re_/) });
    }
    const sent = since(proxy, start);
    expect(
      sent.map((r) => [
        r.path,
        r.status,
        r.headers['idempotency-key'],
        form(r.body).get('amount'),
        form(r.body).get('payment_intent'),
      ]),
    ).toEqual([
      ['/v1/refunds', 200, 're_first0001', '500', 'pi_Abcdefgh12345'],
      ['/v1/refunds', 200, 're_second001', '700', 'pi_Abcdefgh12345'],
    ]);
  });
});

describe('verification', () => {
  it("answers the processor's account id for a working key, and why for a refused one", async () => {
    const proxy = proxies.get('bundled') as RecordingProxy;
    const processor = new StripeProcessor(apiBaseOf(proxy.url));
    expect(await processor.verify({ secret_key: KEY, webhook_signing_secret: 'whsec_x' })).toEqual({
      ok: true,
      processor_account: expect.stringMatching(/^acct_/),
    });
    // stripe-mock, like Stripe, refuses a key it does not know (it knows only test keys).
    const refused = await processor.verify({
      secret_key: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
      webhook_signing_secret: 'whsec_x',
    });
    expect(refused).toEqual({ ok: false, message: expect.stringMatching(/^Stripe refused the credentials/) });
    expect(JSON.stringify(refused)).not.toContain('4eC39HqLyjWDarjtT1zdp7dc');
  });
});

describe('3-D Secure and lookup', () => {
  it('a hosted-form charge with a return URL answers requires_action with the next_action URL', async () => {
    const { connector, proxy } = connectorFor('requires_action');
    const start = proxy.requests.length;
    const returnUrl = 'https://pay.example.test/pay/return/txn_3ds0001?token=abc';
    const outcome = await connector.charge({
      idempotency_key: 'txn_3ds0001',
      amount: 4200n,
      currency: 'EUR',
      livemode: true,
      card: CARD,
      store_credential: false,
      return_url: returnUrl,
    });
    expect(outcome).toEqual({
      status: 'requires_action',
      redirect_url: 'https://hooks.stripe.com/3d_secure',
      processor_reference: expect.stringMatching(/^pi_/),
    });
    const intent = form(since(proxy, start)[1].body);
    // stripe-mock accepted the return_url with confirm=true (Stripe's published API).
    expect(intent.get('return_url')).toBe(returnUrl);
    expect(intent.get('metadata[paygrid_intent]')).toBe('txn_3ds0001');
    expect(connector.authenticationOrigins).toEqual(['https://hooks.stripe.com']);
  });

  it('a card kept for a mandate authenticates on-session too; the lookup after it names the kept card', async () => {
    const { connector, proxy } = connectorFor('requires_action');
    const start = proxy.requests.length;
    const outcome = await connector.charge({
      idempotency_key: 'txn_3dskeep1',
      amount: 990n,
      currency: 'EUR',
      livemode: true,
      card: CARD,
      store_credential: true,
      return_url: 'https://pay.example.test/pay/return/txn_3dskeep1?token=abc',
    });
    expect(outcome).toMatchObject({
      status: 'requires_action',
      processor_reference: expect.stringMatching(/^pi_/),
    });
    const sent = since(proxy, start);
    expect(sent.map((r) => [r.method, r.path, r.status, r.headers['idempotency-key']])).toEqual([
      ['POST', '/v1/payment_methods', 200, 'txn_3dskeep1-pm'],
      ['POST', '/v1/customers', 200, 'txn_3dskeep1-cus'],
      ['POST', '/v1/payment_intents', 200, 'txn_3dskeep1'],
    ]);
    // stripe-mock accepted setup_future_usage with a return URL on a confirmed PaymentIntent.
    expect(Object.fromEntries(form(sent[2].body))).toMatchObject({
      setup_future_usage: 'off_session',
      customer: expect.stringMatching(/^cus_/),
      return_url: 'https://pay.example.test/pay/return/txn_3dskeep1?token=abc',
      confirm: 'true',
    });
    // After the payer authenticated, Stripe has it succeeded with the card kept on the Customer
    // (patched onto stripe-mock's fixture, which keeps no state).
    proxy.patchNext('GET', '/v1/payment_intents/pi_keep01', (pi) => ({
      ...pi,
      status: 'succeeded',
      next_action: null,
      customer: 'cus_keep01',
      payment_method: 'pm_keep01',
      setup_future_usage: 'off_session',
    }));
    const found = await connector.lookup({
      idempotency_key: 'txn_3dskeep1',
      processor_reference: 'pi_keep01',
      livemode: true,
    });
    expect(found).toEqual({
      status: 'succeeded',
      processor_reference: 'pi_keep01',
      credential: 'cus_keep01|pm_keep01',
    });
  });

  it('looks a PaymentIntent up by its recorded id, still waiting or settled', async () => {
    for (const [mock, expected] of [
      ['requires_action', { status: 'requires_action' }],
      ['succeeded', { status: 'succeeded' }],
      ['declined', { status: 'failed', code: 'insufficient_funds' }],
    ] as const) {
      const { connector, proxy } = connectorFor(mock);
      const start = proxy.requests.length;
      const found = await connector.lookup({
        idempotency_key: 'txn_lookup01',
        processor_reference: 'pi_lookup01',
        livemode: true,
      });
      expect(found).toMatchObject(expected);
      expect(since(proxy, start).map((r) => [r.method, r.path, r.status])).toEqual([
        ['GET', '/v1/payment_intents/pi_lookup01', 200],
      ]);
    }
  });

  it('without a recorded id, searches by metadata.paygrid_intent; a refused lookup leaves the outcome unknown', async () => {
    const { connector, proxy } = connectorFor('succeeded');
    const start = proxy.requests.length;
    const found = await connector.lookup({
      idempotency_key: 'txn_search01',
      processor_reference: null,
      livemode: true,
    });
    expect(found).toMatchObject({ status: 'succeeded', processor_reference: expect.stringMatching(/^pi_/) });
    const [search] = since(proxy, start);
    expect(search.method).toBe('GET');
    expect(search.status).toBe(200);
    expect(new URL(search.path, 'http://x').searchParams.get('query')).toBe(
      "metadata['paygrid_intent']:'txn_search01'",
    );
    proxy.failNext('/v1/payment_intents/search', 401, { type: 'invalid_request_error', message: 'no' });
    await expect(
      connector.lookup({ idempotency_key: 'txn_search02', processor_reference: null, livemode: true }),
    ).rejects.toMatchObject({ code: 'upstream_unavailable' });
  });
});
