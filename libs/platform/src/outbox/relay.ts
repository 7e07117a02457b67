// The outbox relay: publishes committed outbox rows to the bus, in id order, and marks them.
//
// Nothing is published that did not commit (rows are only visible after commit) and nothing
// committed is lost (a row stays unpublished until the bus acknowledged it; a crash between
// publish and mark re-sends it, which consumers absorb through their inbox).
//
// One relay per schema is active at a time (a session advisory lock elects it) so that rows
// leave in the order they were written. It wakes right after a commit that wrote outbox rows
// and polls every `pollMs` as a fallback (for rows written by other instances).

import type { PoolClient } from 'pg';
import { backoffMs, sleep, type EventBus } from '../bus/bus';
import type { Database } from '../db/database';
import type { Logger } from '../logging';
import { failSpan, SpanKind, startSpan, traceparentOf, tracingEnabled } from '../observability/tracing';

export interface RelayOptions {
  batchSize?: number;
  pollMs?: number;
  /** Embedded mode: one process, no election needed. */
  singleInstance?: boolean;
  /**
   * Published rows are kept this long (default 7 days, like Kafka's default retention), so a
   * topic can be re-fed from the outbox after an incident; then deleted.
   */
  keepPublishedHours?: number;
}

/** The channel every outbox write NOTIFYs in distributed mode (see Database.notifyChannel). */
export function outboxChannel(schema: string): string {
  return `paygrid_outbox_${schema}`;
}

interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  payload: unknown;
  trace_context: string | null;
}

export class OutboxRelay {
  private running = false;
  private wakeUp?: () => void;
  private pending = false;
  private loop?: Promise<void>;
  /** The leader's connection: it holds the advisory lock and LISTENs. */
  private lockClient?: PoolClient;
  /** Steps down from leadership once: the lock's connection destroyed, never twice. */
  private stepDown?: () => void;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private lastPrune = 0;
  /** Counts for health and tests. */
  published = 0;

  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    private readonly options: RelayOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.pollMs = options.pollMs ?? 1_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // Only the leader publishes, so only the leader needs waking; a non-leader retrying the
    // election on every local commit would cost a round trip per write.
    this.db.onOutboxCommit(() => {
      if (this.options.singleInstance || this.lockClient) this.wake();
    });
    this.loop = this.run();
  }

  wake(): void {
    this.pending = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    const log = this.logger.child({ component: 'outbox-relay', schema: this.db.schema });
    let failures = 0;
    while (this.running) {
      try {
        if (!(await this.isLeader())) {
          // Not the leader: our own commits are the leader's to publish, so they must not
          // wake us (that would spin on the lock); just retry the election now and then.
          this.pending = false;
          await this.idle(this.pollMs * 5);
          continue;
        }
        this.pending = false;
        const sent = await this.publishBatch();
        failures = 0;
        if (sent < this.batchSize && !this.pending) await this.idle(this.pollMs);
        await this.pruneIfDue();
      } catch (error) {
        if (!this.running) break;
        log.error({ err: error, failures }, 'outbox relay failed; retrying');
        this.dropLock();
        await sleep(backoffMs(failures++, 5_000));
      }
    }
  }

  /** Publishes one batch; returns how many rows it sent. */
  async publishBatch(): Promise<number> {
    const schema = this.db.schema;
    const rows = await this.db.query<OutboxRow>(
      `select id, topic, key, payload, trace_context from ${schema}.outbox where published_at is null order by id limit $1`,
      [this.batchSize],
    );
    if (!rows.length) return 0;
    // Consecutive rows of the same topic go in one send; topic order across sends is kept.
    let start = 0;
    for (let i = 1; i <= rows.length; i++) {
      if (i === rows.length || rows[i].topic !== rows[start].topic) {
        const chunk = rows.slice(start, i);
        // A row written in a traced request gets a producer span (child of the writer's span)
        // whose traceparent travels as the message's header; untraced rows cost nothing.
        const spans = chunk.map((r) =>
          r.trace_context && tracingEnabled()
            ? startSpan(`publish ${r.topic}`, SpanKind.PRODUCER, r.trace_context, {
                'messaging.system': 'kafka',
                'messaging.destination.name': r.topic,
                'paygrid.outbox_id': r.id,
              })
            : undefined,
        );
        try {
          await this.bus.publish(
            chunk[0].topic,
            chunk.map((r, n) => {
              const traceparent = traceparentOf(spans[n]);
              return traceparent
                ? { key: r.key, value: JSON.stringify(r.payload), traceparent }
                : { key: r.key, value: JSON.stringify(r.payload) };
            }),
          );
        } catch (error) {
          for (const span of spans) if (span) failSpan(span, error);
          throw error;
        } finally {
          for (const span of spans) span?.end();
        }
        await this.db.query(`update ${schema}.outbox set published_at = now() where id = any($1::bigint[])`, [
          chunk.map((r) => r.id),
        ]);
        this.published += chunk.length;
        start = i;
      }
    }
    return rows.length;
  }

  private async isLeader(): Promise<boolean> {
    if (this.options.singleInstance) return true;
    if (this.lockClient) return true;
    const client = await this.db.connect();
    let locked = false;
    try {
      [{ locked }] = (
        await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtext($1)) as locked', [
          `paygrid:outbox:${this.db.schema}`,
        ])
      ).rows;
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    if (!locked) {
      client.release();
      return false;
    }
    this.lockClient = client;
    // Rows committed by other instances wake the leader at once (they NOTIFY, see
    // outboxChannel) instead of at the next poll. If the lock's connection dies, so does
    // the lock: step down at once rather than publish alongside a new leader.
    // This instance's own commits carry its token: the commit hook (start) woke the relay for
    // them already, and a second wake would only poll an emptied outbox.
    client.on('notification', (message) => {
      if (message.payload !== this.db.notifyToken) this.wake();
    });
    // A dead connection is handed back destroyed (once), or the pool would count it as in use
    // forever and its end() at shutdown would never return.
    let released = false;
    const stepDown = () => {
      if (this.lockClient === client) {
        this.lockClient = undefined;
        this.db.relayLeadsHere = false;
      }
      if (released) return;
      released = true;
      client.release(true);
    };
    this.stepDown = stepDown;
    client.on('error', stepDown);
    client.once('end', stepDown);
    await client.query(`listen ${outboxChannel(this.db.schema)}`);
    // From now on this process's commits need not NOTIFY (Database.relayLeadsHere).
    this.db.relayLeadsHere = true;
    return true;
  }

  private dropLock(): void {
    // Destroyed, not returned to the pool: closing the connection ends its lock and LISTEN.
    this.stepDown?.();
    this.stepDown = undefined;
    this.lockClient = undefined;
    this.db.relayLeadsHere = false;
  }

  private async pruneIfDue(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    await this.db.query(
      `delete from ${this.db.schema}.outbox where published_at < now() - make_interval(hours => $1)`,
      [this.options.keepPublishedHours ?? 168],
    );
  }

  private idle(ms: number): Promise<void> {
    if (this.pending) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    this.dropLock();
  }
}
