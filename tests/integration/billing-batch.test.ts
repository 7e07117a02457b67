// The billing engine runs a claimed batch in one transaction without a savepoint per
// subscription (billing-engine.ts runBatch); when one subscription of the batch fails, the
// batch rolls back and runs again with a savepoint each, so the failing one is set aside and
// the others are billed. Here the failure is real: the customer of one subscription is
// archived behind the API's back (the API would not let an archived customer keep one), so
// its renewal invoice is refused. Invoice numbers stay gapless through the rolled-back try.

import { usePlatform } from '../support/platform';

const suite = usePlatform();
const { api } = suite;

/** A customer on test clock `clock` and its monthly send_invoice subscription (EUR 15). */
async function subscribe(clock: string, name: string) {
  const customer = await api('POST', '/v1/customers', {
    name,
    email: `${name.toLowerCase()}@batch.test`,
    currency: 'EUR',
    test_clock: clock,
  });
  expect(customer.status).toBe(200);
  const created = await api('POST', '/v1/subscriptions', {
    customer: customer.body.id,
    items: [{ description: `Plan ${name}`, unit_amount: 1500, currency: 'EUR', interval: 'month' }],
    collection_method: 'send_invoice',
  });
  expect(created.status).toBe(200);
  expect(created.body.status).toBe('active');
  return { subscription: created.body, customer: customer.body.id as string };
}

it('sets aside a subscription whose renewal fails and bills the rest of its batch, numbers gapless', async () => {
  const clock = await api('POST', '/v1/test-clocks', { frozen_time: '2028-01-01T00:00:00Z' });
  expect(clock.status).toBe(200);
  const first = await subscribe(clock.body.id, 'First');
  const broken = await subscribe(clock.body.id, 'Broken');
  const third = await subscribe(clock.body.id, 'Third');
  await suite.platform.sql('invoicing', 'update invoicing.customers set deleted_at = now() where id = $1', [
    broken.customer,
  ]);

  const advanced = await api('POST', `/v1/test-clocks/${clock.body.id}/advance`, {
    frozen_time: '2028-02-01T00:00:01Z',
  });
  expect(advanced.status).toBe(200);
  expect(advanced.body.status).toBe('ready');

  for (const { subscription } of [first, third]) {
    const got = await api('GET', `/v1/subscriptions/${subscription.id}`);
    expect(got.body.current_period_start).toBe('2028-02-01T00:00:00.000Z');
    expect(got.body.latest_invoice).not.toBe(subscription.latest_invoice);
  }
  const [setAside] = await suite.platform.sql<{ current_period_start: Date; next_action_at: Date | null }>(
    'invoicing',
    'select current_period_start, next_action_at from invoicing.subscriptions where id = $1',
    [broken.subscription.id],
  );
  // Still in its first period; on a test clock a set-aside subscription is not acted on again.
  expect(new Date(setAside.current_period_start).toISOString()).toBe('2028-01-01T00:00:00.000Z');
  expect(setAside.next_action_at).toBeNull();

  // Three first invoices and two renewals, numbered 1..5 with no gap left by the rolled-back try.
  const numbers = await suite.platform.sql<{ number: string }>(
    'invoicing',
    `select number from invoicing.invoices where account_id = $1 and number is not null order by number`,
    [suite.account.id],
  );
  expect(numbers.map((row) => Number(row.number.split('-').pop()))).toEqual([1, 2, 3, 4, 5]);
});

it('never bills a period twice: a period already in the ledger keeps its one bill and the subscription moves past it', async () => {
  const clock = await api('POST', '/v1/test-clocks', { frozen_time: '2028-01-01T00:00:00Z' });
  expect(clock.status).toBe(200);
  const plain = (await subscribe(clock.body.id, 'Plain')).subscription.id as string;
  const billed = (await subscribe(clock.body.id, 'Billed')).subscription.id as string;
  // February of `billed` is in the ledger already, behind the engine's back (the row lock
  // makes this impossible in the product: it is the ledger key's last line of defence).
  await suite.platform.sql(
    'invoicing',
    `insert into invoicing.subscription_periods
       (subscription_id, period_index, account_id, livemode, test_clock, period_start, period_end, billed_from,
        outcome, amount, created_at)
     select id, 1, account_id, livemode, test_clock, '2028-02-01', '2028-03-01', '2028-02-01', 'invoiced', 0, now()
       from invoicing.subscriptions where id = $1`,
    [billed],
  );
  const invoicesOf = (subscription: string) =>
    suite.platform.sql<{ number: string; period_start: Date }>(
      'invoicing',
      'select number, period_start from invoicing.invoices where subscription_id = $1 order by number',
      [subscription],
    );

  const february = await api('POST', `/v1/test-clocks/${clock.body.id}/advance`, {
    frozen_time: '2028-02-01T00:00:01Z',
  });
  expect(february.body.status).toBe('ready');
  expect(await invoicesOf(plain)).toHaveLength(2);
  // No second bill of February: its invoice was rolled back (no number spent) and the
  // subscription waits for March.
  expect(await invoicesOf(billed)).toHaveLength(1);
  const [ledger] = await suite.platform.sql<{ invoice_id: string | null; n: string }>(
    'invoicing',
    `select max(invoice_id) as invoice_id, count(*) as n from invoicing.subscription_periods
      where subscription_id = $1 and period_index = 1`,
    [billed],
  );
  expect(ledger).toEqual({ invoice_id: null, n: '1' });
  const [moved] = await suite.platform.sql<{ next_period_index: number; next_action_at: Date }>(
    'invoicing',
    'select next_period_index, next_action_at from invoicing.subscriptions where id = $1',
    [billed],
  );
  expect(moved.next_period_index).toBe(2);
  expect(new Date(moved.next_action_at).toISOString()).toBe('2028-03-01T00:00:00.000Z');

  const march = await api('POST', `/v1/test-clocks/${clock.body.id}/advance`, {
    frozen_time: '2028-03-01T00:00:01Z',
  });
  expect(march.body.status).toBe('ready');
  const after = await invoicesOf(billed);
  expect(after).toHaveLength(2);
  expect(new Date(after[1].period_start).toISOString()).toBe('2028-03-01T00:00:00.000Z');
  // Gapless across both runs (the account's numbers, this test's five the last of them): 2
  // first invoices, 1 renewal in February, 2 in March.
  const numbers = await suite.platform.sql<{ number: string; subscription_id: string | null }>(
    'invoicing',
    `select number, subscription_id from invoicing.invoices where account_id = $1 and number is not null
      order by number`,
    [suite.account.id],
  );
  const sequence = numbers.map((row) => Number(row.number.split('-').pop()));
  expect(sequence).toEqual(sequence.map((_, i) => i + 1));
  expect(numbers.slice(-5).every((row) => [plain, billed].includes(row.subscription_id ?? ''))).toBe(true);
  expect(numbers.filter((row) => [plain, billed].includes(row.subscription_id ?? ''))).toHaveLength(5);
});
