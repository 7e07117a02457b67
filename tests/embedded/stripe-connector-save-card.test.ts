// The Stripe connector's card saving without a charge (the customer portal's card
// replacement, saveCard and lookupSavedCard) against stripe-mock, Stripe's official mock
// server, which validates every request against Stripe's published API; a recording proxy in
// front of it shows what the connector sends (the Idempotency-Key above all), injects the
// failures stripe-mock cannot give and patches the SetupIntent answers its fixtures do not
// (stripe-connector.test.ts has the charges, refunds and lookups).

import { StripeProcessor, type StripeConnector } from '../../apps/payments/src/connectors/stripe';
import {
  apiBaseOf,
  startRecordingProxy,
  startStripeMock,
  type RecordingProxy,
  type StripeMock,
} from '../support/stripe-mock';

const CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };
const KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
let mock: StripeMock;
let proxy: RecordingProxy;

function connectorFor(): { connector: StripeConnector; proxy: RecordingProxy } {
  const processor = new StripeProcessor(apiBaseOf(proxy.url));
  return { connector: processor.connector({ secret_key: KEY, webhook_signing_secret: 'whsec_x' }), proxy };
}

const form = (body: string) => new URLSearchParams(body);
const since = (recorded: RecordingProxy, start: number) => recorded.requests.slice(start);

beforeAll(async () => {
  mock = await startStripeMock('succeeded');
  proxy = await startRecordingProxy(mock.url);
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await mock?.stop();
});

describe("saving a card without a charge (the customer portal replaces a mandate's card)", () => {
  const CUSTOMER_CREDENTIAL = 'cus_mandate0001|pm_old0001';
  const setupSucceeded = (body: any) => ({
    ...body,
    status: 'succeeded',
    last_setup_error: null,
    next_action: null,
  });

  it("confirms a SetupIntent for off-session use under the mandate's own Customer and key", async () => {
    const { connector, proxy } = connectorFor();
    const start = proxy.requests.length;
    proxy.patchNext('POST', '/v1/setup_intents', setupSucceeded);
    const saved = await connector.saveCard({
      idempotency_key: 'card-update:mdt_1:abc',
      card: CARD,
      livemode: true,
      credential: CUSTOMER_CREDENTIAL,
    });
    const sent = since(proxy, start);
    // Every request passed stripe-mock's validation (200), under its own derived key.
    expect(sent.map((r) => [r.method, r.path, r.status, r.headers['idempotency-key']])).toEqual([
      ['POST', '/v1/payment_methods', 200, 'card-update:mdt_1:abc-pm'],
      ['POST', '/v1/setup_intents', 200, 'card-update:mdt_1:abc'],
    ]);
    const setup = Object.fromEntries(form(sent[1].body));
    expect(setup).toMatchObject({
      customer: 'cus_mandate0001',
      usage: 'off_session',
      confirm: 'true',
      'payment_method_types[0]': 'card',
      payment_method: expect.stringMatching(/^pm_/),
      'metadata[paygrid_card_update]': 'card-update:mdt_1:abc',
    });
    // The credential keeps the mandate's form: the same Customer, the new PaymentMethod.
    expect(saved).toEqual({
      status: 'succeeded',
      credential: `cus_mandate0001|${setup.payment_method}`,
      processor_reference: expect.stringMatching(/^seti_/),
    });
    expect(sent[1].body).not.toContain('4242');
  });

  it("creates a Customer when the mandate's credential is not a Stripe card", async () => {
    const { connector, proxy } = connectorFor();
    const start = proxy.requests.length;
    proxy.patchNext('POST', '/v1/setup_intents', setupSucceeded);
    const saved = await connector.saveCard({
      idempotency_key: 'card-update:mdt_2:def',
      card: CARD,
      livemode: true,
      credential: 'sbxcred_ok_1',
    });
    const sent = since(proxy, start);
    expect(sent.map((r) => [r.path, r.status, r.headers['idempotency-key']])).toEqual([
      ['/v1/payment_methods', 200, 'card-update:mdt_2:def-pm'],
      ['/v1/customers', 200, 'card-update:mdt_2:def-cus'],
      ['/v1/setup_intents', 200, 'card-update:mdt_2:def'],
    ]);
    expect(saved).toMatchObject({
      status: 'succeeded',
      credential: expect.stringMatching(/^cus_\w+\|pm_\w+$/),
    });
  });

  it('maps a declined SetupIntent, a 402 and a 3-D Secure request onto our codes; never succeeded', async () => {
    const { connector, proxy } = connectorFor();
    const save = (key: string) =>
      connector.saveCard({
        idempotency_key: key,
        card: CARD,
        livemode: true,
        credential: CUSTOMER_CREDENTIAL,
      });
    // stripe-mock's own SetupIntent answer: requires_payment_method.
    expect(await save('cu_plain')).toMatchObject({ status: 'failed', code: 'card_declined' });
    proxy.patchNext('POST', '/v1/setup_intents', (body: any) => ({
      ...body,
      status: 'requires_payment_method',
      last_setup_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' },
    }));
    expect(await save('cu_funds')).toMatchObject({ status: 'failed', code: 'insufficient_funds' });
    proxy.failNext('/v1/setup_intents', 402, {
      type: 'card_error',
      code: 'expired_card',
      message: 'expired',
    });
    expect(await save('cu_expired')).toMatchObject({ status: 'failed', code: 'expired_card' });
    proxy.patchNext('POST', '/v1/setup_intents', (body: any) => ({
      ...body,
      status: 'requires_action',
      next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} },
    }));
    expect(await save('cu_3ds')).toMatchObject({
      status: 'failed',
      code: 'authentication_required',
      message: expect.stringContaining('3-D Secure'),
      processor_reference: expect.stringMatching(/^seti_/),
    });
  });

  it('with a return URL, 3-D Secure sends the payer to next_action; the return settles by the SetupIntent', async () => {
    const { connector, proxy } = connectorFor();
    const start = proxy.requests.length;
    proxy.patchNext('POST', '/v1/setup_intents', (body: any) => ({
      ...body,
      status: 'requires_action',
      next_action: {
        type: 'redirect_to_url',
        redirect_to_url: { url: 'https://hooks.stripe.com/3d_secure_2/x', return_url: null },
      },
    }));
    const pending = await connector.saveCard({
      idempotency_key: 'card-update:mdt_3:ghi',
      card: CARD,
      livemode: true,
      credential: CUSTOMER_CREDENTIAL,
      return_url: 'https://pay.example/pay/cards/tok?saved=abc',
    });
    const setup = Object.fromEntries(form(since(proxy, start)[1].body));
    expect(setup.return_url).toBe('https://pay.example/pay/cards/tok?saved=abc');
    expect(pending).toEqual({
      status: 'requires_action',
      redirect_url: 'https://hooks.stripe.com/3d_secure_2/x',
      processor_reference: expect.stringMatching(/^seti_/),
      credential: `cus_mandate0001|${setup.payment_method}`,
    });
    const settled = (patch: Record<string, unknown>) => (body: any) => ({
      ...body,
      customer: 'cus_mandate0001',
      payment_method: 'pm_authenticated1',
      metadata: { paygrid_card_update: 'card-update:mdt_3:ghi' },
      ...patch,
    });
    const lookup = () =>
      connector.lookupSavedCard({
        processor_reference: 'seti_123',
        idempotency_key: 'card-update:mdt_3:ghi',
        livemode: true,
      });
    proxy.patchNext('GET', '/v1/setup_intents/seti_123', settled({ status: 'requires_action' }));
    expect(await lookup()).toEqual({ status: 'requires_action', processor_reference: expect.any(String) });
    proxy.patchNext('GET', '/v1/setup_intents/seti_123', settled({ status: 'succeeded' }));
    expect(await lookup()).toMatchObject({
      status: 'succeeded',
      credential: 'cus_mandate0001|pm_authenticated1',
    });
    proxy.patchNext(
      'GET',
      '/v1/setup_intents/seti_123',
      settled({
        status: 'requires_payment_method',
        last_setup_error: { code: 'payment_intent_authentication_failure' },
      }),
    );
    expect(await lookup()).toMatchObject({ status: 'failed', code: 'authentication_required' });
    // A SetupIntent of another save (its id swapped into the return URL) is not this one.
    proxy.patchNext(
      'GET',
      '/v1/setup_intents/seti_123',
      settled({ status: 'succeeded', metadata: { paygrid_card_update: 'card-update:mdt_other:x' } }),
    );
    expect(await lookup()).toMatchObject({ status: 'failed', code: 'processing_error' });
  });

  it("no answer from Stripe (after the SDK's retries under the same key) is a processing_error to retry", async () => {
    const { connector, proxy } = connectorFor();
    const start = proxy.requests.length;
    proxy.failNext('/v1/setup_intents', 503, { type: 'api_error', message: 'down' }, 3);
    const saved = await connector.saveCard({
      idempotency_key: 'cu_down',
      card: CARD,
      livemode: true,
      credential: CUSTOMER_CREDENTIAL,
    });
    expect(saved).toMatchObject({ status: 'failed', code: 'processing_error' });
    const setups = since(proxy, start).filter((r) => r.path === '/v1/setup_intents');
    expect(setups.map((r) => r.headers['idempotency-key'])).toEqual(['cu_down', 'cu_down', 'cu_down']);
  });
});
