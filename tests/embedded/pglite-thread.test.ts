// The embedded database on its own thread (libs/platform/src/db/pglite-thread.ts), as the
// built product runs it: the compiled thread module is named here because this suite runs from
// the TypeScript sources, where startEmbeddedDatabase would otherwise stay on the caller's
// thread. pglite-server.test.ts checks the protocol server under concurrent load; this file
// checks what the thread changes: the caller's event loop keeps running while PostgreSQL works,
// and starting, stopping, images, data directories and failures behave as on the caller's thread.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  startEmbeddedDatabase,
  type EmbeddedDatabase,
  type EmbeddedDatabaseOptions,
} from '../../libs/platform/src/db/pglite-server';

const THREAD = join(__dirname, '../../libs/platform/dist/db/pglite-thread.js');

jest.setTimeout(60_000);

async function withDatabase<T>(
  dataDir: string,
  options: EmbeddedDatabaseOptions,
  use: (client: pg.Client, db: EmbeddedDatabase) => Promise<T>,
): Promise<T> {
  const db = await startEmbeddedDatabase(dataDir, 0, options);
  const client = new pg.Client({ connectionString: db.url });
  try {
    await client.connect();
    return await use(client, db);
  } finally {
    await client.end().catch(() => undefined);
    await db.close();
  }
}

/** Ticks of a 10 ms interval on this thread while the database sleeps for one second. */
async function ticksDuringSleep(client: pg.Client): Promise<number> {
  let ticks = 0;
  const interval = setInterval(() => ticks++, 10);
  try {
    await client.query('select pg_sleep(1)');
  } finally {
    clearInterval(interval);
  }
  return ticks;
}

describe('the embedded database thread', () => {
  it("runs PostgreSQL off the caller's event loop (on the caller's thread, a sleep blocks it)", async () => {
    // About 100 ticks when the loop is free; a loaded CI machine still gives far more than 20.
    const onThread = await withDatabase('memory://', { thread: THREAD }, ticksDuringSleep);
    expect(onThread).toBeGreaterThanOrEqual(20);
    const onCaller = await withDatabase('memory://', { thread: false }, ticksDuringSleep);
    expect(onCaller).toBeLessThanOrEqual(3);
  });

  it('PAYGRID_DB_THREAD=0 keeps the database on the caller thread', async () => {
    process.env.PAYGRID_DB_THREAD = '0';
    try {
      expect(await withDatabase('memory://', { thread: THREAD }, ticksDuringSleep)).toBeLessThanOrEqual(3);
    } finally {
      delete process.env.PAYGRID_DB_THREAD;
    }
  });

  it('hands back the data directory as an image, and starts again from it', async () => {
    const db = await startEmbeddedDatabase('memory://', 0, { thread: THREAD });
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('create table kept (amount bigint not null)');
    await client.query('insert into kept values (9007199254740993)');
    await client.end();
    const image = await db.closeToImage();
    expect(image.size).toBeGreaterThan(1_000_000);
    const rows = await withDatabase('memory://', { thread: THREAD, image }, async (c) => {
      return (await c.query<{ amount: string }>('select amount::text from kept')).rows;
    });
    expect(rows).toEqual([{ amount: '9007199254740993' }]);
    // The image is a copy: it starts a second database too.
    const again = await withDatabase('memory://', { thread: THREAD, image }, async (c) => {
      return (await c.query<{ n: number }>('select count(*)::int as n from kept')).rows[0].n;
    });
    expect(again).toBe(1);
  });

  it('keeps what was committed in a data directory across a restart, and loses what was not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paygrid-pglite-thread-'));
    try {
      await withDatabase(join(dir, 'pg'), { thread: THREAD }, async (c) => {
        await c.query('create table ledger (id int primary key, amount bigint not null)');
        await c.query('insert into ledger values (1, 500)');
        await c.query('begin');
        await c.query('insert into ledger values (2, 700)');
        // Closed with the transaction open: it must not survive.
      });
      const rows = await withDatabase(join(dir, 'pg'), { thread: THREAD }, async (c) => {
        return (await c.query('select id, amount::int from ledger order by id')).rows;
      });
      expect(rows).toEqual([{ id: 1, amount: 500 }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("fails the start with the thread's error", async () => {
    await expect(startEmbeddedDatabase('/dev/null/pg', 0, { thread: THREAD })).rejects.toThrow(/ENOTDIR/);
  });

  it('serves concurrent transactions from several connections, each atomic', async () => {
    await withDatabase('memory://', { thread: THREAD }, async (setup, db) => {
      await setup.query('create table account (id int primary key, balance bigint not null)');
      await setup.query('insert into account values (1, 10000), (2, 10000)');
      const pool = new pg.Pool({ connectionString: db.url, max: 8 });
      try {
        // 200 transfers of 1 from the first row to the second, one in five rolled back.
        const transfers = Array.from({ length: 200 }, async (_, i) => {
          const client = await pool.connect();
          try {
            await client.query('begin');
            await client.query('update account set balance = balance - 1 where id = 1');
            await client.query('update account set balance = balance + 1 where id = 2');
            await client.query(i % 5 === 0 ? 'rollback' : 'commit');
          } finally {
            client.release();
          }
        });
        await Promise.all(transfers);
      } finally {
        await pool.end();
      }
      const { rows } = await setup.query('select id, balance::int from account order by id');
      // Exactly the 160 committed transfers, no update lost or doubled.
      expect(rows).toEqual([
        { id: 1, balance: 9840 },
        { id: 2, balance: 10160 },
      ]);
    });
  });
});
