// 3-D Secure through the hosted checkout, in both modes, with the sandbox's card
// 4000 0027 6000 3184 (HTTP form posts, no JS): the checkout redirects to the challenge page,
// the transaction is requires_action (payment.requires_action) meanwhile, the payer approves
// or fails, and the sealed return URL settles it once: succeeded with its ledger legs, or
// failed with authentication_required. A forged return is refused; a replayed one records
// nothing twice. A payer who never comes back: after the hour the payer has
// (PAYMENTS_AUTHENTICATION_TIMEOUT_SECONDS), the recovery cancels the payment, once, and a late
// approval changes nothing (the payments test clock moves the hour).

import { ledgerImbalances } from '../../apps/payments/src/ledger/ledger';
import { eventAbout } from '../support/events';
import { csrfOf, pathOf, payPage } from '../support/pages';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';

const THREE_DS = '4000002760003184';
let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform({ paymentsTestClock: true });
  account = await platform.newAccount(['payments']);
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);

async function newLink(extra: Record<string, unknown> = {}): Promise<string> {
  const link = await api('POST', '/v1/payment-links', {
    currency: 'EUR',
    line_items: [{ description: 'Ticket', quantity: 1, unit_amount: 4200 }],
    ...extra,
  });
  expect(link.status).toBe(200);
  return link.body.id;
}

/** Pays the link with the 3-D Secure card: answers the challenge path and the transaction. */
async function startPayment(link: string) {
  const posted = await payPage(platform, `/pay/${link}`, THREE_DS);
  expect(posted.status).toBe(303);
  const challenge = pathOf(String(posted.headers.get('location')));
  expect(challenge).toMatch(/^\/pay\/sandbox\/challenge\/sbx_3ds_[0-9a-f]+\?return_url=/);
  const list = await api('GET', `/v1/transactions?payment_link=${link}`);
  expect(list.body.data).toHaveLength(1);
  return { challenge, transaction: list.body.data[0] };
}

async function decide(challenge: string, decision: 'approved' | 'failed') {
  const page = await platform.api(undefined, 'GET', challenge);
  expect(page.status).toBe(200);
  const html = String(page.body);
  const returnUrl = /name="return_url" value="([^"]+)"/.exec(html)?.[1].replace(/&amp;/g, '&') ?? '';
  const posted = await platform.api(
    undefined,
    'POST',
    challenge.split('?')[0],
    new URLSearchParams({ csrf_token: csrfOf(html), return_url: returnUrl, decision }),
  );
  expect(posted.status).toBe(303);
  return pathOf(String(posted.headers.get('location')));
}

const ledger = () => ({
  query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params),
});
const eventCount = async (id: string, type: string) =>
  (
    await platform.sql<{ n: number }>(
      'payments',
      `select count(*)::int as n from payments.outbox where payload->>'type' = $1 and payload->'data'->'object'->>'id' = $2`,
      [type, id],
    )
  )[0].n;

it('approved: requires_action with its event, then succeeded once through the return URL', async () => {
  const link = await newLink({ max_completions: 1 });
  const { challenge, transaction } = await startPayment(link);
  expect(transaction).toMatchObject({ status: 'requires_action', amount: 4200, refundable_amount: 0 });
  const waiting = await eventAbout(platform, account.testKey, 'payment.requires_action', transaction.id);
  expect(waiting.data.object.status).toBe('requires_action');

  const back = await decide(challenge, 'approved');
  expect(back).toMatch(new RegExp(`^/pay/return/${transaction.id}\\?token=`));
  // A forged token, or this transaction's token on another transaction, is refused.
  expect((await platform.api(undefined, 'GET', `/pay/return/${transaction.id}?token=forged`)).status).toBe(
    403,
  );
  const other = await startPayment(await newLink());
  const token = new URL(back, 'http://x').searchParams.get('token') ?? '';
  expect(
    (await platform.api(undefined, 'GET', `/pay/return/${other.transaction.id}?token=${token}`)).status,
  ).toBe(403);
  expect((await api('GET', `/v1/transactions/${other.transaction.id}`)).body.status).toBe('requires_action');

  const returned = await platform.api(undefined, 'GET', back);
  expect(returned.status).toBe(200);
  expect(String(returned.body)).toContain('Payment successful');
  const paid = await api('GET', `/v1/transactions/${transaction.id}`);
  expect(paid.body).toMatchObject({ status: 'succeeded', refundable_amount: 4200 });
  await eventAbout(platform, account.testKey, 'payment.succeeded', transaction.id);
  // The one-time link completes with the payment recorded on return.
  expect((await api('GET', `/v1/payment-links/${link}`)).body).toMatchObject({ status: 'completed' });

  // Replayed: the return and a second decision record nothing more.
  expect((await platform.api(undefined, 'GET', back)).status).toBe(200);
  await decide(challenge, 'failed').catch(() => undefined);
  expect((await api('GET', `/v1/transactions/${transaction.id}`)).body.status).toBe('succeeded');
  expect(await eventCount(transaction.id, 'payment.succeeded')).toBe(1);
  const legs = await platform.sql<{ n: number }>(
    'payments',
    'select count(*)::int as n from payments.ledger_entries where transaction_id = $1',
    [transaction.id],
  );
  expect(legs[0].n).toBeGreaterThan(0);
  expect(await ledgerImbalances(ledger())).toEqual([]);
});

it('failed: the payment is failed with authentication_required, nothing charged, a clear page', async () => {
  const { challenge, transaction } = await startPayment(await newLink());
  const back = await decide(challenge, 'failed');
  const returned = await platform.api(undefined, 'GET', back);
  expect(returned.status).toBe(402);
  expect(String(returned.body)).toContain('You have not been charged');
  const row = await api('GET', `/v1/transactions/${transaction.id}`);
  expect(row.body).toMatchObject({
    status: 'failed',
    failure_code: 'authentication_required',
    refundable_amount: 0,
  });
  expect(await eventCount(transaction.id, 'payment.failed')).toBe(1);
  expect(await eventCount(transaction.id, 'payment.succeeded')).toBe(0);
});

it('a recurring link: its first payment authenticates, and the mandate exists only once it succeeds', async () => {
  const recurring = { type: 'recurring', amount: 990, currency: 'EUR', recurring: { interval: 'week' } };
  const newRecurringLink = async () => {
    const link = await api('POST', '/v1/payment-links', recurring);
    expect(link.status).toBe(200);
    return link.body.id as string;
  };
  // Failed challenge: not charged, and no mandate.
  const refused = await startPayment(await newRecurringLink());
  expect(refused.transaction).toMatchObject({ status: 'requires_action', mandate: null });
  expect((await platform.api(undefined, 'GET', await decide(refused.challenge, 'failed'))).status).toBe(402);
  expect((await api('GET', `/v1/transactions/${refused.transaction.id}`)).body).toMatchObject({
    status: 'failed',
    failure_code: 'authentication_required',
    mandate: null,
  });
  const [noMandate] = await platform.sql<{ n: number }>(
    'payments',
    'select count(*)::int as n from payments.mandates where payment_link = $1',
    [refused.transaction.payment_link],
  );
  expect(noMandate.n).toBe(0);

  // Approved: the payment succeeds on the return, with its mandate, in one transaction.
  const link = await newRecurringLink();
  const { challenge, transaction } = await startPayment(link);
  expect(transaction.mandate).toBeNull();
  const returned = await platform.api(undefined, 'GET', await decide(challenge, 'approved'));
  expect(returned.status).toBe(200);
  expect(String(returned.body)).toContain('Payment successful');
  const paid = (await api('GET', `/v1/transactions/${transaction.id}`)).body;
  expect(paid).toMatchObject({ status: 'succeeded', mandate: expect.stringMatching(/^mdt_/) });
  const mandate = await api('GET', `/v1/mandates/${paid.mandate}`);
  expect(mandate.body).toMatchObject({
    status: 'active',
    payment_link: link,
    payment_method: { last4: '3184' },
  });
  await eventAbout(platform, account.testKey, 'mandate.created', paid.mandate);
  // The kept card pays the next cycle off-session, with nobody to authenticate.
  await platform.advancePaymentsClock(7 * 24 * 3600 * 1000 + 60_000);
  const cycles = (await api('GET', '/v1/transactions?type=payment&limit=100')).body.data.filter(
    (t: { mandate: string | null }) => t.mandate === paid.mandate,
  );
  expect(cycles.map((t: { status: string }) => t.status)).toEqual(['succeeded', 'succeeded']);
  expect(await ledgerImbalances(ledger())).toEqual([]);
});

it('abandoned: left requires_action past the hour, it is canceled and failed once; a late approval charges nothing', async () => {
  const { challenge, transaction } = await startPayment(await newLink());
  // Within the hour: asked about, still waiting for the payer.
  await platform.advancePaymentsClock(30 * 60 * 1000);
  expect((await api('GET', `/v1/transactions/${transaction.id}`)).body.status).toBe('requires_action');
  // Past it (and past the interval between two asks): canceled and failed, one payment.failed.
  await platform.advancePaymentsClock(40 * 60 * 1000);
  const failed = await api('GET', `/v1/transactions/${transaction.id}`);
  expect(failed.body).toMatchObject({
    status: 'failed',
    failure_code: 'authentication_required',
    failure_message: expect.stringMatching(/did not complete authentication .* in time/),
    refundable_amount: 0,
  });
  await eventAbout(platform, account.testKey, 'payment.failed', transaction.id);
  // The payer comes back: the challenge is gone, the return says not charged.
  expect((await platform.api(undefined, 'GET', challenge)).status).toBe(404);
  await platform.advancePaymentsClock(10 * 60 * 1000);
  expect(await eventCount(transaction.id, 'payment.failed')).toBe(1);
  expect(await eventCount(transaction.id, 'payment.succeeded')).toBe(0);
  const legs = await platform.sql<{ n: number }>(
    'payments',
    'select count(*)::int as n from payments.ledger_entries where transaction_id = $1',
    [transaction.id],
  );
  expect(legs[0].n).toBe(0);
});
