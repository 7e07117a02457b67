// Statements put together from parts written apart, each with its own `$1`..`$n`: a write sent
// with the COMMIT (Tx.writeAtCommit), a form's claim inside the statement that writes a
// payment's intent, a projection's row riding in another statement. One statement and one
// round trip for several writes (issue 15).

/** A statement, or a part of one, and its parameters (`$1`..`$n` are its own). */
export interface SqlPart {
  sql: string;
  params: unknown[];
}

/**
 * `part`'s SQL with its `$n` renumbered after `values`, to which its parameters are appended:
 * what a WITH query of a larger statement is written as. `part.sql` has no `$` but its
 * parameters.
 */
export function placeSql(part: SqlPart, values: unknown[]): string {
  const offset = values.length;
  values.push(...part.params);
  return part.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
}
