// Crash safety of a live charge (issue 13): the payments process is killed with SIGKILL right
// after Stripe answered a charge and before the outcome was recorded (the test-only
// PAYMENTS_TEST_EXIT_AFTER_CHARGE hook, config.ts). After the restart the intent is still
// pending, Stripe's signed payment_intent.succeeded webhook settles it once, the recovery job
// that runs later leaves it alone, and Stripe saw exactly one PaymentIntent request, under one
// Idempotency-Key (the intent's id). stripe-mock stands in for Stripe behind a recording proxy.

import {
  disputeMismatches,
  ledgerImbalances,
  postingMismatches,
} from '../../apps/payments/src/ledger/ledger';
import { pathOf, payPage } from '../support/pages';
import {
  PAYMENTS_TEST_CLOCK_ENV,
  advancePaymentsClockAt,
  eventually,
  startDistributedPlatform,
  type DistributedPlatform,
  type TestAccount,
} from '../support/platform';
import { paymentIntent, postEvent, signedEvent, stripeId } from '../support/stripe-events';
import {
  startRecordingProxy,
  startStripeMock,
  type RecordingProxy,
  type StripeMock,
} from '../support/stripe-mock';

const CARD = '5555555555554444';
const KEY = `sk_test_${'Cr4'.repeat(8)}`;
const SIGNING = `whsec_${'Cr4'.repeat(10)}`;

let stripe: StripeMock;
let proxy: RecordingProxy;
let platform: DistributedPlatform;
let account: TestAccount;

beforeAll(async () => {
  stripe = await startStripeMock('succeeded');
  proxy = await startRecordingProxy(stripe.url);
  platform = await startDistributedPlatform({ STRIPE_API_BASE: proxy.url, ...PAYMENTS_TEST_CLOCK_ENV });
  account = await platform.newAccount(['payments']);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  await proxy?.stop();
  await stripe?.stop();
});

const live = (method: string, path: string, body?: unknown) =>
  platform.api(account.liveKey, method, path, body);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('a charge whose process died before recording it is settled once, with one key at Stripe', async () => {
  const connection = await platform.admin('POST', `/admin/v1/accounts/${account.id}/processor-connections`, {
    mode: 'live',
    processor: 'stripe',
    credentials: { secret_key: KEY, webhook_signing_secret: SIGNING },
  });
  expect(connection.status).toBe(200);
  const merchant = await live('POST', '/v1/merchants', {
    business_name: 'Crash Shop',
    email: 'ops@crash-shop.example',
    country: 'GB',
    default_currency: 'GBP',
    business_type: 'company',
    website: 'https://crash-shop.example',
  });
  await platform.admin('POST', `/admin/v1/merchants/${merchant.body.id}/approve`);
  const link = await live('POST', '/v1/payment-links', {
    merchant: merchant.body.id,
    amount: 4200,
    currency: 'GBP',
  });
  const page = await platform.api(undefined, 'GET', pathOf(link.body.url));
  expect(page.status).toBe(200);

  // Restart payments with the hook: it dies right after Stripe answers the charge.
  await platform.kill('payments');
  await platform.start('payments', { PAYMENTS_TEST_EXIT_AFTER_CHARGE: 'true' });
  const pid = platform.pid('payments') as number;
  const start = proxy.requests.length;
  const paid = await payPage(platform, pathOf(link.body.url), CARD);
  expect(paid.status).toBeGreaterThanOrEqual(500);
  expect(String(paid.body)).not.toContain('Payment successful');
  await eventually(async () => (alive(pid) ? undefined : true), 10_000);

  // Stripe made the charge: one PaymentIntent request, answered succeeded.
  const intents = () => proxy.requests.slice(start).filter((r) => r.path === '/v1/payment_intents');
  expect(intents().map((r) => r.status)).toEqual([200]);
  const [pending] = await platform.sql<{ id: string; status: string }>(
    'payments',
    'select id, status from payments.transactions where payment_link = $1',
    [link.body.id],
  );
  expect(pending.status).toBe('pending');
  expect(intents()[0].headers['idempotency-key']).toBe(pending.id);

  // Back without the hook; past the request's window, Stripe's webhook settles the intent.
  await platform.start('payments');
  const url = `http://127.0.0.1:${platform.ports.payments}`;
  const moved = await advancePaymentsClockAt(platform.internalSecret, url, 4 * 60_000 + 30_000);
  expect(moved.ran.recovered.payments).toBe(0);
  const event = signedEvent(
    SIGNING,
    'payment_intent.succeeded',
    paymentIntent(stripeId('pi'), pending.id, 'succeeded', 4200, 'GBP'),
    { at: moved.now },
  );
  const settled = await postEvent(platform, connection.body.id, event);
  expect([settled.status, settled.body.outcome]).toEqual([200, 'payment_succeeded']);
  // The recovery that runs after 5 minutes leaves a settled intent alone.
  const later = await advancePaymentsClockAt(platform.internalSecret, url, 2 * 60_000);
  expect(later.ran.recovered.payments).toBe(0);

  const rows = await platform.sql<{ status: string }>(
    'payments',
    `select status from payments.transactions where payment_link = $1 and type = 'payment'`,
    [link.body.id],
  );
  expect(rows.map((r) => r.status)).toEqual(['succeeded']);
  expect(new Set(intents().map((r) => r.headers['idempotency-key']))).toEqual(new Set([pending.id]));
  expect(intents()).toHaveLength(1);
  const db = { query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params) };
  expect(await Promise.all([ledgerImbalances(db), postingMismatches(db), disputeMismatches(db)])).toEqual([
    [],
    [],
    [],
  ]);
});

it('a stored-card cycle whose process died after Stripe answered is re-driven with the same key, charged once', async () => {
  const [merchant] = (await live('GET', '/v1/merchants?limit=1')).body.data;
  const link = await live('POST', '/v1/payment-links', {
    merchant: merchant.id,
    type: 'recurring',
    amount: 990,
    currency: 'GBP',
    recurring: { interval: 'week' },
  });
  expect(link.status).toBe(200);
  const first = await payPage(platform, pathOf(link.body.url), CARD);
  expect(String(first.body)).toContain('Payment successful');
  const [paid] = await platform.sql<{ mandate: string }>(
    'payments',
    `select mandate from payments.transactions where payment_link = $1 and status = 'succeeded'`,
    [link.body.id],
  );

  // The next cycle falls due in a process that dies right after Stripe answers its charge.
  await platform.kill('payments');
  await platform.start('payments', { PAYMENTS_TEST_EXIT_AFTER_CHARGE: 'true' });
  const pid = platform.pid('payments') as number;
  const url = `http://127.0.0.1:${platform.ports.payments}`;
  const start = proxy.requests.length;
  // A week and more: the first charge ran on the previous process's clock, which the first test
  // had moved 6.5 minutes ahead.
  const week = 7 * 24 * 3600_000 + 10 * 60_000;
  await expect(advancePaymentsClockAt(platform.internalSecret, url, week)).rejects.toThrow();
  await eventually(async () => (alive(pid) ? undefined : true), 10_000);
  const charges = () => proxy.requests.slice(start).filter((r) => r.path === '/v1/payment_intents');
  expect(charges().map((r) => r.status)).toEqual([200]);
  const [pending] = await platform.sql<{ id: string; status: string }>(
    'payments',
    `select id, status from payments.transactions where mandate = $1 order by created_at desc limit 1`,
    [paid.mandate],
  );
  expect(pending.status).toBe('pending');

  // Restarted (its test clock starts again from now): past the cycle and the 5-minute recovery
  // age, the recovery re-drives the charge with the same key, and Stripe answers the first outcome.
  await platform.start('payments');
  await advancePaymentsClockAt(platform.internalSecret, url, week + 6 * 60_000);
  const rows = await platform.sql<{ id: string; status: string }>(
    'payments',
    `select id, status from payments.transactions where mandate = $1 and type = 'payment' order by created_at`,
    [paid.mandate],
  );
  expect(rows.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
  expect(rows[1].id).toBe(pending.id);
  expect(charges().length).toBeGreaterThanOrEqual(2);
  expect(new Set(charges().map((r) => r.headers['idempotency-key']))).toEqual(new Set([pending.id]));
  const db = { query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params) };
  expect(await Promise.all([ledgerImbalances(db), postingMismatches(db), disputeMismatches(db)])).toEqual([
    [],
    [],
    [],
  ]);
});
