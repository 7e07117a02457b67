// Issuing API keys: a new key of an account (secret or restricted, its scopes checked
// against the account's groupings) and a roll (a new secret, the old one expiring after the
// grace period). Only the secret's hash is stored; the secret is returned once.

import { ALL_SCOPES } from '@paygrid/contracts';
import { ApiError, type Database, newId, notFound } from '@paygrid/platform';
import { type AccountRow, KEY_COLUMNS, keyState, type KeyRow, scopesForGroupings } from './account.model';
import { generateKey, hashKey, type KeyKind } from './keys';

/** POST /admin/v1/accounts/:id/keys, as the admin API passes it. */
export interface NewKeyInput {
  account: string;
  livemode: boolean;
  kind: KeyKind;
  scopes?: string[];
  name?: string;
  expires_at?: Date;
}

export async function issueKey(
  db: Database,
  now: Date,
  account: AccountRow,
  input: NewKeyInput,
): Promise<KeyRow & { secret: string }> {
  const allowed = scopesForGroupings(account.groupings);
  let scopes: string[] = [];
  if (input.expires_at && input.expires_at <= now) {
    throw new ApiError('parameter_invalid', 'expires_at must be in the future.', 'expires_at');
  }
  if (input.kind === 'restricted') {
    if (!input.scopes?.length)
      throw new ApiError('parameter_missing', 'Restricted keys need at least one scope.', 'scopes');
    const unknown = input.scopes.filter((s) => !(ALL_SCOPES as string[]).includes(s));
    if (unknown.length) {
      throw new ApiError(
        'parameter_invalid',
        `Unknown scope: ${unknown.join(', ')} (scopes are <resource>:read or <resource>:write).`,
        'scopes',
      );
    }
    const outside = input.scopes.filter((s) => !(allowed as string[]).includes(s));
    if (outside.length) {
      throw new ApiError(
        'parameter_invalid',
        `Scopes not available to this account's groupings: ${outside.join(', ')}`,
        'scopes',
      );
    }
    scopes = [...new Set(input.scopes)].sort();
  } else if (input.scopes?.length) {
    throw new ApiError(
      'parameter_invalid',
      'Secret keys carry every scope of the account; use a restricted key for a scope list.',
      'scopes',
    );
  }
  const { secret, prefix, last4 } = generateKey(input.kind, input.livemode);
  const [row] = await db.query<KeyRow>(
    `insert into gateway.api_keys (id, account_id, livemode, kind, scopes, secret_hash, prefix, last4, name, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     returning ${KEY_COLUMNS}`,
    [
      newId('key'),
      account.id,
      input.livemode,
      input.kind,
      scopes,
      hashKey(secret),
      prefix,
      last4,
      input.name ?? null,
      input.expires_at ?? null,
    ],
  );
  return Object.assign({}, row, { secret });
}

/**
 * Replaces a key's secret: a new key with the same account, mode, kind, scopes, name and
 * expiry, and the old one expiring after the grace period (at once when it is 0, never
 * later than it already would). Revoked, expired or already rolled keys cannot be rolled.
 */
export function rollKeyInDb(
  db: Database,
  now: Date,
  id: string,
  graceSeconds: number,
): Promise<KeyRow & { secret: string }> {
  return db.transaction(async (tx) => {
    const [old] = await tx.query<KeyRow>(
      `select ${KEY_COLUMNS} from gateway.api_keys where id = $1 for update`,
      [id],
    );
    if (!old) throw notFound('key', id);
    const state = keyState(old, now);
    if (state !== 'active') {
      throw new ApiError(
        'invalid_state_transition',
        `This key is ${state}; only an active key can be rolled.`,
      );
    }
    if (old.rolled_to) {
      throw new ApiError(
        'invalid_state_transition',
        `This key was already rolled to ${old.rolled_to}; roll that key instead.`,
      );
    }
    const graceEnd = new Date(now.getTime() + graceSeconds * 1000);
    const oldExpiry = old.expires_at ? new Date(old.expires_at) : null;
    const { secret, prefix, last4 } = generateKey(old.kind, old.livemode);
    const [created] = await tx.query<KeyRow>(
      `insert into gateway.api_keys (id, account_id, livemode, kind, scopes, secret_hash, prefix, last4, name, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       returning ${KEY_COLUMNS}`,
      [
        newId('key'),
        old.account_id,
        old.livemode,
        old.kind,
        old.scopes,
        hashKey(secret),
        prefix,
        last4,
        old.name,
        oldExpiry,
      ],
    );
    await tx.query(
      'update gateway.api_keys set expires_at = $2, rolled_to = $3, updated_at = now() where id = $1',
      [old.id, oldExpiry && oldExpiry < graceEnd ? oldExpiry : graceEnd, created.id],
    );
    return Object.assign({}, created, { secret });
  });
}
