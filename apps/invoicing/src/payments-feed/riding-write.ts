// A write that rides in another statement of the same transaction as a data-modifying WITH
// query: one statement and one round trip for both. The payments feed's fact rides in the
// receipt's statement (payments-feed.ts), two statements per payment.succeeded instead of
// three.

import { placeSql, type SqlPart } from '@paygrid/platform';

/**
 * `sql` with `write` as its first WITH query, `write`'s `$n` renumbered after `params`.
 * PostgreSQL runs a data-modifying WITH query once whether the statement reads it or not, on
 * the statement's snapshot and in no set order with it: so nothing in `sql` may read what
 * `write` writes, and the two must not touch the same row. `write.sql` has no `$` but its
 * parameters. Without `write`, `sql` as it is.
 */
export function withRidingWrite(write: SqlPart | undefined, sql: string, params: unknown[]): SqlPart {
  if (!write) return { sql, params };
  if (/^\s*with\s+recursive\b/i.test(sql))
    throw new Error('withRidingWrite: a recursive WITH is not supported');
  const values = [...params];
  const rides = `riding as (${placeSql(write, values)})`;
  const head = /^\s*with\s+/i;
  return {
    sql: head.test(sql) ? sql.replace(head, `with ${rides}, `) : `with ${rides} ${sql}`,
    params: values,
  };
}
