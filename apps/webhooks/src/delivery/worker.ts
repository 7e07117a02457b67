// The delivery worker: claims due deliveries with FOR UPDATE SKIP LOCKED in a short
// transaction (taking a lease), POSTs them outside any transaction (over kept-alive
// connections, one set per target policy), records each attempt and
// schedules the next. Several instances share the queue; a crash loses nothing (the lease
// expires and the delivery is claimed again: at-least-once). Deliveries that may go at once
// are leased by the event's intake instead and handed over after its commit (reserve,
// handOver): posted the same way, with no claim.

import {
  failSpan,
  requestTransaction,
  SpanKind,
  startSpan,
  traceparentOf,
  tracingEnabled,
  type Clock,
  type Database,
  type Logger,
  type Tx,
} from '@paygrid/platform';
import { DISABLE_AFTER_MS, disableFailingEndpoint } from '../endpoints/disable-failing';
import type { EndpointRow } from '../endpoints/endpoint';
import { anyClaimable, claimDue, followHead, releaseExpiredLeases, type Claimed } from './claim';
import { DeliveredRecorder } from './delivered';
import { deliveryAgents, post, type AttemptResult } from './post';
import { nextAttemptAt } from './schedule';
import { signatureHeader } from './signing';
import type { TargetPolicy } from './ssrf';

export const LEASE_MS = 60_000;
/**
 * Deliveries per claim. Claims run one after another, so with a backlog an instance delivers
 * at most BATCH per claim's round trip: at 20 one instance held 65 of its 200 slots on average,
 * its claims always full (bench/README.md finding 36); at 50 it drained about 20 % faster.
 */
const BATCH = 50;
const POLL_MS = 200;
/** Deliveries in flight per instance by default (WEBHOOKS_MAX_IN_FLIGHT); beyond it the instance claims no more. */
export const MAX_IN_FLIGHT = 200;
/**
 * Deliveries in flight per endpoint, across instances: checked at claim time against the
 * leases taken; two instances claiming at the same instant can each fill the remaining slots.
 */
export const PER_ENDPOINT_IN_FLIGHT = 10;
/** An endpoint whose deliveries have all failed for this long is disabled. */
export { DISABLE_AFTER_MS };

export class DeliveryWorker {
  private timer?: NodeJS.Timeout;
  private running = false;
  private again = false;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Slots promised to deliveries being leased at intake, not yet handed over (reserve). */
  private reserved = 0;
  /**
   * The last claim took nothing and nothing due was left unleased, and nothing has woken the
   * worker since: a delivery that finishes frees no slot anything waits for, so it claims
   * nothing. With the intake leasing most deliveries, each one's end woke a claim that found
   * nothing: 0.6 claims per payment link at 200/s, each planned (bench/README.md finding 60).
   */
  private idle = false;
  /** Told of every attempt made (the service's metrics: attempts, outcome, latency). */
  onAttempt?: (livemode: boolean, result: AttemptResult) => void;

  private readonly delivered: DeliveredRecorder;
  private leasesCheckedAt = 0;
  /** Kept-alive connections, apart per target policy (deliveryAgents). */
  private readonly agents = { live: deliveryAgents(), sandbox: deliveryAgents() };

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly sandboxTargets: TargetPolicy,
    private readonly maxInFlight = MAX_IN_FLIGHT,
  ) {
    this.delivered = new DeliveredRecorder(db, () => clock.now(), logger);
  }

  start(): void {
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.inFlight]);
    for (const agents of Object.values(this.agents)) {
      agents.http.destroy();
      agents.https.destroy();
    }
  }

  /**
   * Runs a claim round now (or right after the current one): there may be work (an event
   * queued deliveries the intake did not lease, a retry by hand, the poll).
   */
  wake = (): void => {
    this.idle = false;
    this.claimSoon();
  };

  private claimSoon(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    // Woken from a request handler (test, retry), the round would inherit the request's
    // AsyncLocalStorage transaction and its queries would join it: a delivery stuck behind a
    // released query runner (issue 12 finding 6). The round runs outside any request context.
    requestTransaction
      .exit(() => this.round())
      .catch((err: unknown) => this.logger.error({ err }, 'webhook delivery round failed'))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.claimSoon();
        }
      });
  }

  /** This instance's slots not taken by a delivery in flight or promised to one. */
  private free(): number {
    return this.maxInFlight - this.inFlight.size - this.reserved;
  }

  private async round(): Promise<void> {
    if (this.free() <= 0) return;
    const claimed = await this.claim(Math.min(BATCH, this.free()));
    for (const delivery of claimed) this.run(delivery);
    // Claim again at once until a round finds nothing: a round may stop short of BATCH when
    // endpoints run out of slots while other endpoints still have due deliveries.
    if (claimed.length > 0) {
      this.again = true;
      this.idle = false;
    }
    // Found nothing: idle unless something due waits for a slot (of its endpoint, or behind
    // an earlier delivery of its object), which a delivery that finishes may free.
    else this.idle = !(await anyClaimable(this.db, this.clock.now()));
  }

  /**
   * Up to `wanted` of this instance's free slots, for deliveries the event intake leases in
   * its own statement (EventLog.record): none while the worker is not running, since nothing
   * would post them before their lease ran out. Each slot stays taken until `release` gives
   * it back or `handOver` gives it a delivery.
   */
  reserve(wanted: number): number {
    if (!this.timer || this.stopped) return 0;
    const slots = Math.max(0, Math.min(wanted, this.free()));
    this.reserved += slots;
    return slots;
  }

  /** Reserved slots not used after all (fewer deliveries leased, or none committed). */
  release(slots: number): void {
    this.reserved -= slots;
  }

  /**
   * Deliveries leased at intake and committed, one reserved slot each: posted now, as a
   * claim's are. Stopped, the worker leaves them to their leases, which run out and make them
   * claimable again.
   */
  handOver(deliveries: Claimed[]): void {
    this.reserved -= deliveries.length;
    if (this.stopped) return;
    // Outside the caller's context, as a round is (wake).
    requestTransaction.exit(() => deliveries.forEach((delivery) => this.run(delivery)));
  }

  private run(delivery: Claimed): void {
    const work = this.deliver(delivery).catch((err: unknown) =>
      this.logger.error({ err, delivery: delivery.id }, 'webhook delivery failed'),
    );
    this.inFlight.add(work);
    // A finished delivery frees a slot of its endpoint and of this instance: claim again
    // now rather than at the next poll, which held a full instance idle for up to POLL_MS;
    // unless the last claim found nothing waiting (idle).
    void work.finally(() => {
      this.inFlight.delete(work);
      if (!this.idle) this.claimSoon();
    });
  }

  private async claim(limit: number): Promise<Claimed[]> {
    const now = this.clock.now();
    // A lease that ran out (its instance died, or never recorded the attempt) makes its
    // delivery claimable again; looked for at most once a second (claim.ts).
    if (now.getTime() - this.leasesCheckedAt >= 1_000) {
      this.leasesCheckedAt = now.getTime();
      await releaseExpiredLeases(this.db, now);
    }
    return claimDue(this.db, now, new Date(now.getTime() + LEASE_MS), limit, PER_ENDPOINT_IN_FLIGHT);
  }

  private async deliver(delivery: Claimed): Promise<void> {
    if (delivery.endpoint_status !== 'enabled') {
      await this.db.query(
        `update webhooks.deliveries set status = 'failed', lease_until = null, updated_at = $2 where id = $1`,
        [delivery.id, this.clock.now()],
      );
      return;
    }
    const body = JSON.stringify(delivery.payload);
    const now = this.clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const secrets = [delivery.secret];
    if (
      delivery.previous_secret &&
      delivery.previous_secret_expires_at &&
      new Date(delivery.previous_secret_expires_at) > now
    ) {
      secrets.push(delivery.previous_secret);
    }
    // The attempt is a client span of the event's trace (tracing on and the delivery queued in
    // a traced consumer); the endpoint gets its traceparent, which the signature does not cover.
    const span =
      delivery.trace_context && tracingEnabled()
        ? startSpan('webhook delivery', SpanKind.CLIENT, delivery.trace_context, {
            'paygrid.delivery_id': delivery.id,
            'paygrid.event_id': delivery.event_id,
            'paygrid.endpoint_class': delivery.livemode ? 'live' : 'test',
            'paygrid.attempt': delivery.attempts + 1,
          })
        : undefined;
    const traceparent = traceparentOf(span);
    const result = await post(
      delivery.url,
      {
        'webhook-id': delivery.event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, delivery.event_id, timestamp, body),
        'user-agent': 'Paygrid-Webhooks/1',
        ...(traceparent ? { traceparent } : {}),
      },
      body,
      delivery.livemode ? { allowPrivate: false } : this.sandboxTargets,
      delivery.livemode ? this.agents.live : this.agents.sandbox,
    );
    if (span) {
      if (result.statusCode !== undefined) span.setAttribute('http.response.status_code', result.statusCode);
      const ok = result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
      if (!ok) failSpan(span, new Error(result.error ?? `endpoint answered ${result.statusCode}`));
      span.end();
    }
    this.onAttempt?.(delivery.livemode, result);
    await this.record(delivery, now, result);
  }

  private async record(delivery: Claimed, attemptedAt: Date, result: AttemptResult): Promise<void> {
    const status = result.statusCode;
    const ok = status !== undefined && status >= 200 && status < 300;
    const attempts = delivery.attempts + 1;
    if (ok) {
      // With the other successes of the moment, in one statement (delivered.ts).
      return this.delivered.record({
        deliveryId: delivery.id,
        attemptedAt,
        statusCode: status,
        latencyMs: result.latencyMs,
        excerpt: result.excerpt ?? null,
        error: result.error ?? null,
        attempts,
      });
    }
    const at = this.clock.now();
    await this.db.ownTransaction(async (tx) => {
      // The endpoint (and with it this delivery) may have been deleted while the POST ran:
      // then there is nothing to record (it was a foreign-key error, logged with its SQL, on
      // every such attempt). The row lock keeps a delete from landing between check and write.
      const [live] = await tx.query('select 1 from webhooks.deliveries where id = $1 for update', [
        delivery.id,
      ]);
      if (!live) {
        this.logger.debug({ delivery: delivery.id }, 'endpoint deleted during a delivery; attempt discarded');
        return;
      }
      await tx.query(
        `insert into webhooks.delivery_attempts (delivery_id, attempted_at, status_code, latency_ms, response_excerpt, error)
         values ($1, $2, $3, $4, $5, $6)`,
        [
          delivery.id,
          attemptedAt,
          status ?? null,
          result.latencyMs,
          result.excerpt ?? null,
          result.error ??
            (status !== undefined && status >= 300 && status < 400 ? 'redirects are not followed' : null),
        ],
      );
      await this.noteFailure(tx, delivery.endpoint_id, attemptedAt, at);
      if (status === 410) {
        await tx.query(
          `update webhooks.endpoints set status = 'disabled', disabled_reason = 'the endpoint answered 410 Gone',
             updated_at = $2 where id = $1`,
          [delivery.endpoint_id, at],
        );
        await tx.query(
          `update webhooks.deliveries set status = 'failed', attempts = $2, next_attempt_at = null,
             lease_until = null, updated_at = $3 where id = $1`,
          [delivery.id, attempts, at],
        );
        this.logger.warn({ endpoint: delivery.endpoint_id }, 'webhook endpoint disabled: 410 Gone');
        return;
      }
      const next = nextAttemptAt(delivery.livemode, attempts, at);
      await tx.query(
        `update webhooks.deliveries set status = $2, attempts = $3, next_attempt_at = $4,
           lease_until = null, updated_at = $5 where id = $1`,
        [delivery.id, next ? 'pending' : 'failed', attempts, next ?? null, at],
      );
      if (next) await followHead(tx, delivery, next);
    });
  }

  /**
   * Remembers since when the endpoint fails; after 5 days without a success it is disabled,
   * with a `webhook_endpoint.disabled` event and an operator log line.
   */
  private async noteFailure(tx: Tx, endpointId: string, attemptedAt: Date, at: Date): Promise<void> {
    const [row] = await tx.query<EndpointRow & { failing_since: Date }>(
      `update webhooks.endpoints set failing_since = coalesce(failing_since, $2)
       where id = $1 returning *`,
      [endpointId, attemptedAt],
    );
    if (!row || row.status !== 'enabled') return;
    if (at.getTime() - new Date(row.failing_since).getTime() < DISABLE_AFTER_MS) return;
    const disabled = await disableFailingEndpoint(tx, endpointId, at);
    if (!disabled) return;
    this.logger.warn(
      { endpoint: endpointId, account: disabled.account_id, failing_since: row.failing_since },
      'webhook endpoint disabled: every delivery failed for 5 days',
    );
  }
}
