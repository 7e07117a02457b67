// Pipelined transactions on real PostgreSQL (db/tx.ts, DatabaseOptions.pipeline): BEGIN leaves
// in the same socket write as the transaction's first statement and COMMIT in the same write as
// its last (the outbox rows and the writes queued for the commit), so a transaction of n
// statements costs n writes instead of n + 2; and nothing of atomicity is traded for it: a
// statement that fails, first, in the middle or with the COMMIT, leaves nothing committed and
// the connection usable. Writes are counted on the connection's socket (one per flush of its
// corked buffer); the same transactions on a non-pipelined Database are the baseline.

import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { Client, Pool } from 'pg';
import { Database, platformTablesMigration } from '@paygrid/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const schema = `pipelined_${randomBytes(4).toString('hex')}`;
const Things = class implements MigrationInterface {
  name = 'Things1700000000996';
  async up(runner: QueryRunner) {
    await runner.query(`create table ${schema}.things (id int primary key, name text not null)`);
  }
  async down() {}
};

let admin: Client;
const databases: Database[] = [];
/** Socket writes of each Database's connections, by what they carried (PostgreSQL messages). */
const writes = new Map<Database, string[]>();

/**
 * A Database on a pool of one connection whose socket writes are recorded, each as the
 * statements it carried ('begin+insert': two in one write).
 */
function database(pipeline: boolean): Database {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 1, pipeline });
  const db = new Database(pool, schema, {
    url: process.env.DATABASE_URL as string,
    migrations: [],
    preparedStatements: true,
    pipeline,
  });
  databases.push(db);
  const seen: string[] = [];
  writes.set(db, seen);
  // The statement of a PostgreSQL message: a simple Query's or a Parse's text, by its first word.
  const describe = (buffer: Buffer) => {
    const sql = /[QP][\s\S]{4}(?:[^\0]*\0)?(begin|commit|rollback|insert|select|savepoint|with|update)/i.exec(
      buffer.toString('latin1'),
    );
    return sql ? sql[1].toLowerCase() : `(${buffer.toString('latin1', 0, 1)})`;
  };
  pool.on('connect', (client) => {
    const stream = (client as unknown as { connection: { stream: Duplex } }).connection.stream as Duplex & {
      _write(chunk: Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void): void;
      _writev(chunks: { chunk: Buffer }[], done: (error?: Error | null) => void): void;
    };
    const write = stream._write.bind(stream);
    const writev = stream._writev.bind(stream);
    stream._write = (chunk, encoding, done) => {
      seen.push(describe(chunk));
      write(chunk, encoding, done);
    };
    stream._writev = (chunks, done) => {
      // A Bind, Describe, Execute or Sync carries no text: only the statements are named.
      seen.push(
        chunks
          .map(({ chunk }) => describe(chunk))
          .filter((name) => !name.startsWith('('))
          .join('+'),
      );
      writev(chunks, done);
    };
  });
  return db;
}

beforeAll(async () => {
  admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const migrating = await Database.connect({
    url: process.env.DATABASE_URL as string,
    schema,
    migrations: [platformTablesMigration(schema), Things],
    poolSize: 1,
  });
  await migrating.migrate();
  await migrating.close();
});

afterAll(async () => {
  await Promise.all(databases.map((db) => db.close()));
  await admin?.query(`drop schema if exists ${schema} cascade`);
  await admin?.end();
});

const count = async (where = 'true') =>
  Number((await admin.query(`select count(*) as n from ${schema}.things where ${where}`)).rows[0].n);
const outboxed = async (id: string) =>
  Number(
    (await admin.query(`select count(*) as n from ${schema}.outbox where message_id = $1`, [id])).rows[0].n,
  );

/** Two statements and an event: what a use case's transaction looks like. */
const useCase = (id: number) => (db: Database) =>
  db.transaction(async (tx) => {
    await tx.query(`insert into ${schema}.things (id, name) values ($1, $2)`, [id, `thing ${id}`]);
    await tx.query(`update ${schema}.things set name = name || '!' where id = $1`, [id]);
    await tx.publish({ topic: 'things', key: 'k', id: `msg_${id}`, payload: { id } });
  });

it('sends BEGIN with the first statement and COMMIT with the outbox row: 3 writes, not 5', async () => {
  const plain = database(false);
  const pipelined = database(true);
  await useCase(1)(plain);
  await useCase(2)(pipelined);
  expect(writes.get(plain)).toEqual(['begin', 'insert', 'update', 'insert', 'commit']);
  expect(writes.get(pipelined)).toEqual(['begin+insert', 'update', 'insert+commit']);
  expect(await count("id in (1, 2) and name like '%!'")).toBe(2);
  expect(await outboxed('msg_1')).toBe(1);
  expect(await outboxed('msg_2')).toBe(1);
});

it('sends nothing for a transaction that sent no statement and wrote nothing', async () => {
  const db = database(true);
  await expect(db.transaction(async () => 'nothing')).resolves.toBe('nothing');
  expect(writes.get(db)).toEqual([]);
});

it('opens the transaction at the level asked for, with the first statement', async () => {
  const db = database(true);
  const level = await db.transaction(
    async (tx) =>
      (await tx.query<{ l: string }>(`select current_setting('transaction_isolation') as l`))[0].l,
    { isolation: 'SERIALIZABLE' },
  );
  expect(level).toBe('serializable');
  expect(writes.get(db)?.[0]).toBe('begin+select');
});

it('opens the transaction with a savepoint as its first statement', async () => {
  const db = database(true);
  await db.transaction(async (tx) => {
    const step = await tx.savepoint(
      'first',
      `insert into ${schema}.things (id, name) values (10, 'ten') returning id`,
    );
    expect(step.rows).toEqual([{ id: 10 }]);
    await step.rollback();
    await tx.query(`insert into ${schema}.things (id, name) values (11, 'eleven')`);
  });
  expect(await count('id in (10, 11)')).toBe(1);
  expect(await count('id = 11')).toBe(1);
});

it('commits nothing when the first statement fails, and the connection goes on', async () => {
  const db = database(true);
  await admin.query(`insert into ${schema}.things (id, name) values (20, 'taken')`);
  await expect(
    db.transaction(async (tx) => {
      await tx.query(`insert into ${schema}.things (id, name) values (20, 'again')`);
    }),
  ).rejects.toMatchObject({ code: '23505' });
  await useCase(21)(db);
  expect(await count('id = 21')).toBe(1);
});

it('commits nothing when a statement in the middle fails', async () => {
  const db = database(true);
  await admin.query(`insert into ${schema}.things (id, name) values (30, 'taken')`);
  await expect(
    db.transaction(async (tx) => {
      await tx.query(`insert into ${schema}.things (id, name) values (31, 'first')`);
      await tx.query(`insert into ${schema}.things (id, name) values (30, 'clash')`);
      await tx.publish({ topic: 'things', key: 'k', id: 'msg_31', payload: {} });
    }),
  ).rejects.toMatchObject({ code: '23505' });
  expect(await count('id = 31')).toBe(0);
  expect(await outboxed('msg_31')).toBe(0);
  await useCase(32)(db);
  expect(await count('id = 32')).toBe(1);
});

it("commits nothing when the statement sent with the COMMIT fails: its error is thrown, not the COMMIT's ROLLBACK", async () => {
  const db = database(true);
  await admin.query(`insert into ${schema}.things (id, name) values (40, 'taken')`);
  await expect(
    db.transaction(async (tx) => {
      await tx.query(`insert into ${schema}.things (id, name) values (41, 'first')`);
      // Queued for the commit: it fails only there, in the write that carries the COMMIT.
      tx.writeAtCommit(`insert into ${schema}.things (id, name) values ($1, 'clash')`, [40]);
      await tx.publish({ topic: 'things', key: 'k', id: 'msg_41', payload: {} });
    }),
  ).rejects.toMatchObject({ code: '23505' });
  // The failing write (the queued insert and the outbox row, one statement) and the COMMIT went
  // out together; the rollback after them is the last write.
  expect(writes.get(db)?.slice(-2)).toEqual(['with+commit', 'rollback']);
  expect(await count('id = 41')).toBe(0);
  expect(await outboxed('msg_41')).toBe(0);
  await useCase(42)(db);
  expect(await count('id = 42')).toBe(1);
});

// Tx.queryAfter and Tx.queryCommitting: a lock and the statement behind it, and with the
// COMMIT too, in one write (the checkout's tx1: IntentClaim.lock, writeCardIntent `last`).
it('sends a lock, the statement behind it and the COMMIT in one write with BEGIN (queryCommitting)', async () => {
  const db = database(true);
  const rows = await db.transaction((tx) =>
    tx.queryCommitting<{ id: number }>(
      { sql: `select pg_advisory_xact_lock($1)`, params: [80] },
      `insert into ${schema}.things (id, name) values ($1, 'eighty') returning id`,
      [80],
    ),
  );
  expect(rows).toEqual([{ id: 80 }]);
  expect(writes.get(db)).toEqual(['begin+select+insert+commit']);
  expect(await count('id = 80')).toBe(1);
  // Without the pipeline: the same transaction, each statement its own write.
  const plain = database(false);
  await plain.transaction((tx) =>
    tx.queryCommitting(
      { sql: `select pg_advisory_xact_lock($1)`, params: [81] },
      `insert into ${schema}.things (id, name) values (81, 'x')`,
    ),
  );
  expect(writes.get(plain)).toEqual(['begin', 'select', 'insert', 'commit']);
  expect(await count('id = 81')).toBe(1);
});

it('the statement behind a lock starts once the lock is granted: it sees what the holder committed', async () => {
  const db = database(true);
  const holder = new Client({ connectionString: process.env.DATABASE_URL });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock(90)');
    const read = db.transaction((tx) =>
      tx.queryAfter<{ n: string }>(
        { sql: 'select pg_advisory_xact_lock($1)', params: [90] },
        `select count(*) as n from ${schema}.things where id = 90`,
      ),
    );
    // The holder writes and commits while the statement waits behind the lock.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await holder.query(`insert into ${schema}.things (id, name) values (90, 'sixty')`);
    await holder.query('commit');
    expect(await read).toEqual([{ n: '1' }]);
  } finally {
    await holder.end();
  }
});

it('commits nothing when the statement sent with queryCommitting fails, and refuses a statement after it', async () => {
  const db = database(true);
  await admin.query(`insert into ${schema}.things (id, name) values (100, 'taken')`);
  await expect(
    db.transaction((tx) =>
      tx.queryCommitting(
        undefined,
        `insert into ${schema}.things (id, name) values (101, 'a'), (100, 'clash')`,
      ),
    ),
  ).rejects.toMatchObject({ code: '23505' });
  expect(await count('id = 101')).toBe(0);
  await expect(
    db.transaction(async (tx) => {
      await tx.queryCommitting(undefined, `insert into ${schema}.things (id, name) values (102, 'b')`);
      await tx.query(`insert into ${schema}.things (id, name) values (103, 'outside')`);
    }),
  ).rejects.toThrow('this transaction has committed');
  // The statement before the COMMIT committed; the one after it was never sent.
  expect(await count('id = 102')).toBe(1);
  expect(await count('id = 103')).toBe(0);
  await useCase(104)(db);
  expect(await count('id = 104')).toBe(1);
});

it('retries a serialization failure as before', async () => {
  const db = database(true);
  await admin.query(`insert into ${schema}.things (id, name) values (50, 'counter')`);
  let attempts = 0;
  await db.transaction(
    async (tx) => {
      attempts++;
      await tx.query(`select name from ${schema}.things where id = 50`);
      if (attempts === 1) await admin.query(`update ${schema}.things set name = 'moved' where id = 50`);
      await tx.query(`update ${schema}.things set name = name || '+' where id = 50`);
    },
    { isolation: 'REPEATABLE READ' },
  );
  expect(attempts).toBe(2);
  expect((await admin.query(`select name from ${schema}.things where id = 50`)).rows[0].name).toBe('moved+');
});
