// The account's business profile (docs/adr/0011): read, changed, and its logo. Every change
// bumps the version and emits account.updated in the same transaction (the payments service
// keeps its projection from that event). The rest of invoicing reads it inside its own
// transactions (finalization, mail) through `profileInTx`.

import { createHash } from 'node:crypto';
import { TOPICS } from '@paygrid/contracts';
import { ApiError, emitEvent, type Clock, type Database, type Tenant, type Tx } from '@paygrid/platform';
import {
  DEFAULT_RECEIPTS,
  LOGO_MAX_BYTES,
  PROFILE_FIELDS,
  profileOf,
  sellerDisplayName,
  serializeAccount,
  sniffImageType,
  type AccountProfile,
  type AccountProfileRow,
} from './account-profile';
import { LOGO_BASE64, type UpdateAccountDto } from './account.dto';
import { checkTaxId } from './tax-ids';

const ROW_COLUMNS =
  'account_id, version, profile, account_name, logo_type, logo_digest, created_at, updated_at';

/**
 * The profiles read in each transaction, by account: an invoice created and sent in one request
 * read its seller's profile twice (its finalization's snapshot, then the mail's sender). Every
 * write to a profile goes through this file and drops the account's entry (`forgetInTx`), so
 * a read after a write in the same transaction reads the row again.
 */
const readInTx = new WeakMap<Tx, Map<string, AccountProfileRow | undefined>>();

function forgetInTx(tx: Tx, account: string): void {
  readInTx.get(tx)?.delete(account);
}

/**
 * The profile inside the caller's transaction: what finalization snapshots, what mail is
 * sent under. A plain function, so the invoices, estimates and mail modules read it without
 * holding the service. Read once per transaction (above); callers only read the row.
 */
export async function profileInTx(tx: Tx, account: string): Promise<AccountProfileRow | undefined> {
  const read = readInTx.get(tx) ?? new Map<string, AccountProfileRow | undefined>();
  readInTx.set(tx, read);
  if (read.has(account)) return read.get(account);
  const [row] = await tx.query<AccountProfileRow>(
    `select ${ROW_COLUMNS} from invoicing.account_profiles where account_id = $1`,
    [account],
  );
  read.set(account, row);
  return row;
}

/** The seller's name now: the profile's trading or legal name, else `fallback`, else the gateway's name. */
export async function sellerNameInTx(
  tx: Tx,
  account: string,
  fallback: string | null,
): Promise<string | null> {
  const row = await profileInTx(tx, account);
  return sellerDisplayName(profileOf(row), fallback ?? row?.account_name);
}

/**
 * Records the gateway's name for the account (from a signed context), so documents made
 * without a request (the billing engine's invoices) still name the seller when the profile
 * names nobody. Written only when it changed.
 */
export async function rememberAccountName(tx: Tx, account: string, name: string, now: Date): Promise<void> {
  forgetInTx(tx, account);
  await tx.query(
    `insert into invoicing.account_profiles (account_id, account_name, created_at, updated_at)
     values ($1, $2, $3, $3)
     on conflict (account_id) do update set account_name = excluded.account_name
      where account_profiles.account_name is distinct from excluded.account_name`,
    [account, name, now],
  );
}

export class AccountProfileService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly publicBaseUrl: string,
  ) {}

  serialize(account: string, row: AccountProfileRow | undefined) {
    return serializeAccount(account, row, this.publicBaseUrl);
  }

  get publicUrl(): string {
    return this.publicBaseUrl;
  }

  async get(account: string): Promise<AccountProfileRow | undefined> {
    const [row] = await this.db.query<AccountProfileRow>(
      `select ${ROW_COLUMNS} from invoicing.account_profiles where account_id = $1`,
      [account],
    );
    return row;
  }

  /**
   * POST /v1/account: the fields given replace the stored ones (`null` clears one). `tx` (here
   * and in setLogo): the idempotent request's transaction (docs/adr/0015).
   */
  async update(
    tenant: Tenant,
    accountName: string | null,
    body: UpdateAccountDto,
    tx?: Tx,
  ): Promise<AccountProfileRow> {
    const changes = normalize(body);
    return this.db.transaction(
      async (t) => {
        const current = await this.lockOrCreate(t, tenant.account, accountName);
        const before = profileOf(current);
        // receipts is merged: `{ refunds: false }` leaves `payments` as it was.
        const after: AccountProfile = {
          ...before,
          ...changes,
          receipts: { ...before.receipts, ...changes.receipts },
        };
        const previous: Record<string, unknown> = {};
        for (const field of PROFILE_FIELDS) {
          if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) previous[field] = before[field];
        }
        if (!Object.keys(previous).length) return current;
        const [row] = await t.query<AccountProfileRow>(
          `update invoicing.account_profiles set profile = $2::jsonb, version = version + 1, updated_at = $3
          where account_id = $1 returning ${ROW_COLUMNS}`,
          [tenant.account, JSON.stringify(after), this.clock.now()],
        );
        await this.emitUpdated(t, tenant, row, previous);
        return row;
      },
      { in: tx },
    );
  }

  /** POST /v1/account/logo: a PNG or JPEG of at most 512 KiB, told by its bytes. */
  async setLogo(tenant: Tenant, accountName: string, base64: string, tx?: Tx): Promise<AccountProfileRow> {
    const bytes = decodeBase64(base64);
    if (bytes.length > LOGO_MAX_BYTES) {
      throw new ApiError(
        'parameter_invalid',
        `The logo is ${bytes.length} bytes; at most 512 KiB (524,288).`,
        'file',
      );
    }
    const type = sniffImageType(bytes);
    if (!type) throw new ApiError('parameter_invalid', 'The logo must be a PNG or JPEG image.', 'file');
    const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
    return this.db.transaction(
      async (t) => {
        const current = await this.lockOrCreate(t, tenant.account, accountName);
        if (current.logo_digest === digest) return current;
        const [row] = await t.query<AccountProfileRow>(
          `update invoicing.account_profiles set logo = $2, logo_type = $3, logo_digest = $4,
           version = version + 1, updated_at = $5
          where account_id = $1 returning ${ROW_COLUMNS}`,
          [tenant.account, bytes, type, digest, this.clock.now()],
        );
        await this.emitUpdated(t, tenant, row, {
          logo_url: this.serialize(tenant.account, current).logo_url,
        });
        return row;
      },
      { in: tx },
    );
  }

  /** DELETE /v1/account/logo. */
  async deleteLogo(tenant: Tenant, accountName: string): Promise<AccountProfileRow> {
    return this.db.transaction(async (tx) => {
      const current = await this.lockOrCreate(tx, tenant.account, accountName);
      if (!current.logo_digest) return current;
      const [row] = await tx.query<AccountProfileRow>(
        `update invoicing.account_profiles set logo = null, logo_type = null, logo_digest = null,
           version = version + 1, updated_at = $2
          where account_id = $1 returning ${ROW_COLUMNS}`,
        [tenant.account, this.clock.now()],
      );
      await this.emitUpdated(tx, tenant, row, { logo_url: this.serialize(tenant.account, current).logo_url });
      return row;
    });
  }

  /** The public logo route: the bytes of the account's logo while `digest` is its current one. */
  async logo(account: string, digest: string): Promise<{ bytes: Buffer; type: string } | undefined> {
    const [row] = await this.db.query<{ logo: Buffer; logo_type: string }>(
      `select logo, logo_type from invoicing.account_profiles
        where account_id = $1 and logo_digest = $2 and logo is not null`,
      [account, digest],
    );
    return row ? { bytes: Buffer.from(row.logo), type: row.logo_type } : undefined;
  }

  /**
   * The account's current logo for its PDFs (invoices, quotes, receipts), or null. The logo is
   * the seller's branding, like the hosted pages', not part of the invoice's legal snapshot.
   */
  async currentLogo(account: string): Promise<Buffer | null> {
    const [row] = await this.db.query<{ logo: Buffer }>(
      `select logo from invoicing.account_profiles where account_id = $1 and logo is not null`,
      [account],
    );
    return row ? Buffer.from(row.logo) : null;
  }

  /** The row, created empty first if needed, locked; `accountName` (from a context) kept current. */
  private async lockOrCreate(
    tx: Tx,
    account: string,
    accountName: string | null,
  ): Promise<AccountProfileRow> {
    const now = this.clock.now();
    forgetInTx(tx, account);
    await tx.query(
      `insert into invoicing.account_profiles (account_id, account_name, created_at, updated_at)
       values ($1, $2, $3, $3) on conflict (account_id) do nothing`,
      [account, accountName, now],
    );
    const [row] = await tx.query<AccountProfileRow>(
      `select ${ROW_COLUMNS} from invoicing.account_profiles where account_id = $1 for update`,
      [account],
    );
    if (accountName !== null && row.account_name !== accountName) {
      await tx.query('update invoicing.account_profiles set account_name = $2 where account_id = $1', [
        account,
        accountName,
      ]);
      row.account_name = accountName;
    }
    return row;
  }

  /**
   * One account.updated per change, in the mode of the key that made it (the profile itself
   * is the same in both modes). The object is the account as GET /v1/account shows it, plus
   * the gateway's name, which the payments projection needs as its fallback.
   */
  private async emitUpdated(
    tx: Tx,
    tenant: Tenant,
    row: AccountProfileRow,
    previous: Record<string, unknown>,
  ): Promise<void> {
    // Every update of a profile is followed by its event: the read memo forgets it here.
    forgetInTx(tx, tenant.account);
    await emitEvent(tx, TOPICS.invoicingEvents, {
      type: 'account.updated',
      account: tenant.account,
      livemode: tenant.livemode,
      object: this.serialize(tenant.account, row),
      previous_attributes: previous,
      at: new Date(row.updated_at),
    });
  }
}

/** The DTO's fields as stored: tax ids normalised and checked by type, address parts filled. */
function normalize(body: UpdateAccountDto): Partial<AccountProfile> {
  const out: Partial<AccountProfile> = {};
  for (const field of PROFILE_FIELDS) {
    if (!(field in body)) continue;
    const value = (body as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (field === 'tax_ids') {
      out.tax_ids = (body.tax_ids ?? []).map((taxId, index) => {
        const checked = checkTaxId(taxId.type, taxId.value);
        if ('problem' in checked) {
          throw new ApiError(
            'parameter_invalid',
            `tax_ids[${index}][value]: ${checked.problem}.`,
            `tax_ids[${index}][value]`,
          );
        }
        return { type: taxId.type, value: checked.value };
      });
    } else if (field === 'address') {
      const a = body.address;
      out.address = a
        ? {
            line1: a.line1 ?? null,
            line2: a.line2 ?? null,
            city: a.city ?? null,
            postal_code: a.postal_code ?? null,
            state: a.state ?? null,
            country: a.country ?? null,
          }
        : null;
    } else if (field === 'receipts') {
      // Partial here; update() merges it over the stored switches.
      // `null` turns a switch back to its default (on), as `null` clears any other field.
      out.receipts = (
        body.receipts
          ? Object.fromEntries(
              Object.entries(body.receipts).map(([key, on]) => [
                key,
                on ?? DEFAULT_RECEIPTS[key as keyof typeof DEFAULT_RECEIPTS],
              ]),
            )
          : { ...DEFAULT_RECEIPTS }
      ) as AccountProfile['receipts'];
    } else if (field === 'portal_subscription_cancel') {
      out.portal_subscription_cancel = value === true;
    } else {
      (out as Record<string, unknown>)[field] = value ?? null;
    }
  }
  return out;
}

function decodeBase64(value: string): Buffer {
  // UploadLogoDto already held it to LOGO_BASE64 (the documented pattern); checked again for
  // callers that come without the pipe.
  if (!LOGO_BASE64.test(value)) {
    throw new ApiError('parameter_invalid', 'file must be the image encoded in base64.', 'file');
  }
  return Buffer.from(value, 'base64');
}
