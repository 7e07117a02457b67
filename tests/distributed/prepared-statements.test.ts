// Named prepared statements on real PostgreSQL (db/statements.ts): a repeated statement is
// prepared once on its connection and reused, and a statement prepared before a migration
// widened its table (a rolling deploy) does not fail the request: its connection is dropped
// and the statement or transaction runs again on a fresh one. A statement asked to be planned
// each time (a queue's claim) is never prepared.

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Database, platformTablesMigration } from '@paygrid/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const schema = `prepared_${randomBytes(4).toString('hex')}`;
let db: Database;
let admin: Client;

beforeAll(async () => {
  const Things = class implements MigrationInterface {
    name = 'Things1700000000997';
    async up(runner: QueryRunner) {
      await runner.query(`create table ${schema}.things (id int primary key, name text not null)`);
      await runner.query(`insert into ${schema}.things values (1, 'one'), (2, 'two')`);
    }
    async down() {}
  };
  // One connection: every statement below runs on the session whose statements it inspects.
  db = await Database.connect({
    url: process.env.DATABASE_URL as string,
    schema,
    migrations: [platformTablesMigration(schema), Things],
    poolSize: 1,
    preparedStatements: true,
  });
  await db.migrate();
  admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
});

afterAll(async () => {
  await db?.close();
  await admin?.query(`drop schema if exists ${schema} cascade`);
  await admin?.end();
});

/** The statements prepared on the pool's (single) connection, by their text. */
async function prepared(): Promise<string[]> {
  const rows = await db.query<{ statement: string }>(`select statement from pg_prepared_statements`);
  return rows.map((r) => r.statement);
}

it('prepares a repeated statement once on its connection, in and out of transactions', async () => {
  const byId = `select name from ${schema}.things where id = $1`;
  expect(await db.query(byId, [1])).toEqual([{ name: 'one' }]);
  expect(await prepared()).not.toContain(byId);
  expect(await db.query(byId, [2])).toEqual([{ name: 'two' }]);
  expect(await prepared()).toContain(byId);
  // The same text in a transaction reuses the connection's statement.
  const names = await db.transaction(async (tx) => [
    ...(await tx.query<{ name: string }>(byId, [1])),
    ...(await tx.query<{ name: string }>(byId, [2])),
  ]);
  expect(names).toEqual([{ name: 'one' }, { name: 'two' }]);
  expect((await prepared()).filter((s) => s === byId)).toHaveLength(1);
});

it('never prepares a statement asked to be planned each time, however often it runs', async () => {
  const queue = `select id from ${schema}.things where id >= $1 order by id`;
  for (let i = 0; i < 5; i++) {
    expect(await db.query(queue, [1], { planEachTime: true })).toEqual([{ id: 1 }, { id: 2 }]);
  }
  // In a transaction too.
  await db.transaction(async (tx) => {
    for (let i = 0; i < 3; i++) await tx.query(queue, [2], { planEachTime: true });
  });
  expect(await prepared()).not.toContain(queue);
  // The same text without the option is prepared as any other.
  await db.query(queue, [1]);
  await db.query(queue, [1]);
  expect(await prepared()).toContain(queue);
});

it('runs a statement prepared before a migration widened its table again on a fresh connection', async () => {
  const all = `select * from ${schema}.things where id = $1`;
  await db.query(all, [1]);
  await db.query(all, [1]);
  expect(await prepared()).toContain(all);
  const [before] = await db.query<{ pid: number }>('select pg_backend_pid() as pid');
  await admin.query(`alter table ${schema}.things add column colour text`);
  expect(await db.query(all, [1])).toEqual([{ id: 1, name: 'one', colour: null }]);
  // The connection that held the stale statement is gone; the new one prepared it afresh.
  const [after] = await db.query<{ pid: number }>('select pg_backend_pid() as pid');
  expect(after.pid).not.toBe(before.pid);
  expect(await prepared()).toContain(all);
});

it('retries a transaction that met a stale prepared statement, from its start', async () => {
  const all = `select * from ${schema}.things where id = $1`;
  await db.query(all, [2]);
  await db.query(all, [2]);
  await admin.query(`alter table ${schema}.things add column size int`);
  let attempts = 0;
  const rows = await db.transaction(async (tx) => {
    attempts++;
    await tx.query(`update ${schema}.things set name = name || '!' where id = $1`, [2]);
    return tx.query(all, [2]);
  });
  expect(attempts).toBe(2);
  // The first attempt's update was rolled back with its connection: one '!', not two.
  expect(rows).toEqual([{ id: 2, name: 'two!', colour: null, size: null }]);
});
