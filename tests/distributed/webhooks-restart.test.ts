// A receiver that is down while the webhooks service is killed (kill -9) and restarted still
// receives every event (issue 7): the deliveries are rows in PostgreSQL, the events not yet
// consumed stay in Kafka (the consumer group's offsets are committed only after the inbox
// transaction), and claims left by the killed process expire with their lease.
//
// N events are caused; afterwards the receiver must have seen N distinct webhook-ids, each
// with a valid signature (verified with the independent `standardwebhooks` package).

import { Webhook } from 'standardwebhooks';
import {
  eventually,
  freePort,
  startDistributedPlatform,
  type DistributedPlatform,
  type TestAccount,
} from '../support/platform';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const BEFORE_KILL = 10;
const WHILE_DOWN = 10;
const N = BEFORE_KILL + WHILE_DOWN;

let platform: DistributedPlatform;
let account: TestAccount;
let receiver: WebhookReceiver | undefined;

beforeAll(async () => {
  platform = await startDistributedPlatform();
  account = await platform.newAccount(['payments']);
});

afterAll(async () => {
  await platform?.stop();
  await receiver?.stop();
});

const createLinks = async (count: number, from: number) => {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const link = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
      amount: 100 + from + i,
      currency: 'EUR',
    });
    expect(link.status).toBe(200);
    ids.push(link.body.id);
  }
  return ids;
};

it('delivers every event after kill -9 and restart while the receiver was down', async () => {
  const port = await freePort(); // nothing listens there yet: connections are refused
  const endpoint = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
    url: `http://127.0.0.1:${port}/hook`,
    enabled_events: ['payment_link.created'],
  });
  expect(endpoint.status).toBe(200);
  const secret: string = endpoint.body.secret;

  // Half the events are caused while the service runs: their first attempts fail.
  const links = await createLinks(BEFORE_KILL, 0);
  await eventually(async () => {
    const page = await platform.api(
      account.testKey,
      'GET',
      `/v1/webhooks/${endpoint.body.id}/deliveries?limit=100`,
    );
    const tried = page.body.data.filter((d: any) => d.attempt_count >= 1);
    return tried.length >= 1 ? tried : undefined;
  }, 30_000);

  // kill -9, then the other half while the webhooks service is down (they wait in Kafka).
  await platform.kill('webhooks', 'SIGKILL');
  links.push(...(await createLinks(WHILE_DOWN, BEFORE_KILL)));
  await platform.start('webhooks');

  // The receiver comes up only now.
  receiver = await startWebhookReceiver({ port });
  const { received } = receiver;

  // Deliveries that already failed twice wait for the sandbox schedule's third attempt (1 min).
  await eventually(
    async () => (new Set(received.map((r) => r.id)).size >= N ? true : undefined),
    150_000,
    250,
  );
  const distinct = new Set(received.map((r) => r.id));
  expect(distinct.size).toBe(N);

  const verifier = new Webhook(secret);
  const objects = new Set(received.map((r) => (verifier.verify(r.body, r.headers) as any).data.object.id));
  expect(objects).toEqual(new Set(links));

  // The event ids received are exactly the events the log holds for those links.
  const logged = await platform.sql(
    'webhooks',
    `select id from webhooks.events where account_id = $1 and type = 'payment_link.created'`,
    [account.id],
  );
  expect(new Set(logged.map((r: any) => r.id))).toEqual(distinct);
  // Every delivery ends succeeded; duplicates beyond at-least-once would show here as
  // more receptions than deliveries (none are expected: nothing was acknowledged before).
  const deliveries = await eventually(async () => {
    const rows = await platform.sql(
      'webhooks',
      `select status, count(*)::int as n from webhooks.deliveries where endpoint_id = $1 group by status`,
      [endpoint.body.id],
    );
    return rows.length === 1 && rows[0].status === 'succeeded' ? rows : undefined;
  });
  expect(deliveries).toEqual([{ status: 'succeeded', n: N }]);
  expect(received).toHaveLength(N);
}, 240_000);
