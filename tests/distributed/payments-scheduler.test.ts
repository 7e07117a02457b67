// Several payments instances against one real PostgreSQL: three processes with the opt-in
// test clock run their scheduler at the same moment over the same due mandates (made by real
// hosted checkouts). Each cycle is charged exactly once (SKIP LOCKED claims and the unique
// intent per mandate, cycle and attempt), and the ledger balances.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { signContext } from '@paygrid/platform';
import { ledgerImbalances, postingMismatches } from '../../apps/payments/src/ledger/ledger';
import { eventually, freePort, ROOT, type TestAccount } from '../support/platform';
import {
  CARDS,
  DAY_MS,
  PAYMENTS_TEST_ENV,
  payPage,
  startPaymentsPlatform,
  type PaymentsPlatform,
} from '../integration/payments-platform';

let platform: PaymentsPlatform & { env?: Record<string, string> };
let account: TestAccount;
const extras: { child: ChildProcess; url: string }[] = [];

async function startExtraPayments(): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'apps', 'payments', 'dist', 'main.js')], {
    env: { ...(platform.env as Record<string, string>), ...PAYMENTS_TEST_ENV, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  extras.push({ child, url });
  await eventually(
    async () => ((await fetch(`${url}/ready`)).status === 200 ? true : undefined),
    60_000,
    200,
  );
}

async function advanceInstance(url: string, ms: number): Promise<{ mandate_charges: number }> {
  const path = '/internal/test-clock/advance';
  const headers = signContext(
    platform.internalSecret,
    { kind: 'operator', request_id: `req_${randomBytes(6).toString('hex')}`, issued_at: Date.now() },
    'POST',
    path,
  );
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ms }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { ran: { mandate_charges: number } }).ran;
}

beforeAll(async () => {
  platform = await startPaymentsPlatform();
  account = await platform.newAccount(['payments']);
  await Promise.all([startExtraPayments(), startExtraPayments()]);
});

afterAll(async () => {
  await Promise.all(
    extras.map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve(undefined);
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
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
  const payments = `http://127.0.0.1:${(platform as unknown as { ports: { payments: number } }).ports.payments}`;
  const urls = [payments, ...extras.map((e) => e.url)];
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
