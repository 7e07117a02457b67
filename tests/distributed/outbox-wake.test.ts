// When the outbox relay polls, on real PostgreSQL: a commit of the relay's own instance wakes
// it once (its commit hook), not twice (the hook and its own NOTIFY, whose second poll found
// an emptied outbox: bench/README.md finding 33), and sends no NOTIFY at all (nobody else needs
// waking: finding 52), while a commit of another instance still wakes it at once through NOTIFY
// (its fallback poll is a minute away here). The bus is a recorder: what is tested is the
// relay's polling, not Kafka.

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import {
  createLogger,
  Database,
  OutboxRelay,
  outboxChannel,
  outboxTraceContextMigration,
  platformTablesMigration,
  type BusMessage,
  type EventBus,
} from '@paygrid/platform';
import { eventually } from '../support/platform';

const schema = `outbox_wake_${randomBytes(4).toString('hex')}`;
const published: string[] = [];
const bus: EventBus = {
  transport: 'none',
  connect: async () => {},
  publish: async (_topic: string, messages: BusMessage[]) => {
    published.push(...messages.map((m) => m.key));
  },
  subscribe: async () => {},
  ping: async () => {},
  close: async () => {},
};

/** One service instance's Database on the shared schema, NOTIFYing as distributed mode does. */
async function instance(migrate: boolean): Promise<Database> {
  const db = await Database.connect({
    url: process.env.DATABASE_URL as string,
    schema,
    migrations: [platformTablesMigration(schema), outboxTraceContextMigration(schema, 1700000000350)],
    poolSize: 2,
  });
  if (migrate) await db.migrate();
  db.notifyChannel = outboxChannel(schema);
  return db;
}

let leader: Database;
let other: Database;
let relay: OutboxRelay;

beforeAll(async () => {
  leader = await instance(true);
  other = await instance(false);
  relay = new OutboxRelay(leader, bus, createLogger('test', 'silent'), { pollMs: 60_000 });
  relay.start();
  // Leader once its first (empty) poll is done.
  await eventually(
    async () => ((relay as unknown as { lockClient?: unknown }).lockClient ? true : undefined),
    10_000,
  );
});

afterAll(async () => {
  await relay?.stop();
  await leader?.close();
  await other?.close();
  const admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
});

const write = (db: Database, key: string) =>
  db.transaction((tx) => tx.publish({ topic: 'wake.test', key, id: `msg_${key}`, payload: { key } }));

it("polls once per commit of its own instance, woken by the commit, not again by the commit's NOTIFY", async () => {
  const polls = jest.spyOn(relay, 'publishBatch');
  for (let i = 0; i < 5; i++) {
    await write(leader, `own-${i}`);
    await eventually(async () => (published.includes(`own-${i}`) ? true : undefined), 5_000);
    // Time for the NOTIFY of that commit to arrive (it is delivered at commit).
    await new Promise((r) => setTimeout(r, 150));
  }
  expect(polls).toHaveBeenCalledTimes(5);
  polls.mockRestore();
});

it("sends no NOTIFY for the leader's own commits, and one for each of another instance's", async () => {
  const listener = new Client({ connectionString: process.env.DATABASE_URL });
  await listener.connect();
  const heard: string[] = [];
  listener.on('notification', (message) => heard.push(message.payload ?? ''));
  await listener.query(`listen ${outboxChannel(schema)}`);
  try {
    for (let i = 0; i < 3; i++) await write(leader, `quiet-${i}`);
    await write(other, 'loud-0');
    await eventually(async () => (heard.length ? true : undefined), 5_000);
    // Time for any notification of the leader's commits to arrive (they are sent at commit).
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toEqual([other.notifyToken]);
    expect(leader.relayLeadsHere).toBe(true);
    expect(other.relayLeadsHere).toBe(false);
  } finally {
    await listener.end();
  }
});

it("publishes another instance's commit at once: its NOTIFY wakes the relay", async () => {
  await write(other, 'other-0');
  // Well before the relay's next poll (a minute away).
  expect(await eventually(async () => (published.includes('other-0') ? true : undefined), 5_000)).toBe(true);
});
