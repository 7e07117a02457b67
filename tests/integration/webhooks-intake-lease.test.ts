// The event intake leases the deliveries that may go at once, for its own instance's worker,
// in the statement that queues them (EventLog.record): no claim of their own. Checked here,
// through the whole platform, against a receiver that holds its answers until told:
//   - a delivery to an idle endpoint is leased by the intake (its lease taken at the instant
//     it was queued) and delivered;
//   - the intake keeps the claim's per-endpoint limit: with answers held, an endpoint never
//     has more than PER_ENDPOINT_IN_FLIGHT deliveries in flight, the rest wait unleased and go
//     once answers come;
//   - it keeps the per-object order: an event about an object whose earlier delivery is
//     still in flight is queued unleased, and reaches the endpoint only after that one.

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PER_ENDPOINT_IN_FLIGHT } from '../../apps/webhooks/src/delivery/worker';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;
let server: Server;
let receiverUrl: string;

/** Requests answered at once unless held; the held ones wait for `release`. */
const receiver = {
  hold: false,
  held: [] as ServerResponse[],
  inFlight: 0,
  maxInFlight: 0,
  received: [] as { id: string; type: string; object: string }[],
  release() {
    this.hold = false;
    for (const res of this.held.splice(0)) res.end('ok');
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    receiver.inFlight++;
    receiver.maxInFlight = Math.max(receiver.maxInFlight, receiver.inFlight);
    res.on('finish', () => receiver.inFlight--);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: string;
        type: string;
        data: { object: { id: string } };
      };
      receiver.received.push({ id: event.id, type: event.type, object: event.data.object.id });
      if (receiver.hold) receiver.held.push(res);
      else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  platform = await startPlatform();
  account = await platform.newAccount(['invoicing']);
});

afterAll(async () => {
  receiver.release();
  await platform?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(() => {
  receiver.release();
  receiver.received.length = 0;
  receiver.maxInFlight = receiver.inFlight;
});

async function endpointFor(events: string[]): Promise<string> {
  const endpoint = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
    url: receiverUrl,
    enabled_events: events,
  });
  expect(endpoint.status).toBe(200);
  return endpoint.body.id as string;
}

interface DeliveryRow {
  event_id: string;
  status: string;
  leased: boolean;
  queued_at_lease: boolean;
}

/** The endpoint's deliveries, oldest first: leased now, and leased at the instant queued. */
const deliveriesOf = (endpoint: string) =>
  platform.sql<DeliveryRow>(
    'webhooks',
    `select event_id, status, lease_until is not null as leased,
       last_attempt_at is not distinct from created_at as queued_at_lease
     from webhooks.deliveries where endpoint_id = $1 order by seq`,
    [endpoint],
  );

async function newCustomer(name: string): Promise<string> {
  const created = await platform.api(account.testKey, 'POST', '/v1/customers', { name });
  expect(created.status).toBe(200);
  return created.body.id as string;
}

test('a delivery to an idle endpoint is leased by the intake and delivered', async () => {
  const endpoint = await endpointFor(['customer.created']);
  await newCustomer('Leased at intake Ltd');
  const [delivery] = await eventually(async () => {
    const rows = await deliveriesOf(endpoint);
    return rows.length === 1 && rows[0].status === 'succeeded' ? rows : undefined;
  }, 20_000);
  // A claim leases at its own later instant; the intake at the one the delivery was queued.
  expect(delivery).toMatchObject({ leased: false, queued_at_lease: true });
  expect(receiver.received.map((r) => r.id)).toEqual([delivery.event_id]);
  await platform.api(account.testKey, 'DELETE', `/v1/webhooks/${endpoint}`);
});

test('the intake keeps the per-endpoint limit: the deliveries past it wait unleased, then go', async () => {
  const endpoint = await endpointFor(['customer.created']);
  const total = PER_ENDPOINT_IN_FLIGHT + 5;
  receiver.hold = true;
  for (let i = 0; i < total; i++) await newCustomer(`Busy endpoint ${i}`);
  // Every event queued: the limit's worth in flight (held by the receiver), the rest waiting.
  const rows = await eventually(async () => {
    const all = await deliveriesOf(endpoint);
    return all.length === total && receiver.held.length === PER_ENDPOINT_IN_FLIGHT ? all : undefined;
  }, 20_000);
  expect(rows.filter((r) => r.leased)).toHaveLength(PER_ENDPOINT_IN_FLIGHT);
  expect(rows.filter((r) => r.status === 'pending' && !r.leased)).toHaveLength(
    total - PER_ENDPOINT_IN_FLIGHT,
  );
  // The first went without a claim (an idle endpoint's).
  expect(rows[0].queued_at_lease).toBe(true);
  receiver.release();
  const done = await eventually(async () => {
    const all = await deliveriesOf(endpoint);
    return all.every((r) => r.status === 'succeeded') ? all : undefined;
  }, 30_000);
  expect(new Set(receiver.received.map((r) => r.id))).toEqual(new Set(done.map((r) => r.event_id)));
  expect(receiver.received).toHaveLength(total);
  expect(receiver.maxInFlight).toBe(PER_ENDPOINT_IN_FLIGHT);
  await platform.api(account.testKey, 'DELETE', `/v1/webhooks/${endpoint}`);
});

test('the intake keeps the per-object order: an event behind one in flight waits for it', async () => {
  const endpoint = await endpointFor(['customer.created', 'customer.updated']);
  receiver.hold = true;
  const customer = await newCustomer('Ordered at intake Ltd');
  await eventually(async () => (receiver.held.length === 1 ? true : undefined), 20_000);
  const updated = await platform.api(account.testKey, 'POST', `/v1/customers/${customer}`, {
    name: 'Ordered at intake Ltd (renamed)',
  });
  expect(updated.status).toBe(200);
  const queued = await eventually(async () => {
    const rows = await deliveriesOf(endpoint);
    return rows.length === 2 ? rows : undefined;
  }, 20_000);
  // The first in flight, leased by the intake; the second queued unleased behind it.
  expect(queued.map((r) => ({ status: r.status, leased: r.leased }))).toEqual([
    { status: 'pending', leased: true },
    { status: 'pending', leased: false },
  ]);
  expect(queued[0].queued_at_lease).toBe(true);
  expect(receiver.received.map((r) => r.type)).toEqual(['customer.created']);
  receiver.release();
  await eventually(async () => {
    const rows = await deliveriesOf(endpoint);
    return rows.every((r) => r.status === 'succeeded') ? true : undefined;
  }, 30_000);
  expect(receiver.received.map((r) => ({ type: r.type, object: r.object }))).toEqual([
    { type: 'customer.created', object: customer },
    { type: 'customer.updated', object: customer },
  ]);
  await platform.api(account.testKey, 'DELETE', `/v1/webhooks/${endpoint}`);
});
