// Processor connections' rules (docs/api.md Part 2): validation in the catalogue's envelope,
// one connection in use per account and mode, credentials rotated in place, a refused key
// recorded as `failing` by verify, and a live payment through a connection whose key Stripe
// refuses is failed, never succeeded. stripe-mock stands in for Stripe (it refuses live keys,
// as Stripe refuses an unknown key). Both run modes.

import { csrfOf, pathOf, payPage, submitForm } from '../support/pages';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';
import {
  startRecordingProxy,
  startStripeMock,
  type RecordingProxy,
  type StripeMock,
} from '../support/stripe-mock';

const KEY = `sk_test_${'Pc7'.repeat(8)}`;
const SIGNING = `whsec_${'Pc7'.repeat(8)}`;

let stripe: StripeMock;
let proxy: RecordingProxy;
let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  stripe = await startStripeMock('succeeded');
  // Through a recording proxy, which can answer for Stripe when Stripe "fails".
  proxy = await startRecordingProxy(stripe.url);
  platform = await startPlatform({ env: { STRIPE_API_BASE: proxy.url } });
  account = await platform.newAccount(['payments']);
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await proxy?.stop();
  await stripe?.stop();
});

const live = (method: string, path: string, body?: unknown) =>
  platform.api(account.liveKey, method, path, body);
const create = (credentials: object, extra: object = {}) =>
  live('POST', '/v1/processor-connections', { processor: 'stripe', credentials, ...extra });

it('validates the request in the error envelope, naming the field', async () => {
  const cases: [unknown, number, string, string | undefined][] = [
    [{ processor: 'stripe' }, 400, 'parameter_missing', 'credentials'],
    [
      { processor: 'adyen', credentials: { secret_key: KEY, webhook_signing_secret: SIGNING } },
      400,
      'parameter_invalid',
      'processor',
    ],
    [
      {
        processor: 'stripe',
        credentials: { secret_key: 'pk_test_abcdefgh', webhook_signing_secret: SIGNING },
      },
      400,
      'parameter_invalid',
      'credentials[secret_key]',
    ],
    [
      { processor: 'stripe', credentials: { secret_key: KEY, webhook_signing_secret: 'nope' } },
      400,
      'parameter_invalid',
      'credentials[webhook_signing_secret]',
    ],
    [
      { processor: 'stripe', credentials: { secret_key: KEY, webhook_signing_secret: SIGNING, extra: 'x' } },
      400,
      'parameter_unknown',
      undefined,
    ],
    [{ processor: 'stripe', credentials: 'sk_test_x' }, 400, 'parameter_invalid', 'credentials'],
  ];
  for (const [body, status, code, param] of cases) {
    const response = await live('POST', '/v1/processor-connections', body);
    expect({ body, status: response.status, code: response.body.error?.code }).toEqual({
      body,
      status,
      code,
    });
    if (param) expect({ body, param: response.body.error.param }).toEqual({ body, param });
  }
  expect((await live('GET', '/v1/processor-connections')).body.data).toEqual([]);
});

it('keeps one connection in use per mode: a new one disables the previous one', async () => {
  const first = await create({ secret_key: KEY, webhook_signing_secret: SIGNING });
  const second = await create(
    { secret_key: `${KEY}X2`, webhook_signing_secret: SIGNING },
    { description: 'second' },
  );
  expect([first.status, second.status]).toEqual([200, 200]);
  const list = (await live('GET', '/v1/processor-connections')).body.data;
  expect(list.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
    [second.body.id, 'active'],
    [first.body.id, 'disabled'],
  ]);
  // A disabled connection keeps its description but takes no new credentials.
  const rotateDisabled = await live('POST', `/v1/processor-connections/${first.body.id}`, {
    credentials: { secret_key: KEY, webhook_signing_secret: SIGNING },
  });
  expect([rotateDisabled.status, rotateDisabled.body.error.code]).toEqual([409, 'invalid_state_transition']);
});

it('records a refused key as failing, and a live payment through it fails, never succeeds', async () => {
  // stripe-mock refuses every live key (401), as Stripe refuses a revoked one.
  const refusedKey = `sk_live_${'Rf5'.repeat(8)}`;
  const connection = (await create({ secret_key: refusedKey, webhook_signing_secret: SIGNING })).body;
  const verified = await live('POST', `/v1/processor-connections/${connection.id}/verify`);
  expect(verified.body).toMatchObject({
    status: 'failing',
    processor_account: null,
    verification: { status: 'failed', message: expect.stringMatching(/^Stripe refused the credentials/) },
  });
  expect(JSON.stringify(verified.body)).not.toContain(refusedKey);

  const merchant = (
    await live('POST', '/v1/merchants', {
      business_name: 'Failing Shop',
      email: 'ops@failing.example',
      country: 'FR',
      default_currency: 'EUR',
      business_type: 'company',
      website: 'https://failing.example',
    })
  ).body.id;
  await platform.admin('POST', `/admin/v1/merchants/${merchant}/approve`);
  const link = (await live('POST', '/v1/payment-links', { merchant, amount: 990, currency: 'EUR' })).body;
  const answer = await payPage(platform, pathOf(link.url), '5555555555554444');
  expect(String(answer.body)).not.toContain('Payment successful');
  const [payment] = (await live('GET', `/v1/transactions?payment_link=${link.id}`)).body.data;
  expect(payment).toMatchObject({ status: 'failed', failure_code: 'processing_error' });

  // Rotating the key in place: same connection, new last 4, verified again, active again.
  const rotated = await live('POST', `/v1/processor-connections/${connection.id}`, {
    credentials: { secret_key: KEY, webhook_signing_secret: SIGNING },
  });
  expect(rotated.body).toMatchObject({
    id: connection.id,
    status: 'active',
    credentials: { secret_key_last4: KEY.slice(-4) },
    verification: { status: 'unverified', message: null },
  });
  const reverified = await live('POST', `/v1/processor-connections/${connection.id}/verify`);
  expect(reverified.body).toMatchObject({ status: 'active', verification: { status: 'succeeded' } });
});

it("the operator's create names an existing account and a mode", async () => {
  const missing = await platform.admin(
    'POST',
    '/admin/v1/accounts/acct_00000000000000000000/processor-connections',
    {
      mode: 'live',
      processor: 'stripe',
      credentials: { secret_key: KEY, webhook_signing_secret: SIGNING },
    },
  );
  expect([missing.status, missing.body.error.code]).toEqual([404, 'resource_missing']);
  const badMode = await platform.admin('POST', `/admin/v1/accounts/${account.id}/processor-connections`, {
    mode: 'production',
    processor: 'stripe',
    credentials: { secret_key: KEY, webhook_signing_secret: SIGNING },
  });
  expect([badMode.status, badMode.body.error.code, badMode.body.error.param]).toEqual([
    400,
    'parameter_invalid',
    'mode',
  ]);
  const test = await platform.admin('POST', `/admin/v1/accounts/${account.id}/processor-connections`, {
    mode: 'test',
    processor: 'stripe',
    credentials: { secret_key: KEY, webhook_signing_secret: SIGNING },
  });
  expect(test.body).toMatchObject({ livemode: false, status: 'active' });
  // Test mode still charges the sandbox: a test connection changes nothing there.
  const sandbox = await platform.api(account.testKey, 'POST', '/v1/transactions/test-helpers/payments', {
    amount: 100,
    currency: 'USD',
    card_number: '4242424242424242',
  });
  expect(sandbox.body).toMatchObject({ status: 'succeeded', livemode: false });
});

it('when Stripe gives no answer, the payment stays pending and the same form cannot charge again', async () => {
  const merchant = (
    await live('POST', '/v1/merchants', {
      business_name: 'Outage Shop',
      email: 'ops@outage.example',
      country: 'FR',
      default_currency: 'EUR',
      business_type: 'company',
      website: 'https://outage.example',
    })
  ).body.id;
  await platform.admin('POST', `/admin/v1/merchants/${merchant}/approve`);
  const link = (await live('POST', '/v1/payment-links', { merchant, amount: 4200, currency: 'EUR' })).body;
  const path = pathOf(link.url);
  const token = csrfOf(String((await platform.api(undefined, 'GET', path)).body));
  // The first try and the SDK's two retries all get a 503.
  const start = proxy.requests.length;
  proxy.failNext('/v1/payment_intents', 503, { type: 'api_error', message: 'unavailable' }, 3);
  const answer = await submitForm(platform, path, token, '5555555555554444');
  expect(answer.status).toBe(503);
  expect(String(JSON.stringify(answer.body))).not.toContain('Payment successful');
  const intents = proxy.requests.slice(start).filter((r) => r.path === '/v1/payment_intents');
  expect(intents).toHaveLength(3);
  expect(new Set(intents.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  const [payment] = (await live('GET', `/v1/transactions?payment_link=${link.id}`)).body.data;
  expect(payment).toMatchObject({ status: 'pending' });
  expect(intents[0].headers['idempotency-key']).toBe(payment.id);

  // The same form posted again (a reload, a second click) starts no second charge.
  const again = await submitForm(platform, path, token, '5555555555554444');
  expect(again.status).not.toBe(200);
  expect(proxy.requests.slice(start).filter((r) => r.path === '/v1/payment_intents')).toHaveLength(3);
  expect((await live('GET', `/v1/transactions?payment_link=${link.id}`)).body.data).toHaveLength(1);
}, 60_000);
