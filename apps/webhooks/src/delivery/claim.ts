// How a delivery worker takes work: the claim of due deliveries and the release of leases
// that ran out. Both are single statements (no transaction around them). A delivery that may
// go at once is leased by the event's intake instead (EventLog.record) and never claimed,
// unless its lease runs out.

import type { Database, Tx } from '@paygrid/platform';

export interface Claimed {
  id: string;
  livemode: boolean;
  attempts: number;
  event_id: string;
  url: string;
  endpoint_status: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  payload: unknown;
  endpoint_id: string;
  /** The object the event is about (null: no per-object order), and the delivery's place. */
  object_id: string | null;
  seq: string;
  trace_context: string | null;
}

/**
 * Claims up to `batch` due deliveries with FOR UPDATE SKIP LOCKED, leasing them until
 * `leaseUntil`. A delivery is due when it is pending, not leased, its time has come, no earlier
 * one for the same endpoint and object is pending, and its endpoint has fewer than
 * `perEndpoint` leased. Unleased due rows are walked in order from their own partial index
 * (deliveries_claimable): the rows in flight are not in it, so a claim no longer reads past
 * them (bench/README.md finding 20). The leased counts are taken once per claim (index
 * deliveries_leased: only in-flight rows), not per candidate; `ranked` keeps one claim from
 * taking more than an endpoint's remaining slots.
 *
 * Its cost must not hang on the statistics: a burst queued after an ANALYZE that saw no
 * pending row is estimated at one row, and on those estimates PostgreSQL joined the backlog to
 * itself (one claim of 20 over 4,000 queued took 9.3 s: bench/README.md finding 34). So the
 * leased counts are MATERIALIZED (taken once, never rescanned per candidate), and the
 * per-object check stays a subquery run per candidate (OFFSET 0 keeps it from being turned into
 * a join) in deliveries_order's order, which only that index gives without a sort: an index
 * probe of the candidate's endpoint and object, whatever the estimates. deliveries_order holds
 * only deliveries with an object (migration 460), so it is no way to walk the backlog either
 * (tests/plans/delivery-claim-burst.test.ts).
 */
export function claimDue(
  db: Database,
  now: Date,
  leaseUntil: Date,
  batch: number,
  perEndpoint: number,
): Promise<Claimed[]> {
  return db.query<Claimed>(
    `with leased as materialized (
       select l.endpoint_id, count(*)::int as n from webhooks.deliveries l
       where l.status = 'pending' and l.lease_until is not null and l.lease_until > $1
       group by l.endpoint_id),
     due as (
       select d.id, d.endpoint_id, d.next_attempt_at, d.seq
       from webhooks.deliveries d
       where d.status = 'pending' and d.lease_until is null and d.next_attempt_at <= $1
         and d.endpoint_id <> all (coalesce((select array_agg(endpoint_id) from leased where n >= $4), '{}'))
         and not exists (
           select 1 from webhooks.deliveries p
           where p.endpoint_id = d.endpoint_id and p.object_id = d.object_id
             and p.status = 'pending' and p.seq < d.seq
           order by p.endpoint_id, p.object_id, p.seq
           offset 0)
       order by d.next_attempt_at, d.seq
       limit $3
       for update of d skip locked),
     ranked as (
       select due.id, coalesce(leased.n, 0)
           + row_number() over (partition by due.endpoint_id order by due.next_attempt_at, due.seq) as slot
       from due left join leased on leased.endpoint_id = due.endpoint_id)
     update webhooks.deliveries d set lease_until = $2, last_attempt_at = $1
     from ranked, webhooks.endpoints e
     where d.id = ranked.id and ranked.slot <= $4 and e.id = d.endpoint_id
     returning d.id, d.livemode, d.attempts, d.event_id, d.endpoint_id, d.object_id, d.seq::text as seq, e.url, e.status as endpoint_status,
       e.secret, e.previous_secret, e.previous_secret_expires_at, d.trace_context,
       coalesce(d.payload, (select payload from webhooks.events ev where ev.id = d.event_id)) as payload`,
    [now, leaseUntil, batch, perEndpoint],
    // Planned for each claim: a generic plan cached while the queue was empty read every
    // queued delivery per candidate (the anti-join and the leased counts without their index
    // conditions) once a backlog came, until autoanalyze: 10-60 ms a claim, a third of the
    // deliveries per second (bench/README.md finding 33). The rewrite above bounds the custom
    // plans, not a generic one: made on the statistics of an empty table and run over 4,000
    // queued, it read 8.1 million rows for one claim of 20 (93,631 on those of 200 delivered
    // rows), a Seq Scan per candidate: a plan made on a small table scans it. The plan suite
    // runs the claim on every plan it may get, generic ones too should it ever go named.
    { planEachTime: true },
  );
}

/**
 * Whether a delivery is due and unleased (one the claim looked at, whether or not it could take
 * it): the first entry of deliveries_claimable, the claim's own index. Asked after a claim that
 * took nothing, so the worker knows whether a delivery that finishes may have freed a slot
 * something waits for (worker.ts `idle`).
 */
export async function anyClaimable(db: Database, now: Date): Promise<boolean> {
  const [{ due }] = await db.query<{ due: boolean }>(
    `select exists (select 1 from webhooks.deliveries
       where status = 'pending' and lease_until is null and next_attempt_at <= $1) as due`,
    [now],
  );
  return due;
}

/**
 * Ends the leases that ran out by `now`: their deliveries become claimable again (the attempt
 * was lost with its instance; at-least-once). Rows locked at that moment (an attempt being
 * recorded late) are left for the next time. Returns how many were released.
 */
export async function releaseExpiredLeases(db: Database, now: Date): Promise<number> {
  const rows = await db.query(
    `update webhooks.deliveries set lease_until = null
     where id in (
       select id from webhooks.deliveries
       where status = 'pending' and lease_until is not null and lease_until <= $1
       for update skip locked)
     returning id`,
    [now],
  );
  return rows.length;
}

/**
 * A delivery queued behind an earlier pending one of the same endpoint and object (a
 * follower) cannot go before it. When that earlier one (the head) is scheduled again, after a
 * failure (worker.ts) or by hand (endpoints.service.ts retry, `at` = now), its followers are
 * moved to the head's next attempt: otherwise they stay due and unleased, in
 * deliveries_claimable, and every claim walks past all of them (a failing endpoint's backlog
 * made each claim cost 14.5 ms on PGlite: bench/README.md finding 24). The order itself is
 * still kept by claimDue's `not exists`; only when a follower is looked at changes.
 */
export async function followHead(
  db: Tx | Database,
  head: { endpoint_id: string; object_id: string | null; seq: string },
  at: Date,
): Promise<void> {
  if (!head.object_id) return;
  // The head's own values, not a join to its row: the planner then walks deliveries_order
  // (endpoint_id, object_id, seq) for this one object (a join measured 21 ms per call on PGlite).
  await db.query(
    `update webhooks.deliveries set next_attempt_at = $4
     where endpoint_id = $1 and object_id = $2 and status = 'pending' and seq > $3
       and next_attempt_at <> $4`,
    [head.endpoint_id, head.object_id, head.seq, at],
  );
}
