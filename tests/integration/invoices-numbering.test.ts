// Gapless invoice numbers under concurrency (docs/api.md §6), in both modes (real PostgreSQL
// in the distributed project). 50 drafts are finalized at once; half of the finalizations
// fail AFTER the number was taken (sending to a customer without an e-mail address rolls the
// whole transaction back). The numbers that exist must be exactly 1..25: no duplicate, no
// gap, and the failed ones gave theirs back. The other mode's sequence is its own.

import { startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['invoicing']);
});

afterAll(async () => {
  await platform?.stop();
});

const LINE = [{ description: 'Work', quantity: 1, unit_amount: 1000, tax_rate_bps: 2000 }];

async function draft(key: string, customer: string): Promise<string> {
  const created = await platform.api(key, 'POST', '/v1/invoices', { customer, lines: LINE, send: false });
  expect(created.status).toBe(200);
  return created.body.id;
}

it('numbers 50 concurrent finalizations without gap or duplicate, giving back the numbers of those that fail', async () => {
  const key = account.testKey;
  const reachable = await platform.api(key, 'POST', '/v1/customers', {
    name: 'A',
    email: 'a@example.test',
    currency: 'USD',
  });
  const unreachable = await platform.api(key, 'POST', '/v1/customers', { name: 'B', currency: 'USD' });
  const good: string[] = [];
  const bad: string[] = [];
  for (let i = 0; i < 25; i++) {
    good.push(await draft(key, reachable.body.id));
    bad.push(await draft(key, unreachable.body.id));
  }
  // Interleaved, all in flight together: /send finalizes (takes a number) then e-mails.
  const results = await Promise.all(
    good.flatMap((id, i) => [
      platform.api(key, 'POST', `/v1/invoices/${id}/send`),
      platform.api(key, 'POST', `/v1/invoices/${bad[i]}/send`),
    ]),
  );
  const statuses = results.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(25);
  expect(statuses.filter((s) => s === 400)).toHaveLength(25);
  for (const failed of results.filter((r) => r.status === 400)) {
    expect([failed.body.error.code, failed.body.error.param]).toEqual(['parameter_invalid', 'customer']);
  }

  const numbers = results.filter((r) => r.status === 200).map((r) => r.body.number as string);
  expect(numbers.sort()).toEqual(
    Array.from({ length: 25 }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`),
  );
  for (const id of bad) {
    const still = await platform.api(key, 'GET', `/v1/invoices/${id}`);
    expect([still.body.status, still.body.number]).toEqual(['draft', null]);
  }
  const stored = await platform.sql<{ number: string }>(
    'invoicing',
    `select number from invoicing.invoices where account_id = $1 and livemode = false and number is not null order by number`,
    [account.id],
  );
  expect(stored.map((r) => r.number)).toEqual([...numbers].sort());

  // 25 more, finalized at once: the sequence continues at 26 with no hole.
  const more = await Promise.all(
    Array.from({ length: 25 }, async () => draft(key, reachable.body.id)).map(async (id) =>
      platform.api(key, 'POST', `/v1/invoices/${await id}/finalize`),
    ),
  );
  expect(more.map((r) => r.status)).toEqual(Array(25).fill(200));
  expect(more.map((r) => r.body.number).sort()).toEqual(
    Array.from({ length: 25 }, (_, i) => `INV-${String(i + 26).padStart(4, '0')}`),
  );

  // Live mode has its own sequence.
  const liveCustomer = await platform.api(account.liveKey, 'POST', '/v1/customers', {
    name: 'L',
    currency: 'USD',
  });
  const live = await platform.api(
    account.liveKey,
    'POST',
    `/v1/invoices/${await draft(account.liveKey, liveCustomer.body.id)}/finalize`,
  );
  expect(live.body.number).toBe('INV-0001');
}, 180_000); // 50 concurrent finalizations: 10-40 s on the 2-core machine, 167 s once under a load average of 23
