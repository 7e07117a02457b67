// The embedded database server (libs/platform/src/db/pglite-server.ts) under concurrent load
// from several pg pools: every statement must see its own parameters (PGlite is one session,
// so an interleaved Parse from another connection would replace the unnamed statement), and
// transactions must stay isolated and atomic.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../libs/platform/src/db/pglite-server';

const POOLS = 4;
const CONNECTIONS_PER_POOL = 4;
const OPERATIONS = 1500;
// Explicit: the project-level testTimeout of jest.config.js is not applied by Jest here.
const TIMEOUT = 60_000;

let db: EmbeddedDatabase;
let pools: pg.Pool[] = [];
const poolErrors: Error[] = [];

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves to 'pending' if the promise has not settled after `ms`. */
async function stateAfter(promise: Promise<unknown>, ms: number): Promise<'pending' | 'settled'> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await sleep(ms);
  return settled ? 'settled' : 'pending';
}

beforeAll(async () => {
  db = await startEmbeddedDatabase('memory://');
  expect(db.url).toMatch(/^postgres:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres$/);
  pools = Array.from({ length: POOLS }, () => {
    const pool = new pg.Pool({ connectionString: db.url, max: CONNECTIONS_PER_POOL });
    pool.on('error', (error) => poolErrors.push(error));
    return pool;
  });
  await pools[0].query(`
    create table counter (id int primary key, n int not null);
    create table items (id serial primary key, op int not null unique, tag text not null);
    insert into counter (id, n) values (1, 0), (2, 0), (3, 0);
  `);
}, TIMEOUT);

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  if (db) await withTimeout(db.close(), 10_000, 'db.close()');
}, TIMEOUT);

describe('embedded database server', () => {
  it(
    `serves ${OPERATIONS} concurrent operations from ${POOLS} pools x ${CONNECTIONS_PER_POOL} connections correctly`,
    async () => {
      let committed = 0;
      let rolledBack = 0;
      const committedOps = new Set<number>();
      const mismatches: string[] = [];

      const check = (op: number, label: string, actual: unknown, expected: unknown) => {
        const a = JSON.stringify(actual);
        const e = JSON.stringify(expected);
        if (a !== e) mismatches.push(`op ${op} ${label}: got ${a}, expected ${e}`);
      };

      async function select(op: number, pool: pg.Pool): Promise<void> {
        const tag = `t${op}_${randomBytes(6).toString('hex')}`;
        // Different shapes (column count, names and types), so a statement swapped with another
        // connection's would give a visibly different row, or an error.
        switch (op % 4) {
          case 0: {
            const { rows } = await pool.query('select $1::int as op, $2::text as tag', [op, tag]);
            check(op, 'shape0', rows, [{ op, tag }]);
            break;
          }
          case 1: {
            const { rows } = await pool.query(
              'select $1::text as tag, $2::int * 2 as doubled, $3::bool as flag',
              [tag, op, op % 8 === 1],
            );
            check(op, 'shape1', rows, [{ tag, doubled: op * 2, flag: op % 8 === 1 }]);
            break;
          }
          case 2: {
            const { rows } = await pool.query(
              'select g::int as g, $1::text as tag from generate_series(1, $2::int) g order by g',
              [tag, (op % 5) + 1],
            );
            check(
              op,
              'shape2',
              rows,
              Array.from({ length: (op % 5) + 1 }, (_, i) => ({ g: i + 1, tag })),
            );
            break;
          }
          default: {
            // simple protocol (no parameters), reading the tables the transactions write
            const { rows } = await pool.query(
              `select '${tag}' as tag, (select count(*) from items) >= 0 as ok`,
            );
            check(op, 'shape3', rows, [{ tag, ok: true }]);
          }
        }
      }

      async function transaction(op: number, pool: pg.Pool, fail: boolean): Promise<void> {
        const client = await pool.connect();
        const tag = `tx${op}_${randomBytes(6).toString('hex')}`;
        try {
          await client.query('begin');
          const locked = await client.query<{ n: number }>(
            'select n from counter where id = $1 for update',
            [1],
          );
          const n = locked.rows[0].n;
          // read-modify-write: a lost update would show as counter < committed at the end
          await client.query('update counter set n = $1 where id = $2', [n + 1, 1]);
          await client.query('insert into items (op, tag) values ($1, $2)', [op, tag]);
          const own = await client.query('select op, tag from items where op = $1', [op]);
          check(op, 'tx-own-row', own.rows, [{ op, tag }]);
          const again = await client.query<{ n: number }>('select n from counter where id = $1', [1]);
          check(op, 'tx-counter', again.rows, [{ n: n + 1 }]);
          if (fail) {
            const error = await client.query('select 1/0').then(
              () => undefined,
              (e: unknown) => e as { code?: string },
            );
            check(op, 'division-error', error?.code, '22012');
            // a failed transaction refuses further statements until rollback
            const aborted = await client.query('select 1').then(
              () => undefined,
              (e: unknown) => e as { code?: string },
            );
            check(op, 'aborted-state', aborted?.code, '25P02');
            await client.query('rollback');
            rolledBack++;
          } else {
            await client.query('commit');
            committed++;
            committedOps.add(op);
          }
        } catch (error) {
          await client.query('rollback').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      }

      const results = await Promise.allSettled(
        Array.from({ length: OPERATIONS }, (_, op) => {
          const pool = pools[op % POOLS];
          if (op % 3 === 0) return transaction(op, pool, op % 7 === 0);
          return select(op, pool);
        }),
      );

      const failures = results
        .map((r, op) =>
          r.status === 'rejected' ? `op ${op}: ${String((r.reason as Error)?.message ?? r.reason)}` : '',
        )
        .filter(Boolean);
      expect(failures.slice(0, 10)).toEqual([]);
      expect(mismatches.slice(0, 10)).toEqual([]);
      expect(poolErrors).toEqual([]);

      const transactions = Math.ceil(OPERATIONS / 3);
      expect(committed + rolledBack).toBe(transactions);
      expect(rolledBack).toBeGreaterThan(50);
      expect(committed).toBeGreaterThan(300);

      const counter = await pools[1].query<{ n: number }>('select n from counter where id = 1');
      const items = await pools[2].query<{ op: number }>('select op from items order by op');
      expect(counter.rows[0].n).toBe(committed);
      expect(items.rows).toHaveLength(committed);
      expect(items.rows.map((r) => r.op)).toEqual([...committedOps].sort((a, b) => a - b));
      // nothing of a rolled-back transaction is left
      expect(items.rows.some((r) => r.op % 7 === 0)).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'rolls back the transaction of a client that disconnects (release(true)) and unblocks the others',
    async () => {
      const before = await pools[1].query<{ n: number }>('select n from counter where id = 2');
      const start = before.rows[0].n;

      const client = await pools[0].connect();
      client.on('error', () => undefined);
      await client.query('begin');
      await client.query('update counter set n = n + 1000 where id = 2');
      await client.query('insert into items (op, tag) values ($1, $2)', [-1, 'never committed']);

      // Another pool's statement waits while the transaction is open ...
      const other = pools[1].query<{ n: number }>('update counter set n = n + 1 where id = 2 returning n');
      expect(await stateAfter(other, 200)).toBe('pending');

      // ... and goes on once the client goes away mid-transaction.
      client.release(true);
      const { rows } = await withTimeout(other, 5_000, 'the update from another pool');
      expect(rows).toEqual([{ n: start + 1 }]);

      const after = await pools[2].query<{ n: number }>('select n from counter where id = 2');
      expect(after.rows).toEqual([{ n: start + 1 }]);
      const ghost = await pools[3].query('select * from items where op = -1');
      expect(ghost.rows).toEqual([]);
      // the (single) session is not left inside the vanished client's transaction
      const xid = await pools[2].query('select txid_current_if_assigned() as xid');
      expect(xid.rows).toEqual([{ xid: null }]);
    },
    TIMEOUT,
  );

  it(
    'rolls back the transaction of a client whose socket dies without a Terminate message',
    async () => {
      const before = await pools[2].query<{ n: number }>('select n from counter where id = 3');
      const start = before.rows[0].n;

      const client = await pools[3].connect();
      client.on('error', () => undefined);
      await client.query('begin');
      await client.query('select n from counter where id = $1 for update', [3]);
      await client.query('update counter set n = n + 1000 where id = 3');

      const other = pools[2].query<{ n: number }>('update counter set n = n + 1 where id = 3 returning n');
      expect(await stateAfter(other, 200)).toBe('pending');

      // a crash: the socket is destroyed, nothing is sent
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      client.release(true);

      const { rows } = await withTimeout(other, 5_000, 'the update from another pool');
      expect(rows).toEqual([{ n: start + 1 }]);

      // every pool still works afterwards
      for (const [i, pool] of pools.entries()) {
        const { rows: echo } = await withTimeout(
          pool.query('select $1::int as i, n from counter where id = 3', [i]),
          5_000,
          `pool ${i}`,
        );
        expect(echo).toEqual([{ i, n: start + 1 }]);
      }
    },
    TIMEOUT,
  );

  it(
    'keeps every pool usable after a failed statement outside a transaction',
    async () => {
      for (const pool of pools) {
        await expect(pool.query('select $1::int / 0', [1])).rejects.toMatchObject({ code: '22012' });
        await expect(pool.query('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
        const { rows } = await pool.query('select $1::text as ok', ['yes']);
        expect(rows).toEqual([{ ok: 'yes' }]);
      }
    },
    TIMEOUT,
  );

  it(
    'close() finishes promptly even while a client is still connected',
    async () => {
      const other = await startEmbeddedDatabase('memory://');
      const client = new pg.Client({ connectionString: other.url });
      client.on('error', () => undefined);
      await client.connect();
      await client.query('select 1');
      const closing = other.close();
      try {
        // A leaked connection must not make shutdown hang.
        expect(await stateAfter(closing, 3_000)).toBe('settled');
        await closing;
      } finally {
        await client.end().catch(() => undefined);
        await withTimeout(closing, 10_000, 'close() after the client ended');
      }
    },
    TIMEOUT,
  );
});

// Named prepared statements (pg's `name`; the services send their repeated statements so:
// db/statements.ts). PGlite is one session, where every connection's names would meet; the
// server makes each connection's its own and closes them when it ends.
describe('named prepared statements on the embedded database', () => {
  const connect = async () => {
    const client = new pg.Client({ connectionString: db.url });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  /** The statements the one session holds whose name (as the client sent it) is `name`. */
  const held = async (client: pg.Client, name: string) =>
    (
      await client.query<{ name: string; statement: string }>(
        `select name, statement from pg_prepared_statements where name like $1`,
        [`${name}@%`],
      )
    ).rows;

  it(
    'are each connection’s own: the same name prepares a different statement on each',
    async () => {
      const a = await connect();
      const b = await connect();
      try {
        const name = `same_${randomBytes(4).toString('hex')}`;
        for (let i = 0; i < 20; i++) {
          // Interleaved: a name shared between the connections would be "already exists" on
          // the second Parse, or run the other connection's text after it.
          const [fromA, fromB] = await Promise.all([
            a.query({ name, text: 'select $1::int + 1 as v', values: [i] }),
            b.query({ name, text: "select $1::text || '!' as v", values: [`b${i}`] }),
          ]);
          expect(fromA.rows).toEqual([{ v: i + 1 }]);
          expect(fromB.rows).toEqual([{ v: `b${i}!` }]);
        }
        expect((await held(a, name)).map((s) => s.statement).sort()).toEqual(
          ["select $1::text || '!' as v", 'select $1::int + 1 as v'].sort(),
        );
      } finally {
        await Promise.all([a.end(), b.end()]);
      }
    },
    TIMEOUT,
  );

  it(
    'are closed when their connection ends, even in the middle of a transaction',
    async () => {
      const name = `gone_${randomBytes(4).toString('hex')}`;
      const watcher = await connect();
      const leaving = await connect();
      const staying = await connect();
      try {
        await leaving.query({ name, text: 'select $1::int as v', values: [1] });
        await staying.query({ name, text: 'select $1::int as v', values: [2] });
        await leaving.query('begin');
        await leaving.query({ name: `${name}_tx`, text: 'select $1::int as w', values: [3] });
        // Asked inside the transaction (the one session is its until it ends).
        expect(await held(leaving, name)).toHaveLength(2);
        expect(await held(leaving, `${name}_tx`)).toHaveLength(1);
        await leaving.end();
        let left = await held(watcher, name);
        for (let i = 0; i < 100 && left.length > 1; i++) {
          await sleep(20);
          left = await held(watcher, name);
        }
        // The one left is the staying connection's, and it still runs.
        expect(left).toHaveLength(1);
        expect(await held(watcher, `${name}_tx`)).toEqual([]);
        expect((await staying.query({ name, text: 'select $1::int as v', values: [4] })).rows).toEqual([
          { v: 4 },
        ]);
      } finally {
        await Promise.all([watcher.end(), staying.end(), leaving.end().catch(() => undefined)]);
      }
    },
    TIMEOUT,
  );
});
