// An in-memory embedded database started from an image (what the test harness does to skip
// initdb and the migrations) is a working cluster of its own: what one database started from
// the image writes, another started from the same image does not see; and an image taken at
// close (closeToImage) holds what was committed before it.

import pg from 'pg';
import {
  emptyDatabaseImage,
  startEmbeddedDatabase,
  type EmbeddedDatabase,
} from '../../libs/platform/src/db/pglite-server';

const opened: EmbeddedDatabase[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

async function query(db: EmbeddedDatabase, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

test('databases started from one image are independent working clusters', async () => {
  const image = await emptyDatabaseImage();
  const a = await startEmbeddedDatabase('memory://', 0, { image });
  opened.push(a);
  const b = await startEmbeddedDatabase('memory://', 0, { image });
  opened.push(b);

  await query(a, 'create table only_in_a (id int primary key)');
  await query(a, 'insert into only_in_a values (1), (2)');
  expect((await query(a, 'select count(*)::int as n from only_in_a')).rows).toEqual([{ n: 2 }]);

  const inB = await query(b, "select count(*)::int as n from pg_tables where tablename = 'only_in_a'");
  expect(inB.rows).toEqual([{ n: 0 }]);
  // The image is a complete cluster: the same server version as a fresh initdb, and writable.
  expect((await query(b, 'show server_version')).rows[0].server_version).toMatch(/^\d+/);
  await query(b, 'create table only_in_b (id int)');
  const inA = await query(a, "select count(*)::int as n from pg_tables where tablename = 'only_in_b'");
  expect(inA.rows).toEqual([{ n: 0 }]);
});

test('closeToImage answers the committed data of the database it closes', async () => {
  const source = await startEmbeddedDatabase('memory://', 0, { image: await emptyDatabaseImage() });
  await query(source, 'create table kept (id int primary key, note text)');
  await query(source, "insert into kept values (1, 'one'), (2, 'two')");
  const image = await source.closeToImage();

  const copy = await startEmbeddedDatabase('memory://', 0, { image });
  opened.push(copy);
  expect((await query(copy, 'select id, note from kept order by id')).rows).toEqual([
    { id: 1, note: 'one' },
    { id: 2, note: 'two' },
  ]);
});
