// Webhook endpoints: registration (event types limited to the groupings' catalogue, SSRF
// checks), updates, secret rotation, and their deliveries.

import {
  eventTypesFor,
  type DeletedWebhookEndpoint,
  type Grouping,
  type WebhookDelivery,
} from '@paygrid/contracts';
import {
  ApiError,
  type Clock,
  type Database,
  findOwned,
  type ListQuery,
  newId,
  newSortableId,
  notFound,
  paginate,
  paginateOwned,
  type Tenant,
  type Tx,
  listOf,
} from '@paygrid/platform';
import { followHead } from '../delivery/claim';
import { newSecret } from '../delivery/signing';
import { checkTarget, TargetRefused, type TargetPolicy } from '../delivery/ssrf';
import { disableFailingEndpoint } from './disable-failing';
import { serializeEndpoint, type EndpointRow } from './endpoint';
import type { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './endpoints.dto';

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  livemode: boolean;
  status: WebhookDelivery['status'];
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  created_at: Date;
}

interface AttemptRow {
  delivery_id: string;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
}

type Queryable = { query<T>(sql: string, params?: unknown[]): Promise<T[]> };

export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;

function serializeDelivery(row: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    object: 'webhook_delivery' as const,
    livemode: row.livemode,
    endpoint: row.endpoint_id,
    event: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempts,
    next_attempt_at: row.status === 'pending' ? (row.next_attempt_at?.toISOString() ?? null) : null,
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
    attempts: attempts.map((a) => ({
      attempted_at: a.attempted_at.toISOString(),
      status_code: a.status_code,
      latency_ms: a.latency_ms,
      response_excerpt: a.response_excerpt,
      error: a.error,
    })),
    created_at: row.created_at.toISOString(),
  };
}

export class EndpointsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sandboxTargets: TargetPolicy,
    private readonly wake: () => void = () => undefined,
    /** The event streams of this process look at once (others find the row by polling). */
    private readonly wakeStreams: () => void = () => undefined,
  ) {}

  private checkEvents(types: string[], groupings: readonly Grouping[]): string[] {
    if (types.includes('*')) {
      if (types.length > 1) {
        throw new ApiError(
          'parameter_invalid',
          'enabled_events: "*" cannot be combined with other types.',
          'enabled_events',
        );
      }
      return ['*'];
    }
    const catalogue = new Set<string>(eventTypesFor(groupings));
    for (const type of types) {
      if (!catalogue.has(type)) {
        throw new ApiError(
          'parameter_invalid',
          `enabled_events: '${type}' is not an event type of this account's groupings.`,
          'enabled_events',
        );
      }
    }
    return [...new Set(types)];
  }

  private async checkUrl(tenant: Tenant, raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ApiError('parameter_invalid', 'url must be an absolute http(s) URL.', 'url');
    }
    try {
      // Private targets are an operator allowance for sandbox endpoints; live stays strict.
      await checkTarget(url, tenant.livemode ? { allowPrivate: false } : this.sandboxTargets);
    } catch (error) {
      if (error instanceof TargetRefused) throw new ApiError('parameter_invalid', `${error.message}.`, 'url');
      throw error;
    }
    return url.toString();
  }

  /** `tx` on every write here: the idempotent request's transaction (docs/adr/0015). */
  async create(tenant: Tenant, groupings: readonly Grouping[], dto: CreateWebhookEndpointDto, tx?: Tx) {
    const events = this.checkEvents(dto.enabled_events, groupings);
    const url = await this.checkUrl(tenant, dto.url);
    const now = this.clock.now();
    const [row] = await (tx ?? this.db).query<EndpointRow>(
      `insert into webhooks.endpoints (id, account_id, livemode, url, description, enabled_events, secret, metadata, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) returning *`,
      [
        newId('we'),
        tenant.account,
        tenant.livemode,
        url,
        dto.description ?? null,
        events,
        newSecret(),
        dto.metadata ?? {},
        now,
      ],
    );
    return serializeEndpoint(row, true);
  }

  private async row(tenant: Tenant, id: string, tx?: Tx): Promise<EndpointRow> {
    return findOwned<EndpointRow>(tx ?? this.db, 'webhooks.endpoints', tenant, id, 'webhook endpoint');
  }

  async get(tenant: Tenant, id: string) {
    return serializeEndpoint(await this.row(tenant, id));
  }

  async list(tenant: Tenant, query: ListQuery) {
    const page = await paginateOwned<EndpointRow>(this.db, tenant, {
      table: 'webhooks.endpoints',
      list: query,
      url: '/v1/webhooks',
    });
    return listOf(page, (r) => serializeEndpoint(r));
  }

  async update(
    tenant: Tenant,
    groupings: readonly Grouping[],
    id: string,
    dto: UpdateWebhookEndpointDto,
    tx?: Tx,
  ) {
    const current = await this.row(tenant, id, tx);
    const events = dto.enabled_events
      ? this.checkEvents(dto.enabled_events, groupings)
      : current.enabled_events;
    const url = dto.url !== undefined ? await this.checkUrl(tenant, dto.url) : current.url;
    const status = dto.disabled === undefined ? current.status : dto.disabled ? 'disabled' : 'enabled';
    const reason =
      dto.disabled === undefined ? current.disabled_reason : dto.disabled ? 'disabled by the account' : null;
    const [row] = await (tx ?? this.db).query<EndpointRow>(
      `update webhooks.endpoints set url = $3, enabled_events = $4, description = $5, status = $6,
         disabled_reason = $7, metadata = metadata || $8::jsonb, updated_at = $9
       where id = $1 and account_id = $2 returning *`,
      [
        id,
        tenant.account,
        url,
        events,
        dto.description ?? current.description,
        status,
        reason,
        dto.metadata ?? {},
        this.clock.now(),
      ],
    );
    return serializeEndpoint(row);
  }

  async remove(tenant: Tenant, id: string): Promise<DeletedWebhookEndpoint> {
    await this.row(tenant, id);
    await this.db.query('delete from webhooks.endpoints where id = $1 and account_id = $2', [
      id,
      tenant.account,
    ]);
    return { id, object: 'webhook_endpoint' as const, deleted: true as const };
  }

  async rotateSecret(tenant: Tenant, id: string, tx?: Tx) {
    await this.row(tenant, id, tx);
    const now = this.clock.now();
    const [row] = await (tx ?? this.db).query<EndpointRow>(
      `update webhooks.endpoints set previous_secret = secret, previous_secret_expires_at = $3,
         secret = $4, updated_at = $5 where id = $1 and account_id = $2 returning *`,
      [id, tenant.account, new Date(now.getTime() + SECRET_OVERLAP_MS), newSecret(), now],
    );
    return serializeEndpoint(row, true);
  }

  private async withAttempts(rows: DeliveryRow[], db: Queryable = this.db) {
    const attempts = rows.length
      ? await db.query<AttemptRow>(
          `select delivery_id, attempted_at, status_code, latency_ms, response_excerpt, error
           from webhooks.delivery_attempts where delivery_id = any($1) order by id`,
          [rows.map((r) => r.id)],
        )
      : [];
    return rows.map((r) =>
      serializeDelivery(
        r,
        attempts.filter((a) => a.delivery_id === r.id),
      ),
    );
  }

  async deliveries(tenant: Tenant, id: string, query: ListQuery) {
    await this.row(tenant, id);
    const url = `/v1/webhooks/${id}/deliveries`;
    // One snapshot, so a delivery and its attempts agree while an attempt is being recorded.
    return this.db.ownTransaction(
      async (tx) => {
        const page = await paginate<DeliveryRow>(tx, {
          table: 'webhooks.deliveries',
          where: ['account_id = $1', 'livemode = $2', 'endpoint_id = $3'],
          params: [tenant.account, tenant.livemode, id],
          list: query,
          url,
        });
        return {
          object: 'list' as const,
          data: await this.withAttempts(page.rows, tx),
          has_more: page.has_more,
          url,
        };
      },
      { isolation: 'REPEATABLE READ' },
    );
  }

  async retry(tenant: Tenant, id: string, deliveryId: string, tx?: Tx) {
    await this.row(tenant, id, tx);
    const now = this.clock.now();
    const [row] = await (tx ?? this.db).query<DeliveryRow & { object_id: string | null; seq: string }>(
      `update webhooks.deliveries set status = 'pending', next_attempt_at = $4, lease_until = null, updated_at = $4
       where id = $1 and endpoint_id = $2 and account_id = $3 returning *`,
      [deliveryId, id, tenant.account, now],
    );
    if (!row) throw notFound('delivery', deliveryId, 'delivery_id');
    // The deliveries queued behind it waited for its scheduled retry: due again now.
    await followHead(tx ?? this.db, row, now);
    this.wake();
    return (await this.withAttempts([row], tx))[0];
  }

  /**
   * Test mode only (the sandbox's test helper): the endpoint is disabled now as the delivery
   * worker disables one whose deliveries all failed for 5 days, `webhook_endpoint.disabled`
   * included (disable-failing.ts). A live key sees no endpoint here (404); an endpoint that is
   * not enabled is 409.
   */
  async disableAsFailing(tenant: Tenant, id: string, requestTx?: Tx) {
    if (tenant.livemode) throw notFound('webhook endpoint', id);
    const row = await this.db.transaction(
      async (tx) => {
        const now = this.clock.now();
        const [current] = await tx.query<EndpointRow>(
          'select * from webhooks.endpoints where id = $1 and account_id = $2 and livemode = $3 for update',
          [id, tenant.account, tenant.livemode],
        );
        if (!current) throw notFound('webhook endpoint', id);
        const disabled = await disableFailingEndpoint(tx, id, now);
        if (!disabled) {
          throw new ApiError(
            'invalid_state_transition',
            `Only an enabled endpoint can be disabled this way; this one is ${current.status}.`,
          );
        }
        return disabled;
      },
      { in: requestTx },
    );
    return serializeEndpoint(row);
  }

  /**
   * Queues a test event (type `webhook_endpoint.test`) to the endpoint. It is no event of the
   * event log (/v1/events never lists it, no other endpoint receives it), but the account's
   * event streams show it (`paygrid listen`), so a developer sees the test arrive: its row in
   * webhooks.events gives it a stream position, and the event log's reads leave it out
   * (DELIVERY_ONLY_EVENT_TYPES). Both rows are written in one transaction.
   */
  async test(tenant: Tenant, id: string, requestTx?: Tx) {
    const endpoint = await this.row(tenant, id, requestTx);
    const now = this.clock.now();
    const event = {
      id: newSortableId('evt'),
      object: 'event',
      type: 'webhook_endpoint.test',
      created_at: now.toISOString(),
      livemode: tenant.livemode,
      account: tenant.account,
      data: { object: serializeEndpoint(endpoint) },
    };
    const row = await this.db.transaction(
      async (tx) => {
        await tx.query(
          `insert into webhooks.events (id, account_id, livemode, type, payload, created_at)
         values ($1, $2, $3, $4, $5, $6)`,
          [event.id, tenant.account, tenant.livemode, event.type, event, now],
        );
        const [delivery] = await tx.query<DeliveryRow>(
          `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, payload, account_id, livemode,
           next_attempt_at, created_at, updated_at)
         values ($1, $2, $3, $4, null, $5, $6, $7, $8, $8, $8) returning *`,
          [newId('del'), id, event.id, event.type, event, tenant.account, tenant.livemode, now],
        );
        return delivery;
      },
      { in: requestTx },
    );
    this.wake();
    this.wakeStreams();
    return (await this.withAttempts([row], requestTx))[0];
  }
}
