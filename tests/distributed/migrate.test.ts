// Database.migrate() on real PostgreSQL: a start whose schema already lists every migration
// returns without the migration lock (and without loading TypeORM), while a start with a
// pending migration still waits for the lock and applies it exactly once.

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Database, platformTablesMigration } from '@paygrid/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const schema = `migrate_${randomBytes(4).toString('hex')}`;
const lock = `paygrid:migrate:${schema}`;
let admin: Client;
const opened: Database[] = [];

function migration(name: string, table: string): new () => MigrationInterface {
  return class implements MigrationInterface {
    name = name;
    async up(runner: QueryRunner) {
      await runner.query(`create table ${schema}.${table} (id int primary key)`);
    }
    async down() {}
  };
}
const First = migration('First1700000000991', 'first');
const Second = migration('Second1700000000992', 'second');

async function open(migrations: (new () => MigrationInterface)[]): Promise<Database> {
  const db = await Database.connect({
    url: process.env.DATABASE_URL as string,
    schema,
    migrations,
    poolSize: 2,
  });
  opened.push(db);
  return db;
}

/** 'settled' if the promise settles within `ms`, else 'pending'. */
async function within(promise: Promise<unknown>, ms: number): Promise<'settled' | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise.then(() => 'settled' as const),
      new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

beforeAll(async () => {
  admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
});

afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
  await admin?.query(`drop schema if exists ${schema} cascade`);
  await admin?.end();
});

it('skips the lock when every migration is applied, and waits for it when one is pending', async () => {
  await (await open([platformTablesMigration(schema), First])).migrate();
  expect(
    (await admin.query(`select name from ${schema}.migrations order by id`)).rows.map((r) => r.name),
  ).toEqual([expect.stringMatching(/./), 'First1700000000991']);

  // Another instance holds the migration lock (it is migrating).
  await admin.query('select pg_advisory_lock(hashtext($1))', [lock]);
  try {
    // Current schema: nothing to do, so no wait for the lock.
    expect(await within((await open([platformTablesMigration(schema), First])).migrate(), 5_000)).toBe(
      'settled',
    );

    // A pending migration: waits for the lock holder, then applies it.
    const pending = (await open([platformTablesMigration(schema), First, Second])).migrate();
    expect(await within(pending, 1_000)).toBe('pending');
    await admin.query('select pg_advisory_unlock(hashtext($1))', [lock]);
    await pending;
  } finally {
    await admin.query('select pg_advisory_unlock_all()');
  }
  expect(
    (await admin.query(`select name from ${schema}.migrations order by id`)).rows.map((r) => r.name),
  ).toEqual([expect.stringMatching(/./), 'First1700000000991', 'Second1700000000992']);
  expect(
    (await admin.query(`select to_regclass($1) is not null as present`, [`${schema}.second`])).rows[0]
      .present,
  ).toBe(true);
});
