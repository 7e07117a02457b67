// One row's update from a map of column → value, with `updated_at`. For services whose state
// machines change a different set of columns per transition.

import type { Tx } from './database';

/**
 * `update <table> set <col> = ..., updated_at = now where id = $1 returning *`. Column names
 * are interpolated: they must be the caller's constants, never client input.
 */
export async function updateColumns<T>(
  tx: Tx,
  table: string,
  id: string,
  changes: Record<string, unknown>,
  now: Date,
): Promise<T> {
  const names = Object.keys(changes);
  const sets = names.map((name, i) => `${name} = $${i + 2}`);
  const [row] = await tx.query<T>(
    `update ${table} set ${[...sets, `updated_at = $${names.length + 2}`].join(', ')}
     where id = $1 returning *`,
    [id, ...names.map((name) => changes[name]), now],
  );
  return row;
}
