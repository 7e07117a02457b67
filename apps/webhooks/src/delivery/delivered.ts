// Successful attempts, recorded together: one statement writes every attempt that succeeded
// while the previous write ran (group commit), instead of a transaction of five statements per
// delivery. A delivery succeeds far more often than not, and at a few hundred deliveries a
// second those round trips, not the POSTs, were what an instance waited on (bench/README.md,
// finding 20). Failures keep their own transaction (worker.ts `record`): they schedule the
// next attempt and may disable the endpoint.

import { isRetryableTransactionError, type Database, type Logger } from '@paygrid/platform';

/** How much of an endpoint's answer an attempt keeps. */
export const EXCERPT_BYTES = 1024;

/**
 * What is kept of an answer: its first EXCERPT_BYTES as text, without NUL bytes, which
 * PostgreSQL text cannot hold: an answer with one made the attempt unrecordable, and the
 * delivery was sent again at the end of every lease.
 */
export const excerptOf = (chunks: Buffer[]): string =>
  Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').replaceAll('\0', '');

export interface DeliveredAttempt {
  deliveryId: string;
  attemptedAt: Date;
  statusCode: number;
  latencyMs: number;
  excerpt: string | null;
  error: string | null;
  /** The delivery's attempts, this one included. */
  attempts: number;
}

/** At most this many attempts per statement (its arrays stay small). */
const MAX_BATCH = 500;

/**
 * For each delivery still there (its endpoint may have been deleted while the POST ran, which
 * deletes its deliveries), in id order so two instances lock in the same order: the delivery's
 * row lock, then the attempt row, the delivery succeeded, and its endpoint's failing streak
 * ended. The row lock keeps a deletion from landing between the check and the writes.
 *
 * The ids go in through a subquery so that PostgreSQL plans the statement once per connection.
 * Given as they are, a custom plan saw how many they were (unnest of a constant array) where
 * the generic plan guesses ten, so for the one to few attempts of a usual write every custom
 * plan cost less and PostgreSQL never kept the generic one: each write was planned (issue 15:
 * 579 writes, 135 ms of planning for 131 ms of execution). Behind the subquery a custom plan
 * guesses ten too, never less than the generic plan, which is kept: a primary-key probe per
 * attempt (tests/plans/webhooks-planned-once.test.ts).
 */
const RECORD_DELIVERED = `
with input as (
  select * from unnest((select $1::text[]), $2::timestamptz[], $3::int[], $4::int[], $5::text[], $6::text[], $7::int[])
    as i(id, attempted_at, status_code, latency_ms, excerpt, error, attempts)),
live as (
  select d.id, d.endpoint_id from webhooks.deliveries d
  where d.id in (select id from input)
  order by d.id
  for update of d),
attempt as (
  insert into webhooks.delivery_attempts (delivery_id, attempted_at, status_code, latency_ms, response_excerpt, error)
  select i.id, i.attempted_at, i.status_code, i.latency_ms, i.excerpt, i.error
  from input i join live on live.id = i.id),
done as (
  update webhooks.deliveries d set status = 'succeeded', attempts = i.attempts, next_attempt_at = null,
    lease_until = null, updated_at = $8
  from input i join live on live.id = i.id
  where d.id = i.id),
cleared as (
  update webhooks.endpoints e set failing_since = null
  where e.id in (select endpoint_id from live) and e.failing_since is not null)
select id from live`;

export class DeliveredRecorder {
  private queue: { attempt: DeliveredAttempt; done: () => void }[] = [];
  private writing = false;

  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
    private readonly logger: Logger,
  ) {}

  /**
   * Resolves once the attempt is recorded (or, when the write failed, logged: the delivery's
   * lease then runs out and it is delivered again, as after a crash).
   */
  record(attempt: DeliveredAttempt): Promise<void> {
    return new Promise((done) => {
      this.queue.push({ attempt, done });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH);
        await this.write(batch.map((b) => b.attempt));
        batch.forEach((b) => b.done());
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(attempts: DeliveredAttempt[]): Promise<void> {
    const params = [
      attempts.map((a) => a.deliveryId),
      attempts.map((a) => a.attemptedAt),
      attempts.map((a) => a.statusCode),
      attempts.map((a) => a.latencyMs),
      attempts.map((a) => a.excerpt),
      attempts.map((a) => a.error),
      attempts.map((a) => a.attempts),
    ];
    for (let retry = 0; ; retry++) {
      try {
        const live = await this.db.query<{ id: string }>(RECORD_DELIVERED, [...params, this.now()]);
        if (live.length < attempts.length) {
          const recorded = new Set(live.map((row) => row.id));
          for (const { deliveryId } of attempts.filter((a) => !recorded.has(a.deliveryId)))
            this.logger.debug(
              { delivery: deliveryId },
              'endpoint deleted during a delivery; attempt discarded',
            );
        }
        return;
      } catch (err) {
        if (retry < 5 && isRetryableTransactionError(err)) continue;
        // One attempt that cannot be written must not cost the others theirs.
        if (attempts.length > 1) {
          for (const attempt of attempts) await this.write([attempt]);
          return;
        }
        this.logger.error(
          { err, deliveries: attempts.map((a) => a.deliveryId) },
          'recording delivered webhooks failed; their leases will expire and they are delivered again',
        );
        return;
      }
    }
  }
}
