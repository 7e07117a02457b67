// Accounts and API keys: the gateway's own data. The hot path (authenticate a key) is
// served from an in-memory cache once warm; revocation, rolling and suspension invalidate
// the cache on every gateway instance through the invalidation channel.

import { GROUPINGS, type Grouping } from '@paygrid/contracts';
import {
  ApiError,
  newId,
  notFound,
  paginate,
  type Database,
  type ListQuery,
  type Page,
} from '@paygrid/platform';
import {
  type AccountRow,
  type AuthenticatedKey,
  KEY_COLUMNS,
  type KeyRow,
  scopesForGroupings,
} from './account.model';
import { issueKey, type NewKeyInput, rollKeyInDb } from './key-issuing';
import { hashKey, keyFingerprint, looksLikeKey } from './keys';

export {
  type AccountRow,
  type AuthenticatedKey,
  type KeyRow,
  type KeyState,
  keyState,
  MAX_ROLL_GRACE_SECONDS,
  scopesForGroupings,
} from './account.model';
import type { InvalidationChannel } from './invalidation';

const CACHE_TTL_MS = 60_000;
const CACHE_MAX_ENTRIES = 50_000;
const LAST_USED_RESOLUTION_MS = 60_000;

export class AccountsService {
  private readonly cache = new Map<string, { value: AuthenticatedKey | null; expires: number }>();
  private readonly lastUsedWritten = new Map<string, number>();
  /**
   * Bumped by every invalidation. A lookup that started before an invalidation must not
   * put what it read back into the cache (it may be the key that was just revoked).
   */
  private generation = 0;

  constructor(
    private readonly db: Database,
    private readonly invalidation: InvalidationChannel,
    private readonly now: () => Date = () => new Date(),
  ) {
    invalidation.subscribe(() => {
      this.generation++;
      this.cache.clear();
    });
  }

  async createAccount(input: {
    name: string;
    groupings: Grouping[];
    metadata?: Record<string, string>;
  }): Promise<AccountRow> {
    const groupings = [...new Set(input.groupings)].filter((g) =>
      (GROUPINGS as readonly string[]).includes(g),
    );
    const [row] = await this.db.query<AccountRow>(
      `insert into gateway.accounts (id, name, groupings, metadata) values ($1, $2, $3, $4) returning *`,
      [newId('acct'), input.name, groupings, input.metadata ?? {}],
    );
    return row;
  }

  async getAccount(id: string): Promise<AccountRow> {
    const [row] = await this.db.query<AccountRow>('select * from gateway.accounts where id = $1', [id]);
    if (!row) throw notFound('account', id);
    return row;
  }

  /** `ids`: only these accounts (`in`) or all but these (`not_in`), e.g. those with a processor. */
  listAccounts(
    query: ListQuery & { status?: AccountRow['status'] },
    ids?: { in?: readonly string[]; not_in?: readonly string[] },
  ): Promise<Page<AccountRow>> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.status) {
      params.push(query.status);
      where.push(`status = $${params.length}`);
    }
    if (ids?.in) {
      params.push(ids.in);
      where.push(`id = any($${params.length}::text[])`);
    }
    if (ids?.not_in) {
      params.push(ids.not_in);
      where.push(`not (id = any($${params.length}::text[]))`);
    }
    return paginate<AccountRow>(this.db, {
      table: 'gateway.accounts',
      where,
      params,
      list: query,
      url: '/admin/v1/accounts',
    });
  }

  /**
   * Changes an account's name, groupings, rate limit (null: back to the default) or
   * metadata (merged; an empty string removes a key). The key cache holds the account too,
   * so every gateway instance drops it: a grouping removed is refused on the next request.
   */
  async updateAccount(
    id: string,
    input: {
      name?: string;
      groupings?: Grouping[];
      rate_limit_per_second?: number | null;
      metadata?: Record<string, string>;
    },
  ): Promise<AccountRow> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (input.name !== undefined) set('name', input.name);
    if (input.groupings !== undefined) set('groupings', [...new Set(input.groupings)]);
    if (input.rate_limit_per_second !== undefined) set('rate_limit_per_second', input.rate_limit_per_second);
    if (input.metadata !== undefined) {
      const entries = Object.entries(input.metadata);
      const kept = Object.fromEntries(entries.filter(([, v]) => v !== ''));
      const removed = entries.filter(([, v]) => v === '').map(([k]) => k);
      params.push(kept, removed);
      sets.push(`metadata = (metadata || $${params.length - 1}::jsonb) - $${params.length}::text[]`);
    }
    if (!sets.length) return this.getAccount(id);
    const [row] = await this.db.query<AccountRow>(
      `update gateway.accounts set ${sets.join(', ')}, updated_at = now() where id = $1 returning *`,
      params,
    );
    if (!row) throw notFound('account', id);
    await this.invalidation.publish();
    return row;
  }

  async setAccountStatus(id: string, status: AccountRow['status']): Promise<AccountRow> {
    const [row] = await this.db.query<AccountRow>(
      'update gateway.accounts set status = $2, updated_at = now() where id = $1 returning *',
      [id, status],
    );
    if (!row) throw notFound('account', id);
    await this.invalidation.publish();
    return row;
  }

  async createKey(input: NewKeyInput): Promise<KeyRow & { secret: string }> {
    const account = await this.getAccount(input.account);
    return issueKey(this.db, this.now(), account, input);
  }

  async revokeKey(id: string): Promise<KeyRow> {
    const [row] = await this.db.query<KeyRow>(
      `update gateway.api_keys set revoked_at = coalesce(revoked_at, now()), updated_at = now() where id = $1
       returning ${KEY_COLUMNS}`,
      [id],
    );
    if (!row) throw notFound('key', id);
    await this.invalidation.publish();
    return row;
  }

  async getKey(id: string): Promise<KeyRow> {
    const [row] = await this.db.query<KeyRow>(`select ${KEY_COLUMNS} from gateway.api_keys where id = $1`, [
      id,
    ]);
    if (!row) throw notFound('key', id);
    return row;
  }

  /**
   * Replaces a key's secret: a new key with the same account, mode, kind, scopes, name and
   * expiry, and the old one expiring after the grace period (key-issuing.ts).
   */
  async rollKey(id: string, graceSeconds = 0): Promise<KeyRow & { secret: string }> {
    const rolled = await rollKeyInDb(this.db, this.now(), id, graceSeconds);
    // After commit: every instance drops its cache, so the old key's new expiry applies everywhere.
    await this.invalidation.publish();
    return rolled;
  }

  async listKeys(account: string, query: ListQuery): Promise<Page<KeyRow>> {
    await this.getAccount(account);
    return paginate<KeyRow>(this.db, {
      table: 'gateway.api_keys',
      where: ['account_id = $1'],
      params: [account],
      list: query,
      url: `/admin/v1/accounts/${account}/keys`,
      columns: KEY_COLUMNS,
    });
  }

  /**
   * Resolves a presented secret to its key and account, or throws the 401/403 of docs/api.md §2.
   * Warm lookups cost no database round trip.
   */
  async authenticate(secret: string): Promise<AuthenticatedKey> {
    if (!looksLikeKey(secret)) throw new ApiError('invalid_api_key', 'Invalid API key provided.');
    const hash = hashKey(secret);
    const cacheKey = keyFingerprint(hash);
    const now = this.now();
    let entry = this.cache.get(cacheKey);
    if (!entry || entry.expires < now.getTime()) {
      const generation = this.generation;
      entry = { value: await this.load(hash, cacheKey), expires: now.getTime() + CACHE_TTL_MS };
      if (generation === this.generation) {
        // Bounded: unknown keys are cached too (so guessing keys costs no database round
        // trip each), and a flood of them must not grow memory without limit.
        if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
        this.cache.set(cacheKey, entry);
      }
    }
    const found = entry.value;
    if (
      !found ||
      (found.key.revoked_at !== null && found.key.revoked_at <= now) ||
      (found.key.expires_at !== null && found.key.expires_at <= now)
    ) {
      throw new ApiError('invalid_api_key', 'Invalid API key provided.');
    }
    if (found.account.status === 'suspended') {
      throw new ApiError('account_suspended', 'This account is suspended; contact the operator.');
    }
    this.touch(found.key.id, now);
    return found;
  }

  private async load(hash: Buffer, fingerprint: string): Promise<AuthenticatedKey | null> {
    const [row] = await this.db.query<{ key: KeyRow; account: AccountRow }>(
      `select to_jsonb(k) - 'secret_hash' as key, to_jsonb(a) as account
       from gateway.api_keys k join gateway.accounts a on a.id = k.account_id where k.secret_hash = $1`,
      [hash],
    );
    if (!row) return null;
    const key: KeyRow = Object.assign({}, row.key, {
      expires_at: row.key.expires_at ? new Date(row.key.expires_at) : null,
      revoked_at: row.key.revoked_at ? new Date(row.key.revoked_at) : null,
    });
    const scopes = key.kind === 'secret' ? scopesForGroupings(row.account.groupings) : key.scopes;
    return { key, account: row.account, scopes, fingerprint };
  }

  /** Records last_used_at at most once a minute per key, off the request path. */
  private touch(keyId: string, now: Date): void {
    const last = this.lastUsedWritten.get(keyId) ?? 0;
    if (now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWritten.set(keyId, now.getTime());
    void this.db
      .query('update gateway.api_keys set last_used_at = $2 where id = $1', [keyId, now])
      .catch(() => this.lastUsedWritten.delete(keyId));
  }
}
