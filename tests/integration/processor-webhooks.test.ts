// Processor webhooks in (docs/api.md Part 2): Stripe's events, signed with the connection's
// signing secret as Stripe signs them, posted to POST /hooks/stripe/<connection> through the
// gateway. A bad signature or an unknown connection is a 400 that stores nothing; each event is
// applied once; events that arrive early, twice or out of order change nothing wrongly; disputes
// move the ledger and hold their amount back from refunds, even under concurrent refunds. The
// connection's connector talks to stripe-mock through a recording proxy, which stands in for a
// Stripe that did not answer (so an intent stays pending for the webhook to settle). Both modes.

import {
  disputeMismatches,
  ledgerImbalances,
  postingMismatches,
} from '../../apps/payments/src/ledger/ledger';
import { pathOf, payPage } from '../support/pages';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';
import { dispute, paymentIntent, postEvent, refund, signedEvent, stripeId } from '../support/stripe-events';
import {
  startRecordingProxy,
  startStripeMock,
  type RecordingProxy,
  type StripeMock,
} from '../support/stripe-mock';

const CARD = '5555555555554444';
const KEY = `sk_test_${'Wh5'.repeat(8)}`;
const SIGNING = `whsec_${'Wh5'.repeat(10)}`;
/** Past the window in which a pending intent still belongs to its own request (4 minutes). */
const PAST_IN_FLIGHT_MS = 4 * 60 * 1000 + 30_000;

let stripe: StripeMock;
let proxy: RecordingProxy;
let platform: Platform;
let account: TestAccount;
let connection: string;
let merchant: string;
/** The payments clock runs ahead of the wall clock once advanced; signatures follow it. */
let clockOffsetMs = 0;

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

function live(method: string, path: string, body?: unknown) {
  return platform.api(account.liveKey, method, path, body);
}

const now = () => new Date(Date.now() + clockOffsetMs);
const send = (type: string, object: Record<string, unknown>, id?: string) =>
  postEvent(platform, connection, signedEvent(SIGNING, type, object, { at: now(), ...(id ? { id } : {}) }));

const storedEvents = async () =>
  Number(
    (
      await platform.sql<{ n: string }>(
        'payments',
        'select count(*)::text as n from payments.processor_events where connection_id = $1',
        [connection],
      )
    )[0].n,
  );

const ledger = () => {
  const db = { query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params) };
  return Promise.all([ledgerImbalances(db), postingMismatches(db), disputeMismatches(db)]);
};

const balance = async () => {
  const [row] = await platform.sql<{ net: string }>(
    'payments',
    `select coalesce(sum(case when direction = 'credit' then amount else -amount end), 0)::text as net
       from payments.ledger_entries where ledger_account = $1`,
    [`merchant_balance:${merchant}`],
  );
  return Number(row.net);
};

/**
 * A live payment of `amount` whose answer from Stripe was lost (three 503s): pending, then
 * settled by Stripe's payment_intent.succeeded once past its request's window. Answers the
 * transaction and the PaymentIntent id the webhook gave it.
 */
async function paymentSettledByWebhook(amount: number): Promise<{ id: string; pi: string; link: string }> {
  const link = await live('POST', '/v1/payment-links', { merchant, amount, currency: 'GBP' });
  proxy.failNext('/v1/payment_intents', 503, { type: 'api_error', message: 'unavailable' }, 3);
  const paid = await payPage(platform, pathOf(link.body.url), CARD);
  expect(paid.status).toBe(503);
  const [pending] = (await live('GET', `/v1/transactions?payment_link=${link.body.id}`)).body.data;
  expect(pending.status).toBe('pending');
  const pi = stripeId('pi');
  const succeeded = paymentIntent(pi, pending.id, 'succeeded', amount, 'GBP');

  // Still inside its request's window: refused (to be delivered again), nothing stored.
  const before = await storedEvents();
  const early = await send('payment_intent.succeeded', succeeded);
  expect([early.status, early.body.error.code]).toEqual([409, 'resource_busy']);
  expect(await storedEvents()).toBe(before);
  expect((await live('GET', `/v1/transactions/${pending.id}`)).body.status).toBe('pending');

  const advanced = await platform.advancePaymentsClock(PAST_IN_FLIGHT_MS);
  clockOffsetMs = advanced.now.getTime() - Date.now();
  const settled = await send('payment_intent.succeeded', succeeded);
  expect(settled.status).toBe(200);
  expect(settled.body).toMatchObject({ received: true, duplicate: false, outcome: 'payment_succeeded' });
  return { id: pending.id, pi, link: link.body.id };
}

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

it('a dispute withdraws the amount and fee, holds the amount from refunds, and a win puts it back', async () => {
  const { id, pi } = await paymentSettledByWebhook(2500);
  const start = await balance();
  const du = stripeId('du');
  const created = await send('charge.dispute.created', dispute(du, pi, 2000, 'GBP', 1500));
  expect(created.body).toMatchObject({ outcome: 'dispute_created' });
  const list = await live('GET', `/v1/disputes?transaction=${id}`);
  expect(list.body.data).toHaveLength(1);
  const opened = list.body.data[0];
  expect(opened).toMatchObject({
    object: 'dispute',
    livemode: true,
    transaction: id,
    merchant,
    amount: 2000,
    fee: 1500,
    currency: 'GBP',
    status: 'needs_response',
    processor_reference: du,
  });
  expect((await live('GET', `/v1/disputes/${opened.id}`)).body).toEqual(opened);
  expect(await balance()).toBe(start - 3500);
  expect(await ledger()).toEqual([[], [], []]);

  // Only 500 is left to refund; five concurrent refunds of 300: exactly one fits.
  expect((await live('GET', `/v1/transactions/${id}`)).body.refundable_amount).toBe(500);
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => live('POST', '/v1/refunds', { transaction: id, amount: 300 })),
  );
  expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422, 422, 422]);
  expect(
    answers.filter((a) => a.status === 422).every((a) => a.body.error.code === 'refund_exceeds_remaining'),
  ).toBe(true);

  const review = await send('charge.dispute.updated', dispute(du, pi, 2000, 'GBP', 1500));
  expect(review.body.outcome).toBe('dispute_unchanged');
  const underReview = await send('charge.dispute.updated', {
    ...dispute(du, pi, 2000, 'GBP', 1500),
    status: 'under_review',
  });
  expect(underReview.body.outcome).toBe('dispute_updated');
  const won = await send('charge.dispute.closed', dispute(du, pi, 2000, 'GBP', 1500, 1500, 'won'));
  expect(won.body.outcome).toBe('dispute_updated');
  expect((await live('GET', `/v1/disputes/${opened.id}`)).body).toMatchObject({
    status: 'won',
    fee_returned: 1500,
    closed_at: expect.any(String),
  });
  // Back: the amount and the returned fee; the one 300 refund stays out.
  expect(await balance()).toBe(start - 300);
  expect((await live('GET', `/v1/transactions/${id}`)).body.refundable_amount).toBe(2200);
  // A late "under_review" after the close changes nothing.
  const late = await send('charge.dispute.updated', {
    ...dispute(du, pi, 2000, 'GBP', 1500),
    status: 'under_review',
  });
  expect(late.body.outcome).toBe('dispute_unchanged');
  expect((await live('GET', `/v1/disputes/${opened.id}`)).body.status).toBe('won');
  expect(await ledger()).toEqual([[], [], []]);

  const types = await platform.sql<{ type: string }>(
    'payments',
    `select payload->>'type' as type from payments.outbox where payload->'data'->'object'->>'id' = $1 order by id`,
    [opened.id],
  );
  expect(types.map((t) => t.type)).toEqual(['dispute.created', 'dispute.updated', 'dispute.closed']);
});

it('out of order: a dispute closed (lost) before it was created ends lost, once, with the money out', async () => {
  const { id, pi } = await paymentSettledByWebhook(1800);
  const start = await balance();
  const du = stripeId('du');
  const lost = await send('charge.dispute.closed', dispute(du, pi, 1800, 'GBP', 1500, 0, 'lost'));
  expect(lost.body.outcome).toBe('dispute_created');
  const createdLate = await send('charge.dispute.created', dispute(du, pi, 1800, 'GBP', 1500));
  expect(createdLate.body.outcome).toBe('dispute_unchanged');
  const updatedLate = await send('charge.dispute.updated', {
    ...dispute(du, pi, 1800, 'GBP', 1500),
    status: 'under_review',
  });
  expect(updatedLate.body.outcome).toBe('dispute_unchanged');
  const all = (await live('GET', `/v1/disputes?transaction=${id}`)).body.data;
  expect(all.map((d: { status: string }) => d.status)).toEqual(['lost']);
  expect(
    (await live('GET', '/v1/disputes?status=lost')).body.data.map((d: { id: string }) => d.id),
  ).toContain(all[0].id);
  expect(
    (await live('GET', '/v1/disputes?status=won')).body.data.map((d: { id: string }) => d.id),
  ).not.toContain(all[0].id);
  expect(await balance()).toBe(start - 3300);
  const refused = await live('POST', '/v1/refunds', { transaction: id, amount: 1 });
  expect([refused.status, refused.body.error.code]).toEqual([422, 'refund_exceeds_remaining']);
  expect(await ledger()).toEqual([[], [], []]);

  // A dispute of a payment we have not recorded: refused for now (Stripe delivers it again).
  const unknown = await send('charge.dispute.created', dispute(stripeId('du'), stripeId('pi'), 100, 'GBP'));
  expect([unknown.status, unknown.body.error.code]).toEqual([409, 'resource_busy']);
});

it("disputes are the account's and mode's own, and need disputes:read", async () => {
  const listed = await live('GET', '/v1/disputes?limit=1');
  expect(listed.status).toBe(200);
  const [one] = listed.body.data;
  const other = await platform.newAccount(['payments']);
  const foreign = await platform.api(other.liveKey, 'GET', `/v1/disputes/${one.id}`);
  expect([foreign.status, foreign.body.error.code]).toEqual([404, 'resource_missing']);
  expect((await platform.api(account.testKey, 'GET', `/v1/disputes/${one.id}`)).status).toBe(404);
  expect((await platform.api(account.testKey, 'GET', '/v1/disputes')).body.data).toEqual([]);
  const bad = await live('GET', '/v1/disputes?status=open');
  expect([bad.status, bad.body.error.code]).toEqual([400, 'parameter_invalid']);
});
