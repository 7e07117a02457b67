// Live mode with a real processor connection (issue 13): the operator connects Stripe for an
// account (pointed at stripe-mock, Stripe's official mock server, with fixtures that answer a
// confirmed PaymentIntent `succeeded`), a live merchant is approved, a live payment link is paid
// through the hosted page (an HTTP form post), refunded in part twice, and the ledger balances
// at every step; then Stripe reports a dispute of it by a signed webhook (opened, then closed
// lost) and the ledger still balances. The account's own key sees the connection (never its credentials); another
// account gets 404; once disabled, live payments are refused again. The same scenario for an
// account that never had a connection is refused at every step, nothing recorded as succeeded
// and no ledger entry, and the admin API lists it as `live_processor: none` (live-payments.test.ts
// has the invoice page and the mandate charge of such an account). Afterwards neither the card number nor the Stripe key is in
// any log line or any table. Both run modes.

import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  disputeMismatches,
  ledgerImbalances,
  postingMismatches,
} from '../../apps/payments/src/ledger/ledger';
import { newId } from '@paygrid/platform';
import { signCheckoutToken } from '../../apps/payments/src/payment-links/checkout-token';
import { cardForm, pathOf, payPage } from '../support/pages';
import { DAY_MS, startPlatform, type Platform, type TestAccount } from '../support/platform';
import { dispute, postEvent, signedEvent, stripeId } from '../support/stripe-events';
import { startStripeMock, type StripeMock } from '../support/stripe-mock';

/** A card that is not one of the sandbox's test cards: only a real processor can take it. */
const CARD = '5555555555554444';
/** stripe-mock knows only test keys; against Stripe itself a live connection needs sk_live_. */
const SECRET_KEY = `sk_test_${'Zq8'.repeat(8)}LiveScenario`;
const SIGNING_SECRET = `whsec_${'Sg4'.repeat(10)}`;
const LOG_FILE = join(tmpdir(), `paygrid-live-stripe-${process.pid}-${Date.now()}.log`);

let stripe: StripeMock;
let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  stripe = await startStripeMock('succeeded');
  platform = await startPlatform({
    env: { STRIPE_API_BASE: stripe.url },
    logFile: LOG_FILE,
    paymentsTestClock: true,
  });
  account = await platform.newAccount(['payments']);
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await stripe?.stop();
  rmSync(LOG_FILE, { force: true });
});

const ledger = () => {
  const db = { query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params) };
  return Promise.all([ledgerImbalances(db), postingMismatches(db), disputeMismatches(db)]);
};

const live = (method: string, path: string, body?: unknown) =>
  platform.api(account.liveKey, method, path, body);

let connection: string;
let paymentLink: { id: string; url: string };

it('the operator connects Stripe for the account; the account sees it without its credentials', async () => {
  const created = await platform.admin('POST', `/admin/v1/accounts/${account.id}/processor-connections`, {
    mode: 'live',
    processor: 'stripe',
    credentials: { secret_key: SECRET_KEY, webhook_signing_secret: SIGNING_SECRET },
    description: 'Stripe (stripe-mock)',
  });
  expect(created.status).toBe(200);
  expect(created.body).toMatchObject({
    object: 'processor_connection',
    livemode: true,
    processor: 'stripe',
    status: 'active',
    credentials: { secret_key_last4: SECRET_KEY.slice(-4) },
    verification: { status: 'unverified' },
  });
  expect(JSON.stringify(created.body)).not.toContain(SECRET_KEY.slice(0, 20));
  expect(JSON.stringify(created.body)).not.toContain(SIGNING_SECRET);
  connection = created.body.id;

  const listed = await live('GET', '/v1/processor-connections');
  expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([connection]);
  // Test mode has its own connections: none.
  expect((await platform.api(account.testKey, 'GET', '/v1/processor-connections')).body.data).toEqual([]);

  const verified = await live('POST', `/v1/processor-connections/${connection}/verify`);
  expect(verified.status).toBe(200);
  expect(verified.body).toMatchObject({
    status: 'active',
    processor_account: expect.stringMatching(/^acct_/),
    verification: { status: 'succeeded', message: null },
  });

  // Another account's key: 404, as for any id it cannot see.
  const other = await platform.newAccount(['payments']);
  const foreign = await platform.api(other.liveKey, 'GET', `/v1/processor-connections/${connection}`);
  expect([foreign.status, foreign.body.error.code]).toEqual([404, 'resource_missing']);
  const foreignDisable = await platform.api(
    other.liveKey,
    'POST',
    `/v1/processor-connections/${connection}/disable`,
  );
  expect(foreignDisable.status).toBe(404);
});

it('a live payment link is paid through the hosted page, by Stripe, with a balanced ledger', async () => {
  const merchant = await live('POST', '/v1/merchants', {
    business_name: 'Live Shop',
    email: 'ops@live-shop.example',
    country: 'GB',
    default_currency: 'GBP',
    business_type: 'company',
    website: 'https://live-shop.example',
  });
  expect(merchant.status).toBe(200);
  const approved = await platform.admin('POST', `/admin/v1/merchants/${merchant.body.id}/approve`);
  expect(approved.body.onboarding.status).toBe('active');
  const link = await live('POST', '/v1/payment-links', {
    merchant: merchant.body.id,
    amount: 2500,
    currency: 'GBP',
  });
  expect(link.status).toBe(200);
  paymentLink = link.body;

  const paid = await payPage(platform, pathOf(paymentLink.url), CARD);
  expect(paid.status).toBe(200);
  expect(String(paid.body)).toContain('Payment successful');

  const payments = await live('GET', `/v1/transactions?payment_link=${paymentLink.id}`);
  expect(payments.body.data).toHaveLength(1);
  expect(payments.body.data[0]).toMatchObject({
    livemode: true,
    type: 'payment',
    status: 'succeeded',
    amount: 2500,
    currency: 'GBP',
    payment_method: { brand: 'mastercard', last4: '4444' },
  });
  // The processor's own reference (a Stripe PaymentIntent id), not a sandbox one.
  const [row] = await platform.sql<{ processor_reference: string }>(
    'payments',
    'select processor_reference from payments.transactions where id = $1',
    [payments.body.data[0].id],
  );
  expect(row.processor_reference).toMatch(/^pi_/);
  expect(await ledger()).toEqual([[], [], []]);
});

it('is refunded in part, twice, by Stripe; the ledger balances after each', async () => {
  const [payment] = (await live('GET', `/v1/transactions?payment_link=${paymentLink.id}`)).body.data;
  for (const amount of [600, 900]) {
    const refund = await live('POST', '/v1/refunds', { transaction: payment.id, amount });
    expect([refund.status, refund.body.status, refund.body.livemode]).toEqual([200, 'succeeded', true]);
    expect(await ledger()).toEqual([[], [], []]);
  }
  expect((await live('GET', `/v1/transactions/${payment.id}`)).body).toMatchObject({
    amount_refunded: 1500,
    refundable_amount: 1000,
  });
  const refunds = await platform.sql<{ processor_reference: string }>(
    'payments',
    `select t.processor_reference from payments.refunds r join payments.transactions t on t.id = r.refund_transaction_id
      where r.transaction_id = $1 order by r.created_at`,
    [payment.id],
  );
  expect(refunds.map((r) => r.processor_reference.slice(0, 3))).toEqual(['re_', 're_']);
});

it('is disputed by a signed Stripe webhook, opened then lost, with the ledger balanced at each step', async () => {
  const [payment] = (await live('GET', `/v1/transactions?payment_link=${paymentLink.id}&type=payment`)).body
    .data;
  const [{ processor_reference: pi }] = await platform.sql<{ processor_reference: string }>(
    'payments',
    'select processor_reference from payments.transactions where id = $1',
    [payment.id],
  );
  const du = stripeId('du');
  const hook = (type: string, object: Record<string, unknown>) =>
    postEvent(platform, connection, signedEvent(SIGNING_SECRET, type, object));
  // Stripe disputes what is left after the two refunds (1000), and charges a 1500 fee.
  const opened = await hook('charge.dispute.created', dispute(du, pi, 1000, 'GBP', 1500));
  expect([opened.status, opened.body.outcome]).toEqual([200, 'dispute_created']);
  const [created] = (await live('GET', `/v1/disputes?transaction=${payment.id}`)).body.data;
  expect(created).toMatchObject({ status: 'needs_response', amount: 1000, fee: 1500, livemode: true });
  expect(await ledger()).toEqual([[], [], []]);
  expect((await live('GET', `/v1/transactions/${payment.id}`)).body.refundable_amount).toBe(0);

  const lost = await hook('charge.dispute.closed', dispute(du, pi, 1000, 'GBP', 1500, 0, 'lost'));
  expect([lost.status, lost.body.outcome]).toEqual([200, 'dispute_updated']);
  expect((await live('GET', `/v1/disputes/${created.id}`)).body).toMatchObject({
    status: 'lost',
    closed_at: expect.any(String),
  });
  expect(await ledger()).toEqual([[], [], []]);
  // Nothing is left to refund after a lost dispute.
  const refund = await live('POST', '/v1/refunds', { transaction: payment.id, amount: 1 });
  expect([refund.status, refund.body.error.code]).toEqual([422, 'refund_exceeds_remaining']);
  // The merchant's balance: 2500 paid, 1500 refunded, 1000 disputed and 1500 fee lost.
  const [net] = await platform.sql<{ net: string }>(
    'payments',
    `select sum(case when direction = 'credit' then amount else -amount end)::text as net
       from payments.ledger_entries where ledger_account = $1`,
    [`merchant_balance:${payment.merchant}`],
  );
  expect(Number(net.net)).toBe(2500 - 1500 - 1000 - 1500);
});

// Before the recurring test, which moves the payments clock a week on (the form token below is
// signed at the real time).
it('the same scenario without a connection is refused at every step, nothing recorded as succeeded', async () => {
  const bare = await platform.newAccount(['payments']);
  const bareLive = (method: string, path: string, body?: unknown) =>
    platform.api(bare.liveKey, method, path, body);
  // The admin API says which account has no processor.
  expect((await platform.admin('GET', `/admin/v1/accounts/${bare.id}`)).body.live_processor).toBe('none');
  expect((await platform.admin('GET', `/admin/v1/accounts/${account.id}`)).body.live_processor).toBe(
    'connected',
  );
  const none = await platform.admin('GET', '/admin/v1/accounts?live_processor=none&limit=100');
  const noneIds = none.body.data.map((a: { id: string }) => a.id);
  expect(noneIds).toContain(bare.id);
  expect(noneIds).not.toContain(account.id);
  expect(none.body.data.every((a: { live_processor: string }) => a.live_processor === 'none')).toBe(true);
  const connected = await platform.admin('GET', '/admin/v1/accounts?live_processor=connected&limit=100');
  expect(
    connected.body.data.map((a: { id: string; live_processor: string }) => [a.id, a.live_processor]),
  ).toEqual([[account.id, 'connected']]);
  const badFilter = await platform.admin('GET', '/admin/v1/accounts?live_processor=maybe');
  expect([badFilter.status, badFilter.body.error.code]).toEqual([400, 'parameter_invalid']);

  // The operator approves a live merchant: only the missing processor stands in the way.
  const merchant = await bareLive('POST', '/v1/merchants', {
    business_name: 'Bare Shop',
    email: 'ops@bare-shop.example',
    country: 'GB',
    default_currency: 'GBP',
    business_type: 'company',
    website: 'https://bare-shop.example',
  });
  expect((await platform.admin('POST', `/admin/v1/merchants/${merchant.body.id}/approve`)).status).toBe(200);
  // The hosted page of a one-off and of a card-keeping (recurring) link shows no card form, and a
  // form post with a valid CSRF token (as if it had) charges nothing.
  for (const extra of [{}, { type: 'recurring', recurring: { interval: 'week' } }]) {
    const link = await bareLive('POST', '/v1/payment-links', {
      merchant: merchant.body.id,
      amount: 2500,
      currency: 'GBP',
      ...extra,
    });
    expect(link.status).toBe(200);
    const page = await platform.api(undefined, 'GET', pathOf(link.body.url));
    expect([page.status, String(page.body).includes('Payments are not available yet')]).toEqual([409, true]);
    expect(String(page.body)).not.toContain('card_number');
    const token = signCheckoutToken(platform.internalSecret, link.body.id, new Date());
    const posted = await platform.api(undefined, 'POST', pathOf(link.body.url), cardForm(token, CARD));
    expect([posted.status, String(posted.body).includes('Nothing was charged')]).toEqual([409, true]);
    expect((await bareLive('GET', `/v1/payment-links/${link.body.id}`)).body.completions_count).toBe(0);
  }
  // A refund (of a live payment left behind by a connection that is gone) is refused.
  const leftBehind = newId('txn');
  const pi = stripeId('pi');
  await platform.sql(
    'payments',
    `insert into payments.transactions (id, account_id, livemode, type, status, amount, currency, processor_reference)
     values ($1, $2, true, 'payment', 'succeeded', 2500, 'GBP', $3)`,
    [leftBehind, bare.id, pi],
  );
  const refund = await bareLive('POST', '/v1/refunds', { transaction: leftBehind, amount: 600 });
  expect([refund.status, refund.body.error.code]).toEqual([409, 'processor_not_configured']);
  // A dispute cannot arrive: there is no connection to post to, and another account's
  // connection (signed with its secret) does not reach this account's payment.
  const nowhere = await postEvent(
    platform,
    newId('pcon'),
    signedEvent(SIGNING_SECRET, 'charge.dispute.created', dispute(stripeId('du'), pi, 2500, 'GBP', 1500)),
  );
  expect([nowhere.status, nowhere.body.error.code]).toEqual([400, 'webhook_signature_invalid']);
  const elsewhere = await postEvent(
    platform,
    connection,
    signedEvent(SIGNING_SECRET, 'charge.dispute.created', dispute(stripeId('du'), pi, 2500, 'GBP', 1500)),
  );
  // To that connection the PaymentIntent is no payment of its own: not stored, deliver later.
  expect([elsewhere.status, elsewhere.body.error.code]).toEqual([409, 'resource_busy']);
  expect((await bareLive('GET', '/v1/disputes')).body.data).toEqual([]);

  const [held] = await platform.sql<Record<string, string>>(
    'payments',
    `select (select count(*) from payments.transactions
              where account_id = $1 and livemode and status = 'succeeded' and id <> $2)::text as succeeded,
            (select count(*) from payments.transactions where account_id = $1 and id <> $2)::text as transactions,
            (select count(*) from payments.refunds where transaction_id = $2)::text as refunds,
            (select count(*) from payments.mandates where account_id = $1)::text as mandates,
            (select count(*) from payments.disputes where account_id = $1)::text as disputes,
            (select count(*) from payments.ledger_entries where account_id = $1)::text as entries`,
    [bare.id, leftBehind],
  );
  expect(held).toEqual({
    succeeded: '0',
    transactions: '0',
    refunds: '0',
    mandates: '0',
    disputes: '0',
    entries: '0',
  });
  // The planted payment has no postings (no processor made it here): out, so the ledger checks
  // of the following tests look at what the platform recorded.
  await platform.sql('payments', 'delete from payments.transactions where id = $1', [leftBehind]);
  expect(await ledger()).toEqual([[], [], []]);
});

it('a recurring live link keeps the card at Stripe and charges the next cycle off-session', async () => {
  const merchant = (await live('GET', `/v1/payment-links/${paymentLink.id}`)).body.merchant;
  const link = (
    await live('POST', '/v1/payment-links', {
      merchant,
      type: 'recurring',
      amount: 990,
      currency: 'GBP',
      recurring: { interval: 'week' },
    })
  ).body;
  const paid = await payPage(platform, pathOf(link.url), CARD);
  expect(String(paid.body)).toContain('Payment successful');
  const [first] = (await live('GET', `/v1/transactions?payment_link=${link.id}`)).body.data;
  expect(first).toMatchObject({ status: 'succeeded', mandate: expect.stringMatching(/^mdt_/) });
  // The stored credential is Stripe's Customer and PaymentMethod, never the card.
  const [mandate] = await platform.sql<{ credential: string }>(
    'payments',
    'select credential from payments.mandates where id = $1',
    [first.mandate],
  );
  expect(mandate.credential).toMatch(/^cus_\w+\|pm_\w+$/);

  await platform.advancePaymentsClock(7 * DAY_MS + 60_000);
  const charges = (await live('GET', '/v1/transactions?limit=100')).body.data.filter(
    (t: { mandate: string | null; type: string }) => t.mandate === first.mandate && t.type === 'payment',
  );
  expect(charges.map((t: { status: string }) => t.status)).toEqual(['succeeded', 'succeeded']);
  expect(await ledger()).toEqual([[], [], []]);
});

it('once the connection is disabled, live payments are refused again and nothing succeeds', async () => {
  const disabled = await live('POST', `/v1/processor-connections/${connection}/disable`);
  expect(disabled.body).toMatchObject({ status: 'disabled', disabled_at: expect.any(String) });
  expect((await platform.admin('GET', `/admin/v1/accounts/${account.id}`)).body.live_processor).toBe('none');
  const merchant = (await live('GET', `/v1/payment-links/${paymentLink.id}`)).body.merchant;
  const another = await live('POST', '/v1/payment-links', { merchant, amount: 1200, currency: 'GBP' });
  const page = await platform.api(undefined, 'GET', pathOf(another.body.url));
  expect(page.status).toBe(409);
  expect(String(page.body)).toContain('Payments are not available yet');
  const [payment] = (await live('GET', `/v1/transactions?payment_link=${paymentLink.id}`)).body.data;
  const refund = await live('POST', '/v1/refunds', { transaction: payment.id, amount: 100 });
  expect([refund.status, refund.body.error.code]).toEqual([409, 'processor_not_configured']);
  const [counts] = await platform.sql<{ succeeded: string }>(
    'payments',
    `select count(*)::text as succeeded from payments.transactions
      where account_id = $1 and livemode and type = 'payment' and status = 'succeeded' and payment_link = $2`,
    [account.id, paymentLink.id],
  );
  expect(counts.succeeded).toBe('1');
});

it('leaves the card number and the Stripe key in no log line and no table', async () => {
  const logs = readFileSync(LOG_FILE, 'utf8');
  // The logs are there (access lines of every request above, debug level), so their silence
  // about the card and the key means something.
  expect(logs).toContain('/admin/v1/accounts/:id/processor-connections');
  expect(logs).toContain('/pay/');
  const tables = await platform.sql<{ table_schema: string; table_name: string }>(
    'payments',
    `select table_schema, table_name from information_schema.tables
      where table_schema in ('payments', 'invoicing', 'webhooks', 'gateway') and table_type = 'BASE TABLE'`,
  );
  expect(tables.length).toBeGreaterThan(5);
  let database = '';
  for (const { table_schema, table_name } of tables) {
    const rows = await platform.sql<{ row: string }>(
      'payments',
      `select t::text as row from "${table_schema}"."${table_name}" t`,
    );
    database += rows.map((r) => r.row).join('\n');
  }
  expect(database).toContain(connection);
  for (const secret of [CARD, SECRET_KEY, SECRET_KEY.slice(8), SIGNING_SECRET]) {
    expect({ secret, inLogs: logs.includes(secret), inDatabase: database.includes(secret) }).toEqual({
      secret,
      inLogs: false,
      inDatabase: false,
    });
  }
});
