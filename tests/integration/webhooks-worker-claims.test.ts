// The delivery worker claims only when something may be waiting (worker.ts `idle`). With the
// intake leasing the deliveries that may go at once (EventLog.record), the end of each one
// used to wake a claim that found nothing: 0.6 claims per payment link at 200/s, each planned
// (bench/README.md finding 60). Here the real worker and event log, on PGlite (embedded) or
// PostgreSQL with named prepared statements (distributed), deliver EVENTS events one after
// another to a local receiver: every one is leased at intake and delivered once, and the
// claims sent are the polls' (one per POLL_MS, and the round a poll's wake may queue), not one
// per delivery.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import type { EventEnvelope } from '@paygrid/contracts';
import { createLogger, systemClock, type Database } from '@paygrid/platform';
import { DeliveryWorker } from '../../apps/webhooks/src/delivery/worker';
import { EventLog } from '../../apps/webhooks/src/events/event-log';
import { WEBHOOKS_MIGRATIONS } from '../../apps/webhooks/src/webhooks';
import { serviceDatabase } from '../support/service-database';
import { eventually } from '../support/platform';

const EVENTS = 40;
/** The worker's poll (worker.ts POLL_MS). */
const POLL_MS = 200;

let db: Database;
let close: () => Promise<void>;
let server: Server;
const received: string[] = [];

beforeAll(async () => {
  ({ db, close } = await serviceDatabase('webhooks', WEBHOOKS_MIGRATIONS, 'paygrid_claims'));
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const now = new Date();
  await db.query(
    `insert into webhooks.endpoints (id, account_id, livemode, url, enabled_events, secret, status, created_at, updated_at)
     values ('we_claims', 'acct_claims', false, $1, array['*'], 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'enabled', $2, $2)`,
    [`http://127.0.0.1:${port}/hook`, now],
  );
}, 60_000);

afterAll(async () => {
  await close?.();
  await new Promise((resolve) => server?.close(resolve));
});

const eventAbout = (i: number): EventEnvelope => ({
  id: `evt_claims_${i}`,
  object: 'event',
  type: 'customer.created',
  created_at: new Date().toISOString(),
  livemode: false,
  account: 'acct_claims',
  data: { object: { id: `cus_claims_${i}` } },
});

const isClaim = (sql: unknown) =>
  (typeof sql === 'string' ? sql : ((sql as { text?: string }).text ?? '')).includes(
    'with leased as materialized',
  );

test('deliveries leased at intake are delivered without a claim each', async () => {
  const worker = new DeliveryWorker(db, systemClock, createLogger('test', 'silent'), {
    allowPrivate: true,
  });
  const log = new EventLog(db, systemClock);
  log.onDeliveries = worker.wake;
  log.lessee = worker;
  worker.start();
  const queries = jest.spyOn(Client.prototype, 'query');
  const started = Date.now();
  try {
    for (let i = 0; i < EVENTS; i++) {
      await db.transaction((tx) => log.record(eventAbout(i), tx));
      await eventually(async () => (received.length === i + 1 ? true : undefined), 10_000);
    }
    const elapsed = Date.now() - started;
    const claims = queries.mock.calls.filter(([sql]) => isClaim(sql)).length;
    // Each poll wakes one round, and a delivery that ends while that round runs may queue
    // one more: at most two claims per poll. One per delivery would be EVENTS or more.
    expect(claims).toBeLessThanOrEqual(2 * Math.ceil(elapsed / POLL_MS) + 2);
    expect(claims).toBeLessThan(EVENTS);
  } finally {
    queries.mockRestore();
    await worker.stop();
  }
  expect(received).toEqual(Array.from({ length: EVENTS }, (_, i) => `evt_claims_${i}`));
  const rows = await db.query<{ status: string; queued_at_lease: boolean }>(
    `select status, last_attempt_at is not distinct from created_at as queued_at_lease
     from webhooks.deliveries where endpoint_id = 'we_claims'`,
  );
  expect(rows).toHaveLength(EVENTS);
  expect(rows.every((r) => r.status === 'succeeded' && r.queued_at_lease)).toBe(true);
}, 60_000);
