import { PGlite } from '@electric-sql/pglite';
import { ApiError } from './errors';
import { findOwned, lockOwned } from './tenancy';

// A real PostgreSQL (PGlite) so the SQL itself is checked, not a fake's idea of it.
describe('findOwned / lockOwned', () => {
  let pg: PGlite;
  const sql: string[] = [];
  const db = {
    async query<T>(text: string, params?: unknown[]): Promise<T[]> {
      sql.push(text);
      return (await pg.query<T>(text, params)).rows;
    },
  };
  const mine = { account: 'acct_a', livemode: false };

  // Starting PGlite (WebAssembly) takes seconds on a loaded 2-core machine: past the unit
  // project's 5 s default in CI, beside the other workers.
  beforeAll(async () => {
    pg = await PGlite.create();
    await pg.exec(`create table things (id text primary key, account_id text not null, livemode boolean not null, name text);
      insert into things values ('thg_1', 'acct_a', false, 'one'), ('thg_2', 'acct_b', false, 'two'), ('thg_3', 'acct_a', true, 'three');`);
  }, 60_000);
  afterAll(() => pg.close());

  const missing = async (promise: Promise<unknown>, message: string, param = 'id') => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'resource_missing', status: 404, message, param });
  };

  it.each([
    ['findOwned', findOwned],
    ['lockOwned', lockOwned],
  ] as const)(
    '%s answers the tenant its own row and 404 for another account, the other mode or no row',
    async (_, read) => {
      await expect(read(db, 'things', mine, 'thg_1', 'thing')).resolves.toMatchObject({
        id: 'thg_1',
        name: 'one',
      });
      await missing(read(db, 'things', mine, 'thg_2', 'thing'), "No such thing: 'thg_2'");
      await missing(read(db, 'things', mine, 'thg_3', 'thing'), "No such thing: 'thg_3'");
      await missing(
        read(db, 'things', mine, 'thg_9', 'thing', 'customer'),
        "No such thing: 'thg_9'",
        'customer',
      );
      await missing(read(db, 'things', mine, 'thg\u00001', 'thing'), "No such thing: 'thg\\u00001'");
    },
  );

  it('takes the row lock (for update) in lockOwned only', async () => {
    sql.length = 0;
    await lockOwned(db, 'things', mine, 'thg_1', 'thing');
    await findOwned(db, 'things', mine, 'thg_1', 'thing');
    expect(sql).toEqual([
      'select * from things where id = $1 and account_id = $2 and livemode = $3 for update',
      'select * from things where id = $1 and account_id = $2 and livemode = $3',
    ]);
  });
});
