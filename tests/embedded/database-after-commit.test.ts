// Tx.afterCommit (libs/platform/src/db/database.ts) on the embedded database: a callback runs
// once the transaction has committed, when another connection already sees its writes; never
// for a transaction that rolled back; once for a transaction retried after a deadlock-class
// error, for the attempt that committed.

import { Database } from '../../libs/platform/src/db/database';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../libs/platform/src/db/pglite-server';

let server: EmbeddedDatabase;
let db: Database;

beforeAll(async () => {
  server = await startEmbeddedDatabase('memory://');
  db = await Database.connect({ url: server.url, schema: 'lab', migrations: [] });
  await db.query('create schema lab');
  await db.query('create table lab.items (id int primary key)');
}, 60_000);

afterAll(async () => {
  await db?.close();
  await server?.close();
});

it('calls back after the commit, when another connection sees the write', async () => {
  const seen: number[] = [];
  let calledInside = false;
  await db.transaction(async (tx) => {
    await tx.query('insert into lab.items (id) values (1)');
    tx.afterCommit(() => {
      void db
        .query<{ n: number }>('select count(*)::int as n from lab.items where id = 1')
        .then(([r]) => seen.push(r.n));
    });
    calledInside = seen.length > 0;
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect({ calledInside, seen }).toEqual({ calledInside: false, seen: [1] });
});

it('does not call back for a transaction that rolled back', async () => {
  let called = 0;
  await expect(
    db.transaction(async (tx) => {
      await tx.query('insert into lab.items (id) values (2)');
      tx.afterCommit(() => called++);
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  expect(called).toBe(0);
});

it('calls back once, for the attempt that committed, when the work is retried', async () => {
  let attempts = 0;
  const calls: number[] = [];
  await db.transaction(async (tx) => {
    attempts++;
    const attempt = attempts;
    tx.afterCommit(() => calls.push(attempt));
    // A serialization failure (40001) on the first attempt: retried by the Database.
    if (attempt === 1) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
    await tx.query('insert into lab.items (id) values (3)');
  });
  expect({ attempts, calls }).toEqual({ attempts: 2, calls: [2] });
});

it('keeps the commit when a callback throws', async () => {
  await db.transaction(async (tx) => {
    await tx.query('insert into lab.items (id) values (4)');
    tx.afterCommit(() => {
      throw new Error('callback failed');
    });
  });
  expect(await db.query('select id from lab.items where id = 4')).toEqual([{ id: 4 }]);
});
