// An event's intake (apps/webhooks/src/events/event-log.ts EventLog.record): the event and its
// deliveries in one statement, with what two statements used to guarantee. Each delivery goes
// to an enabled endpoint of the event's account and mode subscribed to its type; a redelivered
// event queues nothing; a delivery queued behind a pending one of the same endpoint and object
// waits for that one's next attempt; the deliveries are inserted in endpoint order (their seq);
// an account with more endpoints than the ids an event carries (FAN_OUT_IDS) still gets every
// delivery. On PGlite (embedded) and on PostgreSQL with named prepared statements (distributed).

import { Client } from 'pg';
import type { EventEnvelope, EventType } from '@paygrid/contracts';
import { ManualClock, type Database } from '@paygrid/platform';
import { EventLog, FAN_OUT_IDS } from '../../apps/webhooks/src/events/event-log';
import { WEBHOOKS_MIGRATIONS } from '../../apps/webhooks/src/webhooks';
import { serviceDatabase } from '../support/service-database';

const now = new Date('2026-12-01T12:00:00Z');
let db: Database;
let close: () => Promise<void>;
let log: EventLog;
let woken = { deliveries: 0, recorded: 0 };

beforeAll(async () => {
  ({ db, close } = await serviceDatabase('webhooks', WEBHOOKS_MIGRATIONS, 'paygrid_intake'));
  log = new EventLog(db, new ManualClock(now));
  log.onDeliveries = () => woken.deliveries++;
  log.onRecorded = () => woken.recorded++;
  const endpoint = (id: string, account: string, livemode: boolean, events: string[], status = 'enabled') =>
    db.query(
      `insert into webhooks.endpoints (id, account_id, livemode, url, enabled_events, secret, status, created_at, updated_at)
       values ($1, $2, $3, 'https://receiver.example/' || $1, $4, 'whsec_x', $5, $6, $6)`,
      [id, account, livemode, events, status, now],
    );
  await endpoint('we_a1', 'acct_1', false, ['payment_link.created', 'payment.succeeded']);
  await endpoint('we_a2', 'acct_1', false, ['*']);
  await endpoint('we_a3', 'acct_1', false, ['invoice.paid']);
  await endpoint('we_a4', 'acct_1', false, ['*'], 'disabled');
  await endpoint('we_a5', 'acct_1', true, ['*']);
  await endpoint('we_b1', 'acct_2', false, ['*']);
  // More endpoints than an event carries ids for, created out of id order.
  for (let i = FAN_OUT_IDS + 2; i >= 1; i--)
    await endpoint(`we_c${String(i).padStart(2, '0')}`, 'acct_3', false, ['*']);
}, 60_000);

afterAll(() => close?.());

beforeEach(() => {
  woken = { deliveries: 0, recorded: 0 };
});

const event = (
  id: string,
  type: EventType,
  object: Record<string, unknown>,
  account = 'acct_1',
): EventEnvelope => ({
  id,
  object: 'event',
  type,
  created_at: now.toISOString(),
  livemode: false,
  account,
  data: { object },
});

/** Records `evt` in a transaction of its own; returns the statements it sent on the webhooks tables. */
async function record(evt: EventEnvelope): Promise<number> {
  const queries = jest.spyOn(Client.prototype, 'query');
  try {
    await db.transaction((tx) => log.record(evt, tx));
    return queries.mock.calls.filter(([sql]) =>
      (typeof sql === 'string' ? sql : ((sql as { text?: string }).text ?? '')).includes('webhooks.'),
    ).length;
  } finally {
    queries.mockRestore();
  }
}

interface Queued {
  id: string;
  endpoint_id: string;
  object_id: string | null;
  next_attempt_at: Date;
}

const deliveriesOf = (eventId: string) =>
  db.query<Queued>(
    `select id, endpoint_id, object_id, next_attempt_at from webhooks.deliveries where event_id = $1 order by seq`,
    [eventId],
  );

test('an event and its deliveries in one statement: each enabled endpoint of its account and mode subscribed to it', async () => {
  expect(await record(event('evt_1', 'payment_link.created', { id: 'plink_1' }))).toBe(1);
  const queued = await deliveriesOf('evt_1');
  expect(queued.map((d) => [d.endpoint_id, d.object_id, d.next_attempt_at])).toEqual([
    ['we_a1', 'plink_1', now],
    ['we_a2', 'plink_1', now],
  ]);
  expect(queued.map((d) => d.id)).toEqual([
    expect.stringMatching(/^del_\w{24}$/),
    expect.stringMatching(/^del_\w{24}$/),
  ]);
  expect(new Set(queued.map((d) => d.id)).size).toBe(2);
  expect(woken).toEqual({ deliveries: 1, recorded: 1 });
  const [{ n }] = await db.query<{ n: number }>(
    `select count(*)::int as n from webhooks.events where id = 'evt_1'`,
  );
  expect(n).toBe(1);
});

test('a redelivered event queues nothing and wakes no one', async () => {
  const before = await deliveriesOf('evt_1');
  await record(event('evt_1', 'payment_link.created', { id: 'plink_1' }));
  expect(await deliveriesOf('evt_1')).toEqual(before);
  expect(woken).toEqual({ deliveries: 0, recorded: 0 });
});

test('an event no endpoint is subscribed to is recorded, with no delivery', async () => {
  expect(await record(event('evt_2', 'payment_link.created', { id: 'plink_2' }, 'acct_9'))).toBe(1);
  expect(await deliveriesOf('evt_2')).toEqual([]);
  expect(woken).toEqual({ deliveries: 0, recorded: 1 });
});

test('a delivery queued behind a pending one of the same endpoint and object waits for its next attempt', async () => {
  const later = new Date(now.getTime() + 3_600_000);
  await db.query(
    `update webhooks.deliveries set next_attempt_at = $1 where event_id = 'evt_1' and endpoint_id = 'we_a1'`,
    [later],
  );
  await record(event('evt_3', 'payment.succeeded', { id: 'plink_1' }));
  await record(event('evt_4', 'payment.succeeded', { id: 'txn_1' }));
  await record(event('evt_5', 'payment.succeeded', { amount: 100 }));
  const attempts = async (id: string) =>
    (await deliveriesOf(id)).map((d) => [d.endpoint_id, d.object_id, d.next_attempt_at]);
  expect(await attempts('evt_3')).toEqual([
    ['we_a1', 'plink_1', later],
    ['we_a2', 'plink_1', now],
  ]);
  expect(await attempts('evt_4')).toEqual([
    ['we_a1', 'txn_1', now],
    ['we_a2', 'txn_1', now],
  ]);
  expect(await attempts('evt_5')).toEqual([
    ['we_a1', null, now],
    ['we_a2', null, now],
  ]);
});

test(`more endpoints than the ${FAN_OUT_IDS} ids an event carries: every one gets its delivery, in endpoint order`, async () => {
  expect(await record(event('evt_6', 'payment.succeeded', { id: 'txn_2' }, 'acct_3'))).toBe(2);
  const queued = await deliveriesOf('evt_6');
  expect(queued.map((d) => d.endpoint_id)).toEqual(
    Array.from({ length: FAN_OUT_IDS + 2 }, (_, i) => `we_c${String(i + 1).padStart(2, '0')}`),
  );
  expect(new Set(queued.map((d) => d.id)).size).toBe(FAN_OUT_IDS + 2);
  expect(woken).toEqual({ deliveries: 1, recorded: 1 });
});
