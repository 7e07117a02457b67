// The Stripe connector against stripe-mock, Stripe's official mock server, which validates
// every request against Stripe's published API (a wrong type or an unknown parameter is a 400).
// A recording proxy in front of it shows what the connector sends (the Idempotency-Key above
// all) and injects the failures stripe-mock cannot give (a 5xx, a 402 decline). One stripe-mock
// per fixture set drives the PaymentIntent outcomes: succeeded, requires_action, declined, and
// the bundled default (requires_payment_method).
//
// One-off charges and 3-D Secure with lookup live in stripe-connector/ and run here, in this
// order, against the stripe-mocks this file starts once (four processes: starting them again
// in another test file would cost seconds of CPU).

import { StripeProcessor } from '../../apps/payments/src/connectors/stripe';
import {
  apiBaseOf,
  startRecordingProxy,
  startStripeMock,
  type RecordingProxy,
  type StripeMock,
  type StripeMockOutcome,
} from '../support/stripe-mock';
import { authenticationAndLookupCases } from './stripe-connector/3ds-lookup.cases';
import { oneOffChargeCases } from './stripe-connector/charges.cases';
import {
  CARD,
  connectorsOf,
  form,
  KEY,
  OUTCOMES,
  since,
  type Proxies,
} from './stripe-connector/connector.helpers';

const mocks = new Map<StripeMockOutcome, StripeMock>();
const proxies: Proxies = new Map();
const connectorFor = connectorsOf(proxies);

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

oneOffChargeCases(proxies);

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
    if (first.status !== 'succeeded') throw new Error('narrowing');
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

authenticationAndLookupCases(proxies);
