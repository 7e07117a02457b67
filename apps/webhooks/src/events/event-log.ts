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

import type { Claimed } from '../delivery/claim';
import { LEASE_MS, PER_ENDPOINT_IN_FLIGHT, type DeliveryWorker } from '../delivery/worker';

export const EVENT_LOG_CONSUMER = 'webhooks.event-log';
export const RETENTION_DAYS = 30;
/**
 * Delivery ids carried by each event's statement (EventLog.record): most accounts have one or
 * two endpoints, and an id left unused is never stored.
 */
export const FAN_OUT_IDS = 4;

/** The object an event is about, whose deliveries keep their order per endpoint (null: none). */
const objectOf = (event: EventEnvelope): string | null =>
  typeof event.data.object.id === 'string' ? event.data.object.id : null;

/** Who posts the deliveries the intake leases: this instance's worker (DeliveryWorker). */
export type DeliveryLessee = Pick<DeliveryWorker, 'reserve' | 'release' | 'handOver'>;

/** A delivery leased by the intake's statement, with its endpoint's part of a claim's row. */
type LeasedAtIntake = Pick<Claimed, 'id' | 'endpoint_id' | 'seq' | 'url' | 'secret' | 'previous_secret'> & {
  previous_secret_expires_at: string | null;
};

/** A delivery leased at intake as a claim would have returned it: its first attempt, of `event`. */
const claimedAtIntake = (d: LeasedAtIntake, event: EventEnvelope, trace: string | null): Claimed => ({
  id: d.id,
  endpoint_id: d.endpoint_id,
  seq: d.seq,
  url: d.url,
  secret: d.secret,
  previous_secret: d.previous_secret,
  previous_secret_expires_at: d.previous_secret_expires_at ? new Date(d.previous_secret_expires_at) : null,
  livemode: event.livemode,
  attempts: 0,
  event_id: event.id,
  endpoint_status: 'enabled',
  payload: event,
  object_id: objectOf(event),
  trace_context: trace,
});

interface EventRow {
  id: string;
  payload: EventEnvelope;
}

export class EventLog {
  /** Called after a new event queued deliveries left for the claim (the in-process worker wakes on it). */
  onDeliveries: () => void = () => undefined;
  /** The worker that posts the deliveries the intake leases (none: every delivery is claimed). */
  lessee?: DeliveryLessee;
  /** Called after an event was recorded (the event streams of this process look at once). */
  onRecorded: () => void = () => undefined;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * One event of any *.events.v1 topic (EventLogConsumer, inside its inbox transaction), and
   * one delivery per enabled endpoint subscribed to it, in one statement: the event's insert,
   * its endpoints (none when the event was there already: a redelivered event queues nothing)
   * and their deliveries. It was two (the event's, then its deliveries'), and a statement costs
   * about 55 µs of this process's CPU in the pg client and 70 µs of PostgreSQL's outside the
   * executor (issue 15's measurements). The delivery ids are drawn here (newId) and ride with
   * the event, FAN_OUT_IDS of them: an account with more endpoints subscribed to the event has
   * its deliveries to the others queued by a second statement (fanOut). Picked by position,
   * not unnested, they also let PostgreSQL keep one plan per connection: the deliveries'
   * insert unnested the endpoints' ids, whose number a custom plan sees where a generic one
   * guesses ten, so every custom plan cost less and PostgreSQL planned it for every event
   * (issue 15: 1,532 plans for 1,532 calls; tests/plans/webhooks-planned-once.test.ts).
   *
   * A delivery that could go at once is leased by the same insert, for this instance's worker
   * (`lessee`), which posts it after the commit: no claim of its own (the claim, planned for
   * each call, and its update of the row were a quarter of PostgreSQL's time per payment link
   * at 200/s: bench/README.md finding 59). It goes at once when the worker has a slot free
   * (reserved before the statement, given back if the transaction does not commit), no
   * earlier delivery of the same endpoint and object is pending (the order the claim keeps),
   * and its endpoint has fewer than PER_ENDPOINT_IN_FLIGHT leased (the claim's limit, counted
   * the same way). The others are queued unleased for the claim, as before.
   */
  async record(event: EventEnvelope, tx: Tx): Promise<void> {
    const ids = Array.from({ length: FAN_OUT_IDS }, () => newId('del'));
    const now = this.clock.now();
    const lessee = this.lessee;
    const slots = lessee?.reserve(FAN_OUT_IDS) ?? 0;
    // Those still held are given back if the transaction does not commit (a failed statement
    // included); the commit hands them to the deliveries leased.
    let held = slots;
    if (lessee && slots) tx.afterRollback(() => lessee.release(held));
    const [{ recorded, waiting, more, leased }] = await tx.query<{
      recorded: boolean;
      waiting: boolean;
      more: string[];
      leased: LeasedAtIntake[] | null;
    }>(
      // Endpoints in id order, and their deliveries inserted in that order (their seq), as
      // when the endpoints were read first. Queued behind a pending delivery of the same
      // endpoint and object, one waits for that one's next attempt at the earliest, out of the
      // claim's walk (claim.ts followHead). An endpoint's id is collate "C" (ids sort bytewise),
      // a delivery's endpoint_id is not: compared as they are, the two leave the comparison
      // without a collation, which no index serves, and that probe read every queued delivery
      // per endpoint (40,164 rows for an event to two endpoints over 20,000 queued:
      // tests/plans/webhooks-planned-once.test.ts). The probe is ordered as deliveries_order
      // is (as the claim's is): on statistics taken before a backlog came, which count no
      // pending row, the plain max() was as cheap through deliveries_due to the planner, and
      // that walk read every queued delivery per endpoint and event, a burst quadratic until
      // autoanalyze (16,000 rows per endpoint over 16,000 queued). `behind` is null when no
      // delivery of the endpoint and object is pending (a pending one always has its
      // next_attempt_at). The leased count is the claim's, from deliveries_leased; its instant
      // goes in through a subquery, as the attempts' write's ids do (delivered.ts): given as it
      // is, a custom plan estimated the leases after it from the statistics where the generic
      // plan guesses a third of them, every custom plan cost less, and each event was planned.
      `with event as (
         insert into webhooks.events (id, account_id, livemode, type, payload, created_at)
         values ($1, $2, $3, $4, $5, $6) on conflict (id) do nothing returning id),
       subscribed as (
         select e.id collate "default" as id, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at,
           row_number() over (order by e.id) as n
         from webhooks.endpoints e
         where exists (select 1 from event)
           and e.account_id = $2 and e.livemode = $3 and e.status = 'enabled'
           and ($4 = any(e.enabled_events) or '*' = any(e.enabled_events))),
       placed as (
         select s.id, s.n, (select max(p.next_attempt_at) from (
                              select p.next_attempt_at from webhooks.deliveries p
                              where p.endpoint_id = s.id and p.object_id = $8 and p.status = 'pending'
                              order by p.endpoint_id, p.object_id, p.seq offset 0) p) as behind
         from subscribed s where s.n <= cardinality($7::text[])),
       lessable as (
         select placed.*, placed.n <= $11 and placed.behind is null
           and (select count(*) from webhooks.deliveries l
                where l.endpoint_id = placed.id and l.status = 'pending' and l.lease_until is not null
                  and l.lease_until > (select $9::timestamptz)) < $13 as lease
         from placed),
       queued as (
         insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, account_id, livemode,
           next_attempt_at, lease_until, last_attempt_at, created_at, updated_at, trace_context)
         select ($7::text[])[l.n], l.id, $1, $4, $8, $2, $3, greatest($9, l.behind),
           case when l.lease then $12::timestamptz end, case when l.lease then $9::timestamptz end,
           $9, $9, $10
         from lessable l
         order by l.n
         on conflict (endpoint_id, event_id) do nothing
         returning id, endpoint_id, seq, lease_until is not null as leased)
       select exists (select 1 from event) as recorded,
         exists (select 1 from queued where not leased) as waiting,
         array(select s.id from subscribed s where s.n > cardinality($7::text[]) order by s.n) as more,
         (select json_agg(json_build_object('id', q.id, 'endpoint_id', q.endpoint_id, 'seq', q.seq::text,
            'url', s.url, 'secret', s.secret, 'previous_secret', s.previous_secret,
            'previous_secret_expires_at', s.previous_secret_expires_at) order by q.seq)
          from queued q join subscribed s on s.id = q.endpoint_id where q.leased) as leased`,
      [
        event.id,
        event.account,
        event.livemode,
        event.type,
        event,
        event.created_at,
        ids,
        objectOf(event),
        now,
        // The consumer's span (tracing on): the delivery continues the event's trace.
        traceparentOf() ?? null,
        slots,
        new Date(now.getTime() + LEASE_MS),
        PER_ENDPOINT_IN_FLIGHT,
      ],
    );
    if (lessee && slots) {
      const trace = traceparentOf() ?? null;
      const deliveries = (leased ?? []).map((d) => claimedAtIntake(d, event, trace));
      lessee.release(slots - deliveries.length);
      held = deliveries.length;
      if (held) tx.afterCommit(() => lessee.handOver(deliveries));
    }
    if (!recorded) return;
    if (more.length) await this.fanOut(event, more, now, tx);
    // The worker can claim the rows once the transaction commits: woken then, not on a guess
    // (a 10 ms timer woke it before a commit that took longer, and the delivery waited for the
    // worker's next 200 ms poll).
    if (waiting || more.length) tx.afterCommit(() => this.onDeliveries());
    // The streams read it once the transaction commits (they poll too).
    tx.afterCommit(() => this.onRecorded());
  }

  /**
   * The event's deliveries to `endpoints` past the first FAN_OUT_IDS, in the event's
   * transaction (planned for each call, as the unnest of its ids makes it: a rare path).
   */
  private async fanOut(event: EventEnvelope, endpoints: string[], now: Date, tx: Tx): Promise<void> {
    await tx.query(
      // As in record: after a pending delivery of the same endpoint and object, not before it.
      `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, account_id, livemode,
         next_attempt_at, created_at, updated_at, trace_context)
       select d.id, d.endpoint_id, $3, $4, $5, $6, $7,
         greatest($8, (select max(p.next_attempt_at) from (
                         select p.next_attempt_at from webhooks.deliveries p
                         where p.endpoint_id = d.endpoint_id and p.object_id = $5 and p.status = 'pending'
                         order by p.endpoint_id, p.object_id, p.seq offset 0) p)),
         $8, $8, $9
       from unnest($1::text[], $2::text[]) as d (id, endpoint_id)
       on conflict (endpoint_id, event_id) do nothing`,
      [
        endpoints.map(() => newId('del')),
        endpoints,
        event.id,
        event.type,
        objectOf(event),
        event.account,
        event.livemode,
        now,
        traceparentOf() ?? null,
      ],
    );
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
