// Live mode with a real processor connection (issue 13): the operator connects Stripe for an
// account (pointed at stripe-mock, Stripe's official mock server, with fixtures that answer a
// confirmed PaymentIntent `succeeded`), a live merchant is approved, a live payment link is paid
// through the hosted page (an HTTP form post), refunded in part twice, and the ledger balances
// at every step; then Stripe reports a dispute of it by a signed webhook (opened, then closed
// lost) and the ledger still balances. The account's own key sees the connection (never its credentials); another
// account gets 404; once disabled, live payments are refused again (live-payments.test.ts has
// the account that never had one). Afterwards neither the card number nor the Stripe key is in
// any log line or any table. Both run modes.

import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  disputeMismatches,
  ledgerImbalances,
  postingMismatches,
} from '../../apps/payments/src/ledger/ledger';
import { pathOf, payPage } from '../support/pages';
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
