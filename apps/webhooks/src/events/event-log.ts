// The event log: every public event from every *.events.v1 topic, stored once (the event id
// is the primary key and the inbox records the message), served by /v1/events, and kept
// for at least 30 days. The table also holds the test events sent to one endpoint
// (webhook_endpoint.test), for the event streams only: the reads here leave them out.

import { DELIVERY_ONLY_EVENT_TYPES, type EventEnvelope } from '@paygrid/contracts';
import {
  newId,
  notFound,
  paginate,
  systemClock,
  type Clock,
  type Database,
  type ListQuery,
  type Tx,
  type Tenant,
  traceparentOf,
  listOf,
} from '@paygrid/platform';

export const EVENT_LOG_CONSUMER = 'webhooks.event-log';
export const RETENTION_DAYS = 30;

interface EventRow {
  id: string;
  payload: EventEnvelope;
}

export class EventLog {
  /** Called after a new event queued deliveries (the in-process worker wakes on it). */
  onDeliveries: () => void = () => undefined;
  /** Called after an event was recorded (the event streams of this process look at once). */
  onRecorded: () => void = () => undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * One event of any *.events.v1 topic (EventLogConsumer, inside its inbox transaction), and
   * one delivery per enabled endpoint subscribed to it. Two statements at most: the event's
   * insert answers the endpoints to deliver it to (none when the event was there already),
   * and their deliveries are one insert (an account's endpoints are as many as it likes).
   */
  async record(event: EventEnvelope, tx: Tx): Promise<void> {
    const [{ recorded, endpoints }] = await tx.query<{ recorded: boolean; endpoints: string[] }>(
      `with event as (
         insert into webhooks.events (id, account_id, livemode, type, payload, created_at)
         values ($1, $2, $3, $4, $5, $6) on conflict (id) do nothing returning id
       )
       select exists (select 1 from event) as recorded,
              array(select e.id from webhooks.endpoints e
                    where exists (select 1 from event)
                      and e.account_id = $2 and e.livemode = $3 and e.status = 'enabled'
                      and ($4 = any(e.enabled_events) or '*' = any(e.enabled_events))
                    order by e.id) as endpoints`,
      [event.id, event.account, event.livemode, event.type, event, event.created_at],
    );
    if (!recorded) return;
    if (endpoints.length) await this.fanOut(event, endpoints, tx);
    // The streams read it once the transaction commits (they poll too).
    tx.afterCommit(() => this.onRecorded());
  }

  /** The event's deliveries to `endpoints`, in the event's transaction. */
  private async fanOut(event: EventEnvelope, endpoints: string[], tx: Tx): Promise<void> {
    const objectId = typeof event.data.object.id === 'string' ? event.data.object.id : null;
    const now = this.clock.now();
    await tx.query(
      // Queued behind a pending delivery of the same endpoint and object, one waits for that
      // one's next attempt at the earliest, out of the claim's walk (claim.ts followHead).
      `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, account_id, livemode,
         next_attempt_at, created_at, updated_at, trace_context)
       select d.id, d.endpoint_id, $3, $4, $5, $6, $7,
         greatest($8, (select max(p.next_attempt_at) from webhooks.deliveries p
                       where p.endpoint_id = d.endpoint_id and p.object_id = $5 and p.status = 'pending')),
         $8, $8, $9
       from unnest($1::text[], $2::text[]) as d (id, endpoint_id)
       on conflict (endpoint_id, event_id) do nothing`,
      [
        endpoints.map(() => newId('del')),
        endpoints,
        event.id,
        event.type,
        objectId,
        event.account,
        event.livemode,
        now,
        // The consumer's span (tracing on): the delivery continues the event's trace.
        traceparentOf() ?? null,
      ],
    );
    // The worker can claim the rows once the transaction commits: woken then, not on a guess
    // (a 10 ms timer woke it before a commit that took longer, and the delivery waited for the
    // worker's next 200 ms poll).
    tx.afterCommit(() => this.onDeliveries());
  }

  async get(tenant: Tenant, id: string): Promise<EventEnvelope> {
    const [row] = await this.db.query<EventRow>(
      `select id, payload from webhooks.events where id = $1 and account_id = $2 and livemode = $3
         and type <> all($4::text[])`,
      [id, tenant.account, tenant.livemode, DELIVERY_ONLY_EVENT_TYPES],
    );
    if (!row) throw notFound('event', id);
    return row.payload;
  }

  async list(tenant: Tenant, query: ListQuery & { type?: string }) {
    // A test event sent to one endpoint has a row for the event streams only (EndpointsService.test).
    const where = ['account_id = $1', 'livemode = $2', 'type <> all($3::text[])'];
    const params: unknown[] = [tenant.account, tenant.livemode, DELIVERY_ONLY_EVENT_TYPES];
    if (query.type) {
      // `type=invoice.*` matches a family of events.
      params.push(query.type.endsWith('.*') ? `${query.type.slice(0, -1)}%` : query.type);
      where.push(query.type.endsWith('.*') ? `type like $${params.length}` : `type = $${params.length}`);
    }
    const page = await paginate<EventRow>(this.db, {
      table: 'webhooks.events',
      where,
      params,
      list: query,
      url: '/v1/events',
      columns: 'id, payload, created_at',
    });
    return listOf(page, (r) => r.payload);
  }

  async prune(now: Date): Promise<number> {
    const rows = await this.db.query(
      `delete from webhooks.events where created_at < $1::timestamptz - make_interval(days => $2) returning id`,
      [now, RETENTION_DAYS],
    );
    return rows.length;
  }
}
