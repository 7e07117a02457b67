// Processor webhooks in (docs/api.md Part 2): Stripe's events, signed with the connection's
// signing secret as Stripe signs them, posted to POST /hooks/stripe/<connection> through the
// gateway. A bad signature or an unknown connection is a 400 that stores nothing; each event is
// applied once; events that arrive early, twice or out of order change nothing wrongly; disputes
// move the ledger and hold their amount back from refunds, even under concurrent refunds. The
// connection's connector talks to stripe-mock through a recording proxy, which stands in for a
// Stripe that did not answer (so an intent stays pending for the webhook to settle). Both modes.
//
// The disputes cases live in processor-webhooks/ and run here, after the payment and refund
// cases, against one platform: each test file that starts one costs seconds of CPU per mode,
// so the suite stays one file.

import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';
import { paymentIntent, postEvent, refund, signedEvent, stripeId } from '../support/stripe-events';
import {
  startRecordingProxy,
  startStripeMock,
  type RecordingProxy,
  type StripeMock,
} from '../support/stripe-mock';
import { disputeCases } from './processor-webhooks/disputes.cases';
import { KEY, SIGNING, webhookHelpers, type WebhooksContext } from './processor-webhooks/webhooks.helpers';

let stripe: StripeMock;
let proxy: RecordingProxy;
let platform: Platform;
let account: TestAccount;
let connection: string;
let merchant: string;
const ctx = (): WebhooksContext => ({ platform, account, proxy, connection, merchant });
const hooks = webhookHelpers(ctx);
const { live, now, send, storedEvents, ledger, balance, paymentSettledByWebhook } = hooks;

beforeAll(async () => {
  stripe = await startStripeMock('succeeded');
  proxy = await startRecordingProxy(stripe.url);
  platform = await startPlatform({ env: { STRIPE_API_BASE: proxy.url }, paymentsTestClock: true });
  account = await platform.newAccount(['payments']);
  const created = await platform.admin('POST', `/admin/v1/accounts/${account.id}/processor-connections`, {
    mode: 'live',
    processor: 'stripe',
    credentials: { secret_key: KEY, webhook_signing_secret: SIGNING },
  });
  expect(created.status).toBe(200);
  connection = created.body.id;
  const mer = await live('POST', '/v1/merchants', {
    business_name: 'Hooks Shop',
    email: 'ops@hooks-shop.example',
    country: 'GB',
    default_currency: 'GBP',
    business_type: 'company',
    website: 'https://hooks-shop.example',
  });
  merchant = mer.body.id;
  expect((await platform.admin('POST', `/admin/v1/merchants/${merchant}/approve`)).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await proxy?.stop();
  await stripe?.stop();
});

it('refuses an unknown connection, a bad or stale signature, with 400 and nothing stored', async () => {
  const object = paymentIntent(stripeId('pi'), 'txn_00000000unknown', 'succeeded', 100, 'GBP');
  const good = signedEvent(SIGNING, 'payment_intent.succeeded', object);
  const cases: [string, string, Record<string, string>][] = [
    [
      'unknown connection',
      `/hooks/stripe/pcon_00000000nosuchconnection`,
      { 'stripe-signature': good.signature },
    ],
    ['malformed connection id', `/hooks/stripe/..%2Fadmin`, { 'stripe-signature': good.signature }],
    ['another processor', `/hooks/adyen/${connection}`, { 'stripe-signature': good.signature }],
    ['no signature', `/hooks/stripe/${connection}`, {}],
    [
      'another secret',
      `/hooks/stripe/${connection}`,
      {
        'stripe-signature': signedEvent(`whsec_${'x'.repeat(24)}`, 'payment_intent.succeeded', object)
          .signature,
      },
    ],
    [
      'signed 6 minutes ago',
      `/hooks/stripe/${connection}`,
      {
        'stripe-signature': signedEvent(SIGNING, 'payment_intent.succeeded', object, {
          at: new Date(Date.now() - 6 * 60_000),
        }).signature,
      },
    ],
  ];
  for (const [label, path, headers] of cases) {
    const answer = await platform.api(undefined, 'POST', path, good.body, headers);
    expect({ label, status: answer.status, code: answer.body?.error?.code }).toEqual({
      label,
      status: 400,
      code: 'webhook_signature_invalid',
    });
    expect(answer.body.error.request_id).toMatch(/^req_/);
    expect(JSON.stringify(answer.body)).not.toContain(SIGNING);
  }
  // One byte changed after signing: the signature covers the raw body.
  const tampered = await platform.api(
    undefined,
    'POST',
    `/hooks/stripe/${connection}`,
    good.body.replace('100', '900'),
    {
      'stripe-signature': good.signature,
    },
  );
  expect(tampered.status).toBe(400);
  // Over the body limit (1 MiB): refused before anything is read into an event.
  const huge = await platform.api(
    undefined,
    'POST',
    `/hooks/stripe/${connection}`,
    `{"x":"${'a'.repeat(1_100_000)}"}`,
    {
      'stripe-signature': good.signature,
    },
  );
  expect(huge.status).toBe(413);
  expect(await storedEvents()).toBe(0);

  // The same event, well signed: stored and ignored (no such intent of ours).
  const ok = await postEvent(platform, connection, good);
  expect(ok.body).toMatchObject({ received: true, duplicate: false, outcome: 'ignored_unknown_payment' });
  expect(await storedEvents()).toBe(1);
});

it('settles a pending payment once; a repeat, or a late failure, changes nothing', async () => {
  const before = await balance();
  const { id, pi, link } = await paymentSettledByWebhook(2500);
  const paid = (await live('GET', `/v1/transactions/${id}`)).body;
  expect(paid).toMatchObject({ status: 'succeeded', amount: 2500 });
  // The payment settled after its own request still counts for its link, once.
  expect((await live('GET', `/v1/payment-links/${link}`)).body.completions_count).toBe(1);
  const [row] = await platform.sql<{ processor_reference: string }>(
    'payments',
    'select processor_reference from payments.transactions where id = $1',
    [id],
  );
  expect(row.processor_reference).toBe(pi);
  expect(await balance()).toBe(before + 2500);
  expect(await ledger()).toEqual([[], [], []]);

  // The same event again (Stripe redelivers): a duplicate, nothing applied.
  const events = await storedEvents();
  const repeat = paymentIntent(pi, id, 'succeeded', 2500, 'GBP');
  const again = signedEvent(SIGNING, 'payment_intent.succeeded', repeat, { at: now() });
  expect((await postEvent(platform, connection, again)).body).toMatchObject({ duplicate: false });
  expect((await postEvent(platform, connection, again)).body).toMatchObject({
    duplicate: true,
    outcome: 'duplicate',
  });
  expect(await storedEvents()).toBe(events + 1);
  // A failure arriving after the success (out of order): stored, nothing changes.
  const late = await send(
    'payment_intent.payment_failed',
    paymentIntent(pi, id, 'requires_payment_method', 2500, 'GBP'),
  );
  expect(late.body).toMatchObject({ duplicate: false, outcome: 'unchanged' });
  // requires_action: the payer is authenticating; stored, nothing changes.
  const action = await send(
    'payment_intent.requires_action',
    paymentIntent(pi, id, 'requires_action', 2500, 'GBP'),
  );
  expect(action.body).toMatchObject({ outcome: 'ignored' });
  expect((await live('GET', `/v1/transactions/${id}`)).body.status).toBe('succeeded');
  expect((await live('GET', `/v1/payment-links/${link}`)).body.completions_count).toBe(1);
  expect(await balance()).toBe(before + 2500);
  expect(await ledger()).toEqual([[], [], []]);
});

it('settles a refund whose answer was lost; a failure of it after it succeeded gives the money back to the merchant, once', async () => {
  const { id } = await paymentSettledByWebhook(3000);
  proxy.failNext('/v1/refunds', 503, { type: 'api_error', message: 'unavailable' }, 3);
  const lost = await live('POST', '/v1/refunds', { transaction: id, amount: 1200 });
  expect(lost.status).toBe(503);
  const [pending] = (await live('GET', '/v1/refunds?limit=1')).body.data;
  expect(pending).toMatchObject({ transaction: id, status: 'pending', amount: 1200 });
  const before = await balance();

  const re = stripeId('re');
  const settled = await send('refund.updated', refund(re, pending.id, 'succeeded', 1200, 'GBP'));
  expect(settled.body).toMatchObject({ outcome: 'refund_succeeded' });
  expect((await live('GET', `/v1/refunds/${pending.id}`)).body.status).toBe('succeeded');
  expect(await balance()).toBe(before - 1200);
  // Invoicing shows it on the payment's receipt (refund.succeeded through the bus).
  const receiptRefunded = async () =>
    (
      await platform.sql<{ amount_refunded: string }>(
        'invoicing',
        'select amount_refunded::text from invoicing.receipts where transaction_id = $1',
        [id],
      )
    )[0]?.amount_refunded;
  await eventually(async () => ((await receiptRefunded()) === '1200' ? true : undefined));
  // Days later Stripe fails it (the card's issuer could not take the money back).
  const failed = await send('refund.failed', refund(re, pending.id, 'failed', 1200, 'GBP'));
  expect(failed.body).toMatchObject({ outcome: 'refund_reversed' });
  const reversed = (await live('GET', `/v1/refunds/${pending.id}`)).body;
  expect(reversed).toMatchObject({
    status: 'failed',
    failure_reason: expect.stringContaining('did not make the refund'),
  });
  expect((await live('GET', `/v1/transactions/${reversed.refund_transaction}`)).body).toMatchObject({
    status: 'failed',
    failure_code: 'processing_error',
  });
  expect((await live('GET', `/v1/transactions/${id}`)).body).toMatchObject({
    amount_refunded: 0,
    refundable_amount: 3000,
  });
  expect(await balance()).toBe(before);
  // ... and the receipt no longer shows it (refund.failed through the bus).
  await eventually(async () => ((await receiptRefunded()) === '0' ? true : undefined));
  // The same news again (another event id) changes nothing.
  const again = await send('refund.failed', refund(re, pending.id, 'failed', 1200, 'GBP'));
  expect(again.body).toMatchObject({ outcome: 'unchanged' });
  expect(await balance()).toBe(before);
  expect(await ledger()).toEqual([[], [], []]);
});

disputeCases(ctx, hooks);
