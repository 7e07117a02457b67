// withRidingWrite: the riding write becomes the statement's first WITH query, its parameters
// numbered after the statement's own.

import { withRidingWrite } from './riding-write';

const fact = { sql: 'insert into t (a, b) values ($1, $2)', params: ['a', 'b'] };

it('puts the write first in a statement without WITH, its parameters after the statement’s', () => {
  expect(withRidingWrite(fact, 'update r set x = $1 where id = $2 returning *', [1, 'r_1'])).toEqual({
    sql: 'with riding as (insert into t (a, b) values ($3, $4)) update r set x = $1 where id = $2 returning *',
    params: [1, 'r_1', 'a', 'b'],
  });
});

it('joins the WITH queries of a statement that has some', () => {
  expect(withRidingWrite(fact, '  with c as (select $1::int) select * from c', [7])).toEqual({
    sql: 'with riding as (insert into t (a, b) values ($2, $3)), c as (select $1::int) select * from c',
    params: [7, 'a', 'b'],
  });
});

it('renumbers parameters of two digits and leaves the statement alone without a write', () => {
  const params = Array.from({ length: 10 }, (_, i) => i);
  const wide = {
    sql: 'insert into t values ($1, $10)',
    params: Array.from({ length: 10 }, (_, i) => `w${i}`),
  };
  expect(withRidingWrite(wide, 'select $10', params).sql).toBe(
    'with riding as (insert into t values ($11, $20)) select $10',
  );
  expect(withRidingWrite(undefined, 'select $1', [1])).toEqual({ sql: 'select $1', params: [1] });
});

it('refuses a WITH RECURSIVE (its keyword must stay first)', () => {
  expect(() => withRidingWrite(fact, 'with recursive n as (select 1) select * from n', [])).toThrow(
    'recursive',
  );
});
