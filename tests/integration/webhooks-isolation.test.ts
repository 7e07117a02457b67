// A hanging endpoint must not delay deliveries to a healthy one (docs/api.md §7, issue 7):
// deliveries are POSTed concurrently, each with its own 15 s time-out, and an endpoint's
// in-flight deliveries are capped, so the worker keeps claiming other endpoints' work while
// one endpoint holds its connections open. Both modes; no timing is asserted: the proof is
// that the healthy endpoint received everything while the hanging one still held its
// requests unanswered (i.e. before any of them timed out).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const EVENTS = 12;

let platform: Platform;
let account: TestAccount;
let healthy: WebhookReceiver;
let hanging: Server;
/** Requests the hanging receiver accepted and never answered. */
const held: ServerResponse[] = [];

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

beforeAll(async () => {
  healthy = await startWebhookReceiver();
  hanging = await listen((req, res) => {
    req.resume();
    held.push(res);
  });
  platform = await startPlatform();
  account = await platform.newAccount(['payments']);
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await platform?.stop();
  hanging?.closeAllConnections();
  await new Promise((resolve) => hanging?.close(resolve));
  await healthy?.stop();
});

it('delivers every event to a healthy endpoint while another endpoint hangs', async () => {
  const register = async (url: string) => {
    const created = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
      url,
      enabled_events: ['payment_link.created'],
    });
    expect(created.status).toBe(200);
    return created.body as { id: string; secret: string };
  };
  // The hanging endpoint is registered first, so its deliveries come first in every claim.
  const slow = await register(urlOf(hanging));
  const good = await register(healthy.url);

  const links: string[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const link = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
      amount: 1000 + i,
      currency: 'EUR',
    });
    expect(link.status).toBe(200);
    links.push(link.body.id);
  }

  // Every event reached the healthy endpoint...
  const got = await eventually(
    async () => (new Set(healthy.received.map((b) => b.id)).size >= EVENTS ? healthy.received : undefined),
    14_000,
  );
  // ...while the hanging endpoint still holds requests open: none of them has timed out yet,
  // so the healthy deliveries did not wait for the hanging ones.
  const stillHeld = held.filter((res) => !res.writableEnded && !res.destroyed).length;
  expect(stillHeld).toBeGreaterThan(0);
  const slowDeliveries = await platform.api(
    account.testKey,
    'GET',
    `/v1/webhooks/${slow.id}/deliveries?limit=100`,
  );
  expect(slowDeliveries.body.data.filter((d: any) => d.status === 'succeeded')).toEqual([]);
  expect(slowDeliveries.body.data.every((d: any) => d.attempt_count === 0)).toBe(true);

  const verifier = new Webhook(good.secret);
  const objects = got.map((b) => (verifier.verify(b.body, b.headers) as any).data.object.id);
  expect(new Set(objects)).toEqual(new Set(links));
  expect(got).toHaveLength(EVENTS); // no duplicates either
});
