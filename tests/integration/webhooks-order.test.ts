// Per endpoint, the events of one object are delivered in the order they happened (docs/api.md
// "Webhooks"), and the deliveries queued behind a failing one wait for its next attempt instead
// of staying due (claim.ts followHead: otherwise every claim walks past all of them,
// bench/README.md finding 24). A retry by hand of the failing one makes them due again at once
// (followHead again): here all three arrive within 20 s, where the sandbox's next scheduled
// attempt is a minute away.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;
let server: Server;
let receiverUrl: string;
let failing = true;
const received: { type: string; id: string; status: number }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string };
      const status = failing ? 500 : 200;
      received.push({ type: event.type, id: event.id, status });
      res.writeHead(status).end(status === 200 ? 'ok' : 'try again');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  platform = await startPlatform();
  account = await platform.newAccount(['invoicing']);
});

afterAll(async () => {
  await platform?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

test('deliveries queued behind a failing one wait for its next attempt, then follow it in order', async () => {
  const key = account.testKey;
  const endpoint = await platform.api(key, 'POST', '/v1/webhooks', {
    url: receiverUrl,
    enabled_events: ['customer.created', 'customer.updated'],
  });
  expect(endpoint.status).toBe(200);
  const created = await platform.api(key, 'POST', '/v1/customers', { name: 'Ordered Ltd' });
  expect(created.status).toBe(200);
  const customer = created.body.id as string;
  // The first delivery fails at once; the two updates queue behind it.
  await eventually(async () => (received.length >= 1 ? true : undefined), 20_000);
  for (const name of ['Ordered Ltd (1)', 'Ordered Ltd (2)']) {
    const updated = await platform.api(key, 'POST', `/v1/customers/${customer}`, { name });
    expect(updated.status).toBe(200);
  }

  const deliveries = async () => {
    const page = await platform.api(key, 'GET', `/v1/webhooks/${endpoint.body.id}/deliveries?limit=10`);
    expect(page.status).toBe(200);
    return page.body.data as {
      id: string;
      event: string;
      status: string;
      next_attempt_at: string | null;
      attempt_count: number;
    }[];
  };
  // Once the head has failed twice (the sandbox's second attempt is about 5 s after the
  // first), its next attempt is a minute away, and its two followers wait for that same moment.
  const queued = await eventually(async () => {
    const rows = await deliveries();
    const head = rows.find((d) => d.attempt_count === 2);
    const followers = rows.filter((d) => d.attempt_count === 0);
    if (!head || followers.length !== 2) return undefined;
    return followers.every((d) => d.next_attempt_at === head.next_attempt_at)
      ? { head, followers }
      : undefined;
  }, 30_000);
  const wait = Date.parse(String(queued.head.next_attempt_at)) - Date.now();
  expect(wait).toBeGreaterThan(20_000);
  // Nothing of the followers reached the receiver: only the head's two failed attempts.
  expect(received.map((r) => r.status)).toEqual([500, 500]);

  failing = false;
  const retried = await platform.api(
    key,
    'POST',
    `/v1/webhooks/${endpoint.body.id}/deliveries/${queued.head.id}/retry`,
    {},
  );
  expect(retried.status).toBe(200);
  const delivered = await eventually(
    async () =>
      received.filter((r) => r.status === 200).length >= 3
        ? received.filter((r) => r.status === 200)
        : undefined,
    20_000,
  );
  expect(delivered.map((r) => r.type)).toEqual(['customer.created', 'customer.updated', 'customer.updated']);
  // The receiver answers before the worker records the outcome: the last row may still read
  // pending for a moment after its request arrived.
  const statuses = await eventually(async () => {
    const rows = await deliveries();
    return rows.every((d) => d.status !== 'pending') ? rows.map((d) => d.status) : undefined;
  }, 10_000);
  expect(statuses).toEqual(['succeeded', 'succeeded', 'succeeded']);
  // In the order the events happened: the updates' event ids are in the order they were made.
  const updates = delivered.slice(1).map((r) => r.id);
  const events = await platform.api(key, 'GET', '/v1/events?type=customer.updated&limit=10');
  expect(events.status).toBe(200);
  const madeInOrder = (events.body.data as { id: string }[]).map((e) => e.id).reverse();
  expect(updates).toEqual(madeInOrder.slice(-2));
});
