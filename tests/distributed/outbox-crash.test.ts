// Killing the publisher between commit and publish loses nothing: the relay sends the
// committed outbox rows when the service comes back, and they reach the event log once.

import {
  eventually,
  startDistributedPlatform,
  type DistributedPlatform,
  type TestAccount,
} from '../support/platform';

let platform: DistributedPlatform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startDistributedPlatform();
  account = await platform.newAccount(['payments']);
});

afterAll(async () => {
  await platform?.stop();
});

it('publishes events committed before a kill -9 once the service restarts', async () => {
  // Restart payments with its relay off: commits happen, publishing does not, as if the
  // process died right after every commit.
  await platform.kill('payments');
  await platform.start('payments', { OUTBOX_RELAY_ENABLED: 'false' });
  const created = await platform.api(account.testKey, 'POST', '/v1/merchants', {
    business_name: 'Crashy Ltd',
    email: 'ops@crashy.test',
    country: 'DE',
    default_currency: 'EUR',
    business_type: 'company',
  });
  expect(created.status).toBe(200);
  const merchantId: string = created.body.id;

  await platform.kill('payments', 'SIGKILL');
  await new Promise((r) => setTimeout(r, 1_000));
  const before = await platform.api(account.testKey, 'GET', '/v1/events?limit=100');
  expect(before.body.data.filter((e: any) => e.data.object.id === merchantId)).toHaveLength(0);

  await platform.start('payments');
  const events = await eventually(async () => {
    const list = await platform.api(account.testKey, 'GET', '/v1/events?limit=100');
    const mine = list.body.data.filter((e: any) => e.data.object.id === merchantId);
    return mine.length >= 2 ? mine : undefined;
  }, 30_000);
  expect(events.map((e: any) => e.data.object.onboarding.status)).toEqual(['active', 'in_review']);

  await new Promise((r) => setTimeout(r, 1_000));
  const after = await platform.api(account.testKey, 'GET', '/v1/events?limit=100');
  expect(after.body.data.filter((e: any) => e.data.object.id === merchantId)).toHaveLength(2);
});
