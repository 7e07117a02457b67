// What an account and an API key are (the gateway.accounts and gateway.api_keys rows), when a
// key is usable, and which scopes an account's groupings allow: shared by the accounts
// service, the admin API and the authentication path.

import { ALL_SCOPES, ROUTE_TABLE, type Grouping, type Scope } from '@paygrid/contracts';
import type { KeyKind } from './keys';

export interface AccountRow {
  id: string;
  name: string;
  groupings: Grouping[];
  status: 'active' | 'suspended';
  rate_limit_per_second: number | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export interface KeyRow {
  id: string;
  account_id: string;
  livemode: boolean;
  kind: KeyKind;
  scopes: string[];
  prefix: string;
  last4: string;
  name: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  rolled_to: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface AuthenticatedKey {
  key: KeyRow;
  account: AccountRow;
  /** Scopes effective for this key (all the groupings allow for secret keys). */
  scopes: string[];
  /** `keyFingerprint` of the presented secret: never logged, never sent to a service. */
  fingerprint: string;
}

/** Every column of gateway.api_keys but the secret's hash, which never leaves the database. */
export const KEY_COLUMNS =
  'id, account_id, livemode, kind, scopes, prefix, last4, name, expires_at, revoked_at, last_used_at, rolled_to, created_at, updated_at';

/** Longest grace period of a roll: the old secret stays valid at most this long. */
export const MAX_ROLL_GRACE_SECONDS = 7 * 24 * 3600;

export type KeyState = 'active' | 'expired' | 'revoked';

/** A key is usable until it is revoked or its expires_at passes (both compared with `now`). */
export function keyState(key: Pick<KeyRow, 'revoked_at' | 'expires_at'>, now: Date): KeyState {
  if (key.revoked_at !== null && new Date(key.revoked_at) <= now) return 'revoked';
  if (key.expires_at !== null && new Date(key.expires_at) <= now) return 'expired';
  return 'active';
}

/**
 * The scopes an account's groupings allow: those of every resource whose route (the contract's
 * ROUTE_TABLE, docs/api.md section 2) the groupings reach, so a new resource needs one row.
 */
export function scopesForGroupings(groupings: readonly Grouping[]): Scope[] {
  const resources = new Set<string>(
    ROUTE_TABLE.filter((route) => route.groupings.some((g) => groupings.includes(g))).map((r) => r.resource),
  );
  return ALL_SCOPES.filter((scope) => {
    const [resource, access] = scope.split(':');
    // With only the payments grouping, invoices are read-only.
    if (resource === 'invoices' && access === 'write' && !groupings.includes('invoicing')) return false;
    return resources.has(resource);
  });
}
