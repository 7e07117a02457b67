// Tenancy: every row carries account_id and livemode, and every lookup filters on both, so
// another account's (or the other mode's) id is simply not found: 404, never 403.

import type { AuthenticatedContext } from '@paygrid/contracts';
import { notFound } from './errors';

export interface Tenant {
  account: string;
  livemode: boolean;
}

/** The tenant an API caller acts as: its account in the mode of its key. */
export const tenantOf = (caller: Pick<AuthenticatedContext, 'account' | 'livemode'>): Tenant => ({
  account: caller.account,
  livemode: caller.livemode,
});

type Queryable = { query<T>(sql: string, params?: unknown[]): Promise<T[]> };

/** After the connection: the table, the owner, the id, and the object and parameter a 404 names. */
type OwnedRowArgs = [table: string, tenant: Tenant, id: string, what: string, param?: string];

/** The row `id` of `table` owned by `tenant`, or 404 resource_missing naming `what`. */
export function findOwned<R>(db: Queryable, ...args: OwnedRowArgs): Promise<R> {
  return selectOwned<R>(db, '', ...args);
}

/**
 * The same row locked `for update` until `tx` ends, for a read-modify-write of it; another
 * account's (or the other mode's) row is 404 as in findOwned, and is not locked.
 */
export function lockOwned<R>(tx: Queryable, ...args: OwnedRowArgs): Promise<R> {
  return selectOwned<R>(tx, ' for update', ...args);
}

async function selectOwned<R>(
  db: Queryable,
  lock: '' | ' for update',
  ...[table, tenant, id, what, param = 'id']: OwnedRowArgs
): Promise<R> {
  // No id holds U+0000 (PostgreSQL cannot even compare it): such an id does not exist.
  if (id.includes('\u0000')) throw notFound(what, id.split('\u0000').join('\\u0000'), param);
  const [row] = await db.query<R>(
    `select * from ${table} where id = $1 and account_id = $2 and livemode = $3${lock}`,
    [id, tenant.account, tenant.livemode],
  );
  if (!row) throw notFound(what, id, param);
  return row;
}
