// The billing engine runs a claimed batch in one transaction without a savepoint per
// subscription (billing-engine.ts runBatch); when one subscription of the batch fails, the
// batch rolls back and runs again with a savepoint each, so the failing one is set aside and
// the others are billed. Here the failure is real: the customer of one subscription is
// archived behind the API's back (the API would not let an archived customer keep one), so
// its renewal invoice is refused. Invoice numbers stay gapless through the rolled-back try.

import { usePlatform } from '../support/platform';

const suite = usePlatform();
const { api } = suite;

it('sets aside a subscription whose renewal fails and bills the rest of its batch, numbers gapless', async () => {
  const clock = await api('POST', '/v1/test-clocks', { frozen_time: '2028-01-01T00:00:00Z' });
  expect(clock.status).toBe(200);
  const subscribe = async (name: string) => {
    const customer = await api('POST', '/v1/customers', {
      name,
      email: `${name.toLowerCase()}@batch.test`,
      currency: 'EUR',
      test_clock: clock.body.id,
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
  };
  const first = await subscribe('First');
  const broken = await subscribe('Broken');
  const third = await subscribe('Third');
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
