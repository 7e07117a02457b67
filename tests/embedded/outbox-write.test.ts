// The outbox rows a transaction publishes (libs/platform/src/db/database.ts Tx.publish) are
// written in one statement just before its COMMIT: in the order they were published, none
// when it rolls back, in statements of at most 1,000 rows when there are more.

import { Client } from 'pg';
import { Database } from '../../libs/platform/src/db/database';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../libs/platform/src/db/pglite-server';

let server: EmbeddedDatabase;
let db: Database;

beforeAll(async () => {
  server = await startEmbeddedDatabase('memory://');
  db = await Database.connect({ url: server.url, schema: 'lab', migrations: [] });
  await db.query('create schema lab');
  await db.query(`create table lab.outbox (
    id bigserial primary key, topic text not null, key text not null, message_id text not null,
    payload jsonb not null, trace_context text, created_at timestamptz not null default now(),
    published_at timestamptz)`);
  await db.query('create table lab.items (id int primary key)');
}, 60_000);

afterAll(async () => {
  await db?.close();
  await server?.close();
});

beforeEach(() => db.query('truncate lab.outbox'));

const message = (id: string) => ({ topic: 't.events.v1', key: 'acct_1', id, payload: { id } });

/** The outbox's message ids in id order. */
const written = async () =>
  (await db.query<{ message_id: string }>('select message_id from lab.outbox order by id')).map(
    (r) => r.message_id,
  );

it('writes every message of a transaction in one statement at its commit, in publish order', async () => {
  const queries = jest.spyOn(Client.prototype, 'query');
  let insideTheTransaction = -1;
  try {
    await db.transaction(async (tx) => {
      await tx.publish(message('evt_1'));
      await tx.query('insert into lab.items (id) values (1)');
      await tx.publish(message('evt_2'), message('evt_3'));
      [{ n: insideTheTransaction }] = await tx.query<{ n: number }>(
        'select count(*)::int as n from lab.outbox',
      );
    });
    const inserts = queries.mock.calls.filter(([sql]) => String(sql).includes('insert into lab.outbox'));
    expect(inserts).toHaveLength(1);
  } finally {
    queries.mockRestore();
  }
  expect(insideTheTransaction).toBe(0);
  expect(await written()).toEqual(['evt_1', 'evt_2', 'evt_3']);
});

it('writes nothing for a transaction that rolls back', async () => {
  await expect(
    db.transaction(async (tx) => {
      await tx.publish(message('evt_lost'));
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  expect(await written()).toEqual([]);
});

it('writes a transaction of 2,500 messages in order, 1,000 rows per statement', async () => {
  const ids = Array.from({ length: 2_500 }, (_, i) => `evt_${String(i).padStart(4, '0')}`);
  const queries = jest.spyOn(Client.prototype, 'query');
  try {
    await db.transaction(async (tx) => {
      for (const id of ids) await tx.publish(message(id));
    });
    const inserts = queries.mock.calls.filter(([sql]) => String(sql).includes('insert into lab.outbox'));
    expect(inserts).toHaveLength(3);
  } finally {
    queries.mockRestore();
  }
  expect(await written()).toEqual(ids);
});
