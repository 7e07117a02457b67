import { isStalePreparedStatement, StatementNames } from './statements';

describe('StatementNames', () => {
  it('names a text with parameters on its second use, and keeps that name', () => {
    const names = new StatementNames('payments');
    const sql = 'select * from payments.intents where id = $1';
    expect(names.config(sql, ['pi_1'])).toEqual({ text: sql, values: ['pi_1'] });
    expect(names.config(sql, ['pi_2'])).toEqual({ name: 'payments_1', text: sql, values: ['pi_2'] });
    expect(names.config(sql, ['pi_3'])).toEqual({ name: 'payments_1', text: sql, values: ['pi_3'] });
    expect(names.size).toBe(1);
  });

  it('never names a text without parameters (sent over the simple protocol)', () => {
    const names = new StatementNames('s');
    for (let i = 0; i < 5; i++)
      expect(names.config('select 1', [])).toEqual({ text: 'select 1', values: [] });
    expect(names.size).toBe(0);
  });

  it('gives distinct texts distinct names', () => {
    const names = new StatementNames('s', 10, 1);
    expect(names.config('select $1::int', [1]).name).toBe('s_1');
    expect(names.config('select $1::text', ['a']).name).toBe('s_2');
    expect(names.config('select $1::int', [2]).name).toBe('s_1');
  });

  it('names at most `max` texts; later ones stay unnamed, the named ones keep their names', () => {
    const names = new StatementNames('s', 2, 1);
    expect(names.config('select $1::int', [1]).name).toBe('s_1');
    expect(names.config('select $1::text', ['a']).name).toBe('s_2');
    expect(names.config('select $1::bigint', [1]).name).toBeUndefined();
    expect(names.config('select $1::bigint', [1]).name).toBeUndefined();
    expect(names.config('select $1::text', ['b']).name).toBe('s_2');
    expect(names.size).toBe(2);
  });

  it('does not remember an unbounded number of one-off texts', () => {
    const names = new StatementNames('s', 4, 2);
    // 17 distinct one-off texts: the use counts are cleared past 4 x 4, so none is named.
    for (let i = 0; i < 17; i++) names.config(`select $1::int + ${i}`, [i]);
    expect(names.size).toBe(0);
    expect(names.config('select $1::int + 16', [1]).name).toBe('s_1');
  });
});

describe('isStalePreparedStatement', () => {
  it("recognises PostgreSQL's refusal of a prepared statement whose result columns changed", () => {
    expect(
      isStalePreparedStatement({ code: '0A000', message: 'cached plan must not change result type' }),
    ).toBe(true);
    expect(isStalePreparedStatement({ code: '0A000', message: 'something else not supported' })).toBe(false);
    expect(
      isStalePreparedStatement({ code: '40001', message: 'cached plan must not change result type' }),
    ).toBe(false);
    expect(isStalePreparedStatement(null)).toBe(false);
  });
});
