// The cases of a `textRows` query (libs/platform/src/db/text-rows.ts), run on a Database of
// each engine: tests/distributed/text-rows.test.ts (PostgreSQL, named prepared statements and
// a pipelining connection, as the services run) and tests/embedded/text-rows.test.ts (PGlite).

import type { Database } from '@paygrid/platform';

const SQL = `select $1::bigint as amount, $2::timestamptz as at, $3::jsonb as metadata, $4::boolean as ok,
  null::text as nothing`;
const PARAMS = ['99999999999', '2026-12-07T01:02:03.456789Z', '{"b": 1, "a": "x"}', true];

export function textRowCases(db: () => Database): void {
  it('answers each row as its columns text, unparsed, in the select list order', async () => {
    // Three times: the third is a named prepared statement where the engine uses them.
    for (let i = 0; i < 3; i++) {
      const rows = await db().query<unknown[]>(SQL, PARAMS, { textRows: true });
      expect(rows).toEqual([
        [
          '99999999999',
          expect.stringMatching(/^2026-12-07 01:02:03\.456789\+00(:00)?$/),
          '{"a": "x", "b": 1}',
          't',
          null,
        ],
      ]);
    }
  });

  it('leaves the same statement parsed for a caller that does not ask', async () => {
    const [row] = await db().query<{ amount: string; at: Date; metadata: unknown; ok: boolean }>(SQL, PARAMS);
    expect(row).toEqual({
      amount: '99999999999',
      at: new Date('2026-12-07T01:02:03.456Z'),
      metadata: { a: 'x', b: 1 },
      ok: true,
      nothing: null,
    });
  });

  it('answers text rows inside a transaction and for a statement planned each time', async () => {
    const [inside, planned] = await db().transaction(async (tx) => [
      await tx.query<unknown[]>(SQL, PARAMS, { textRows: true }),
      await tx.query<unknown[]>(SQL, PARAMS, { textRows: true, planEachTime: true }),
    ]);
    expect(inside).toEqual(planned);
    expect(inside[0][0]).toBe('99999999999');
    expect(await db().query<unknown[]>(SQL, PARAMS, { textRows: true, planEachTime: true })).toEqual(inside);
  });
}
