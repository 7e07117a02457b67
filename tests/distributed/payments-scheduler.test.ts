// Several payments instances against one real PostgreSQL: three processes with the opt-in
// test clock run their scheduler at the same moment over the same due mandates (made by real
// hosted checkouts). Each cycle is charged exactly once (SKIP LOCKED claims and the unique
// intent per mandate, cycle and attempt), and the ledger balances.

import { ledgerImbalances, postingMismatches } from '../../apps/payments/src/ledger/ledger';
import { CARDS, payPage } from '../support/pages';
import {
  advancePaymentsClockAt,
  DAY_MS,
  PAYMENTS_TEST_CLOCK_ENV,
  startDistributedPlatform,
  type DistributedPlatform,
  type TestAccount,
} from '../support/platform';

let platform: DistributedPlatform;
let account: TestAccount;
const extras: string[] = [];

const advanceInstance = async (url: string, ms: number) =>
  (await advancePaymentsClockAt(platform.internalSecret, url, ms)).ran;

beforeAll(async () => {
  platform = await startDistributedPlatform(PAYMENTS_TEST_CLOCK_ENV);
  account = await platform.newAccount(['payments']);
  // The extra instances are stopped with the platform.
  const started = await Promise.all([platform.startExtra('payments'), platform.startExtra('payments')]);
  extras.push(...started.map((e) => e.url));
});

afterAll(async () => {
  await platform?.stop();
});

it('three instances charging at once start every due cycle exactly once', async () => {
  const mandates: string[] = [];
  for (let i = 0; i < 10; i++) {
    const link = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
      type: 'recurring',
      amount: 2000 + i,
      currency: 'USD',
      recurring: { interval: 'week', interval_count: 2 },
    });
    expect(link.status).toBe(200);
    const paid = await payPage(platform, `/pay/${link.body.id}`, CARDS.ok);
    expect(paid.status).toBe(200);
    const [payment] = (
      await platform.api(account.testKey, 'GET', `/v1/transactions?payment_link=${link.body.id}`)
    ).body.data;
    mandates.push(payment.mandate);
  }
  const urls = [`http://127.0.0.1:${platform.ports.payments}`, ...extras];
  // Every instance's clock moves 15 days and runs its scheduler, all at the same moment.
  const ran = await Promise.all(urls.map((url) => advanceInstance(url, 15 * DAY_MS)));
  expect(ran.reduce((sum, r) => sum + r.mandate_charges, 0)).toBe(10);
  // And once more: nothing is due any longer.
  const again = await Promise.all(urls.map((url) => advanceInstance(url, 0)));
  expect(again.reduce((sum, r) => sum + r.mandate_charges, 0)).toBe(0);

  for (const mandate of mandates) {
    const rows = await platform.sql<{ status: string }>(
      'payments',
      `select status from payments.transactions where mandate = $1 order by created_at`,
      [mandate],
    );
    expect(rows.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
  }
  const db = { query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params) };
  expect(await ledgerImbalances(db)).toEqual([]);
  expect(await postingMismatches(db)).toEqual([]);
});
