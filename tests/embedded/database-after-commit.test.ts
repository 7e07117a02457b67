// Tx.afterCommit (libs/platform/src/db/database.ts) on the embedded database: a callback runs
// once the transaction has committed, when another connection already sees its writes; never
// for a transaction that rolled back; once for a transaction retried after a deadlock-class
// error, for the attempt that committed. And Tx.savepoint: a step rolled back to its savepoint
// leaves neither its published events nor its callbacks behind; Tx.writeAtCommit: writes sent
// with the outbox rows just before the commit, which fails with them. And Tx.afterRollback: run
// for every attempt that does not commit and for a savepoint rolled back to, never with
// afterCommit.

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
  // The callback's own read is awaited (not a fixed sleep: a loaded CI machine answered it
  // after the 100 ms the test used to wait, and the test failed with nothing wrong).
  let seen: Promise<number> | undefined;
  let calledInside = false;
  await db.transaction(async (tx) => {
    await tx.query('insert into lab.items (id) values (1)');
    tx.afterCommit(() => {
      seen = db
        .query<{ n: number }>('select count(*)::int as n from lab.items where id = 1')
        .then(([r]) => r.n);
    });
    calledInside = seen !== undefined;
  });
  const calledByTheCommit = seen !== undefined;
  expect({ calledInside, calledByTheCommit, seen: await seen }).toEqual({
    calledInside: false,
    calledByTheCommit: true,
    seen: 1,
  });
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

it('forgets what a step rolled back to its savepoint published and asked to run after the commit', async () => {
  await db.query(
    'create table if not exists lab.outbox (id bigserial primary key, topic text not null, key text not null, message_id text not null, payload jsonb not null)',
  );
  const called: string[] = [];
  const event = (id: string) => ({ topic: 'lab.events', key: 'k', id, payload: { id } });
  await db.transaction(async (tx) => {
    await tx.publish(event('evt_kept'));
    tx.afterCommit(() => called.push('kept'));
    const step = await tx.savepoint('lab_step');
    await tx.query('insert into lab.items (id) values (10)');
    await tx.publish(event('evt_undone'));
    tx.afterCommit(() => called.push('undone'));
    await step.rollback();
    const released = await tx.savepoint('lab_step_2');
    await tx.query('insert into lab.items (id) values (11)');
    await tx.publish(event('evt_released'));
    await released.release();
  });
  const items = await db.query<{ id: number }>('select id from lab.items where id in (10, 11) order by id');
  const outbox = await db.query<{ message_id: string }>('select message_id from lab.outbox order by id');
  expect({ items: items.map((r) => r.id), outbox: outbox.map((r) => r.message_id), called }).toEqual({
    items: [11],
    outbox: ['evt_kept', 'evt_released'],
    called: ['kept'],
  });
});

it('sends the writes asked for at the commit with the outbox rows, and forgets those of a step rolled back', async () => {
  await db.query('create table if not exists lab.legs (id int primary key, note text not null)');
  await db.transaction(async (tx) => {
    tx.writeAtCommit('insert into lab.legs (id, note) values ($1, $2)', [20, 'first']);
    tx.writeAtCommit('insert into lab.legs (id, note) values ($1, $2), ($3, $4)', [
      21,
      'second',
      22,
      'third',
    ]);
    await tx.publish({ topic: 'lab.events', key: 'k', id: 'evt_with_legs', payload: {} });
    const step = await tx.savepoint('lab_legs');
    tx.writeAtCommit('insert into lab.legs (id, note) values ($1, $2)', [23, 'undone']);
    await step.rollback();
    // Not written yet: nothing in the transaction may count on reading them.
    const [{ n }] = await tx.query<{ n: number }>('select count(*)::int as n from lab.legs');
    expect(n).toBe(0);
  });
  const legs = await db.query<{ id: number; note: string }>('select id, note from lab.legs order by id');
  expect(legs).toEqual([
    { id: 20, note: 'first' },
    { id: 21, note: 'second' },
    { id: 22, note: 'third' },
  ]);
  const [outbox] = await db.query<{ n: number }>(
    "select count(*)::int as n from lab.outbox where message_id = 'evt_with_legs'",
  );
  expect(outbox.n).toBe(1);
});

it('fails the commit, and writes nothing, when a write asked for at the commit fails', async () => {
  await expect(
    db.transaction(async (tx) => {
      await tx.query('insert into lab.items (id) values (30)');
      tx.writeAtCommit('insert into lab.legs (id, note) values ($1, $2)', [31, 'fine']);
      tx.writeAtCommit('insert into lab.legs (id, note) values ($1, $2)', [
        20,
        'a duplicate of an earlier row',
      ]);
    }),
  ).rejects.toThrow(/duplicate key/);
  const items = await db.query('select id from lab.items where id = 30');
  const legs = await db.query('select id from lab.legs where id = 31');
  expect({ items, legs }).toEqual({ items: [], legs: [] });
});

describe('Tx.afterRollback', () => {
  it('runs for an attempt that does not commit, never with the afterCommit callbacks', async () => {
    const ran: string[] = [];
    await expect(
      db.transaction(async (tx) => {
        tx.afterRollback(() => ran.push('rolled back'));
        tx.afterCommit(() => ran.push('committed'));
        await tx.query('insert into lab.items (id) values (40)');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await db.transaction(async (tx) => {
      tx.afterRollback(() => ran.push('not rolled back'));
      tx.afterCommit(() => ran.push('committed'));
      await tx.query('insert into lab.items (id) values (41)');
    });
    expect(ran).toEqual(['rolled back', 'committed']);
  });

  it('runs once for each attempt that was retried', async () => {
    const ran: string[] = [];
    let attempts = 0;
    await db.transaction(async (tx) => {
      const attempt = ++attempts;
      tx.afterRollback(() => ran.push(`undo ${attempt}`));
      tx.afterCommit(() => ran.push(`commit ${attempt}`));
      if (attempt < 3) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    });
    expect(ran).toEqual(['undo 1', 'undo 2', 'commit 3']);
  });

  it('runs when the commit itself fails', async () => {
    const ran: string[] = [];
    await expect(
      db.transaction(async (tx) => {
        tx.afterRollback(() => ran.push('undo'));
        tx.writeAtCommit('insert into lab.items (id) values ($1)', [41]);
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(ran).toEqual(['undo']);
  });

  it('runs those asked for after a savepoint rolled back to, and only those', async () => {
    const ran: string[] = [];
    await db.transaction(async (tx) => {
      tx.afterRollback(() => ran.push('before the step'));
      const step = await tx.savepoint('lab_undo');
      tx.afterRollback(() => ran.push('in the step'));
      tx.afterCommit(() => ran.push('committed in the step'));
      await step.rollback();
      tx.afterCommit(() => ran.push('committed'));
    });
    expect(ran).toEqual(['in the step', 'committed']);
  });
});
