// Processor connections: an account's credentials for a payment processor, per mode (docs/api.md
// Part 2). Credentials are sealed before they reach a query (secret-box.ts) and never leave this
// file in clear except into the processor's client; what is shown is the key's last 4 and the
// processor's account id. At most one connection per account and mode is in use (active, or
// failing: its last verification was refused): creating one disables the previous one in the
// same transaction, so there is never a moment without one and never two; POST /:id rotates a
// connection's credentials in place. Live payments route to the live connection in use
// (LiveConnectors, below).
//
// States (one place): active -> failing (verify refused) -> active (verify succeeded);
// active | failing -> disabled (disable, or replaced by a new connection). disabled is final.

import {
  ApiError,
  type Clock,
  type Database,
  findOwned,
  isoOrNull,
  type ListQuery,
  newId,
  notFound,
  paginateOwned,
  type Tenant,
  type Tx,
  iso,
} from '@paygrid/platform';
import type { PaymentConnector } from '../connectors/connector';
import type { LiveConnectors } from '../connectors/connector-router';
import type { ProcessorCredentials, ProcessorDefinition } from '../connectors/processor';
import type {
  CreateProcessorConnectionDto,
  ProcessorCredentialsDto,
  ProcessorName,
  UpdateProcessorConnectionDto,
} from './processor-connections.dto';
import type { SecretBox } from './secret-box';
import type { ProcessorConnection } from '@paygrid/contracts';

export type ConnectionStatus = 'active' | 'failing' | 'disabled';

export interface ProcessorConnectionRow {
  id: string;
  account_id: string;
  livemode: boolean;
  processor: ProcessorName;
  status: ConnectionStatus;
  description: string | null;
  secret_key_last4: string;
  secrets_key_id: string;
  secrets_ciphertext: string;
  processor_account: string | null;
  verification_status: 'unverified' | 'succeeded' | 'failed';
  verification_message: string | null;
  verified_at: Date | null;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The public object: no credential, only the key's last 4 (docs/api.md Part 2). */
export function serializeProcessorConnection(row: ProcessorConnectionRow): ProcessorConnection {
  return {
    id: row.id,
    object: 'processor_connection',
    livemode: row.livemode,
    processor: row.processor,
    status: row.status,
    description: row.description,
    credentials: { secret_key_last4: row.secret_key_last4 },
    processor_account: row.processor_account,
    verification: {
      status: row.verification_status,
      message: row.verification_message,
      verified_at: isoOrNull(row.verified_at),
    },
    disabled_at: isoOrNull(row.disabled_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** What a processor webhook needs of its connection (processor-events/). */
export interface WebhookConnection {
  row: ProcessorConnectionRow;
  processor: ProcessorDefinition;
  credentials: ProcessorCredentials;
}

const TABLE = 'payments.processor_connections';
/** The additional authenticated data of a connection's sealed secrets: its id. */
const aad = (row: { id: string }) => `processor_connection:${row.id}`;

export class ProcessorConnectionsService implements LiveConnectors {
  /** Connectors built from a connection's secrets, by id and seal (rebuilt when re-sealed). */
  private readonly connectors = new Map<string, { seal: string; connector: PaymentConnector }>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly processors: Readonly<Record<ProcessorName, ProcessorDefinition>>,
    private readonly box: SecretBox | undefined,
  ) {}

  /** `tx`: the idempotent request's transaction (docs/adr/0015). */
  async create(
    tenant: Tenant,
    input: CreateProcessorConnectionDto,
    tx?: Tx,
  ): Promise<ProcessorConnectionRow> {
    const box = this.requireBox();
    const credentials = this.checked(input.processor, input.credentials, tenant.livemode);
    return this.db.transaction(
      async (tx) => {
        const now = this.clock.now();
        // The connection in use steps aside. Two creates at once: the partial unique index refuses
        // the second one's insert (409 resource_conflict, through the platform's driver-error mapping).
        await tx.query(
          `update ${TABLE} set status = 'disabled', disabled_at = $3, updated_at = $3
          where account_id = $1 and livemode = $2 and status <> 'disabled'`,
          [tenant.account, tenant.livemode, now],
        );
        const id = newId('pcon');
        const sealed = box.seal(JSON.stringify(credentials), aad({ id }));
        const [row] = await tx.query<ProcessorConnectionRow>(
          `insert into ${TABLE} (id, account_id, livemode, processor, secret_key_last4, secrets_key_id, secrets_ciphertext, description, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) returning *`,
          [
            id,
            tenant.account,
            tenant.livemode,
            input.processor,
            credentials.secret_key.slice(-4),
            sealed.key_id,
            sealed.ciphertext,
            input.description ?? null,
            now,
          ],
        );
        return row;
      },
      { in: tx },
    );
  }

  get(tenant: Tenant, id: string): Promise<ProcessorConnectionRow> {
    return findOwned<ProcessorConnectionRow>(this.db, TABLE, tenant, id, 'processor_connection');
  }

  list(tenant: Tenant, query: ListQuery) {
    return paginateOwned<ProcessorConnectionRow>(this.db, tenant, {
      table: TABLE,
      list: query,
      url: '/v1/processor-connections',
    });
  }

  /**
   * A new description and/or new credentials (re-sealed; the verification starts again and a
   * failing connection is active again until the next verification says otherwise).
   */
  async update(
    tenant: Tenant,
    id: string,
    input: UpdateProcessorConnectionDto,
    tx?: Tx,
  ): Promise<ProcessorConnectionRow> {
    return this.db.transaction(
      async (tx) => {
        const row = await this.lock(tx, tenant, id);
        if (row.status === 'disabled' && input.credentials) {
          throw new ApiError(
            'invalid_state_transition',
            'A disabled processor connection cannot be given new credentials.',
          );
        }
        const now = this.clock.now();
        let sealed: { key_id: string; ciphertext: string; last4: string } | undefined;
        if (input.credentials) {
          const credentials = this.checked(row.processor, input.credentials, row.livemode);
          sealed = {
            ...this.requireBox().seal(JSON.stringify(credentials), aad(row)),
            last4: credentials.secret_key.slice(-4),
          };
        }
        const [updated] = await tx.query<ProcessorConnectionRow>(
          `update ${TABLE} set description = coalesce($2, description), updated_at = $3,
            secrets_key_id = coalesce($4, secrets_key_id), secrets_ciphertext = coalesce($5, secrets_ciphertext),
            secret_key_last4 = coalesce($6, secret_key_last4),
            status = case when $4::text is not null and status = 'failing' then 'active' else status end,
            verification_status = case when $4::text is not null then 'unverified' else verification_status end,
            verification_message = case when $4::text is not null then null else verification_message end
          where id = $1 returning *`,
          [
            row.id,
            input.description ?? null,
            now,
            sealed?.key_id ?? null,
            sealed?.ciphertext ?? null,
            sealed?.last4 ?? null,
          ],
        );
        return updated;
      },
      { in: tx },
    );
  }

  /** active | failing -> disabled; live payments of the account are refused from now on. Idempotent. */
  async disable(tenant: Tenant, id: string, tx?: Tx): Promise<ProcessorConnectionRow> {
    return this.db.transaction(
      async (tx) => {
        const row = await this.lock(tx, tenant, id);
        if (row.status === 'disabled') return row;
        const now = this.clock.now();
        const [updated] = await tx.query<ProcessorConnectionRow>(
          `update ${TABLE} set status = 'disabled', disabled_at = $2, updated_at = $2 where id = $1 returning *`,
          [row.id, now],
        );
        return updated;
      },
      { in: tx },
    );
  }

  /**
   * Calls the processor with the connection's credentials (outside any transaction,
   * docs/style.md rule 5) and records what it said: its account id, or why it refused.
   */
  async verify(tenant: Tenant, id: string): Promise<ProcessorConnectionRow> {
    const row = await this.get(tenant, id);
    const verification = await this.processors[row.processor].verify(this.credentials(row));
    const [updated] = await this.db.query<ProcessorConnectionRow>(
      `update ${TABLE} set verification_status = $2, verification_message = $3, verified_at = $4,
          processor_account = coalesce($5, processor_account), updated_at = $4,
          status = case when status = 'disabled' then status when $2 = 'succeeded' then 'active' else 'failing' end
        where id = $1 returning *`,
      [
        row.id,
        verification.ok ? 'succeeded' : 'failed',
        verification.ok ? null : verification.message,
        this.clock.now(),
        verification.ok ? verification.processor_account : null,
      ],
    );
    return updated;
  }

  /**
   * Re-seals every connection under the current key (after a new key was put first in
   * PROCESSOR_SECRETS_KEYS); one row per transaction, under its row lock. Returns how many
   * rows were re-sealed and how many were already under the current key.
   */
  async reencryptAll(): Promise<{ reencrypted: number; unchanged: number }> {
    const box = this.requireBox();
    const ids = await this.db.query<{ id: string; secrets_key_id: string }>(
      `select id, secrets_key_id from ${TABLE} order by id`,
    );
    let reencrypted = 0;
    for (const { id, secrets_key_id } of ids) {
      if (secrets_key_id === box.currentKeyId) continue;
      await this.db.transaction(async (tx) => {
        const [row] = await tx.query<ProcessorConnectionRow>(
          `select * from ${TABLE} where id = $1 for update`,
          [id],
        );
        if (!row || row.secrets_key_id === box.currentKeyId) return;
        const sealed = box.seal(
          box.open({ key_id: row.secrets_key_id, ciphertext: row.secrets_ciphertext }, aad(row)),
          aad(row),
        );
        await tx.query(`update ${TABLE} set secrets_key_id = $2, secrets_ciphertext = $3 where id = $1`, [
          row.id,
          sealed.key_id,
          sealed.ciphertext,
        ]);
        reencrypted++;
      });
    }
    return { reencrypted, unchanged: ids.length - reencrypted };
  }

  // LiveConnectors: where live charges go (connectors/connector-router.ts).

  async forAccount(accountId: string): Promise<PaymentConnector | null> {
    const [row] = await this.db.query<ProcessorConnectionRow>(
      `select * from ${TABLE} where account_id = $1 and livemode and status <> 'disabled'`,
      [accountId],
    );
    if (!row || !this.box) return null;
    const seal = `${row.secrets_key_id}:${row.secrets_ciphertext}`;
    const cached = this.connectors.get(row.id);
    if (cached?.seal === seal) return cached.connector;
    const connector = this.processors[row.processor].connector(this.credentials(row));
    this.connectors.set(row.id, { seal, connector });
    return connector;
  }

  /**
   * The accounts whose live payments go to a processor (an active live connection), for the
   * operator's account listing (GET /admin/v1/accounts?live_processor=none). Without a key ring
   * no connection can be opened, so none is.
   */
  async liveAccounts(): Promise<string[]> {
    if (!this.box) return [];
    const rows = await this.db.query<{ account_id: string }>(
      `select distinct account_id from ${TABLE} where livemode and status <> 'disabled' order by account_id`,
    );
    return rows.map((r) => r.account_id);
  }

  async configuredAccounts(): Promise<number> {
    const [row] = await this.db.query<{ n: string }>(
      `select count(distinct account_id)::text as n from ${TABLE} where livemode and status <> 'disabled'`,
    );
    return Number(row?.n ?? 0);
  }

  /** The credentials as the processor wants them for the mode, or 400 naming the field. */
  private checked(
    processor: ProcessorName,
    input: ProcessorCredentialsDto,
    livemode: boolean,
  ): ProcessorCredentials {
    const credentials: ProcessorCredentials = {
      secret_key: input.secret_key,
      webhook_signing_secret: input.webhook_signing_secret,
    };
    const problem = this.processors[processor].checkCredentials(credentials, livemode);
    if (problem) throw new ApiError('parameter_invalid', problem.message, problem.param);
    return credentials;
  }

  /**
   * A connection by id alone, for its webhooks (which carry no API key), with its secrets
   * opened. A disabled connection still verifies its webhooks: disputes and refunds of the
   * payments it made keep coming after it is replaced.
   */
  async forWebhook(id: string): Promise<WebhookConnection | undefined> {
    const [row] = await this.db.query<ProcessorConnectionRow>(`select * from ${TABLE} where id = $1`, [id]);
    if (!row || !this.box) return undefined;
    return { row, processor: this.processors[row.processor], credentials: this.credentials(row) };
  }

  private credentials(row: ProcessorConnectionRow): ProcessorCredentials {
    const box = this.requireBox();
    return JSON.parse(
      box.open({ key_id: row.secrets_key_id, ciphertext: row.secrets_ciphertext }, aad(row)),
    ) as ProcessorCredentials;
  }

  private requireBox(): SecretBox {
    if (!this.box) {
      throw new ApiError(
        'processor_secrets_unavailable',
        'This installation cannot store processor credentials: the operator has not set PROCESSOR_SECRETS_KEYS.',
      );
    }
    return this.box;
  }

  private async lock(tx: Tx, tenant: Tenant, id: string): Promise<ProcessorConnectionRow> {
    const [row] = await tx.query<ProcessorConnectionRow>(
      `select * from ${TABLE} where id = $1 and account_id = $2 and livemode = $3 for update`,
      [id, tenant.account, tenant.livemode],
    );
    if (!row) throw notFound('processor_connection', id);
    return row;
  }
}
