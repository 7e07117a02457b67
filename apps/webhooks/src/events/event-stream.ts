// GET /v1/events/stream: the account's events as the event log records them, as server-sent
// events, for `paygrid listen` (docs/api.md, "Event stream"). Each event is sent once per
// connection, in log order; a client that reconnects with `Last-Event-ID` (the id of the
// last event it got) resumes right after it, losing and repeating nothing.
//
// The cursor is (xid, seq) of the row (migration 430), read only below the oldest running
// transaction's id (`pg_snapshot_xmin`): a row that commits later always has a larger
// position than every row already sent, which neither the event id nor created_at can
// promise (emitters' clocks; concurrent transactions commit out of order). The price: a
// long transaction anywhere in the database delays the stream (never loses from it).
// New rows wake the streams of this process at once; a short poll covers other instances.

import type { ServerResponse } from 'node:http';
import type { EventEnvelope } from '@paygrid/contracts';
import { ApiError, notFound, type Database, type Tenant } from '@paygrid/platform';

export interface EventStreamOptions {
  /** How often an idle stream looks for rows written by another instance. */
  pollMs: number;
  /** An SSE comment after this much silence, so proxies and clients see the stream alive. */
  keepaliveMs: number;
  /** A connection ends after this long; the client reconnects with Last-Event-ID. */
  maxMs: number;
  /** Open streams per process; more are answered 503 with Retry-After. */
  maxStreams: number;
  /** Rows per query. */
  batch: number;
}

export const EVENT_STREAM_DEFAULTS: EventStreamOptions = {
  pollMs: 1_000,
  keepaliveMs: 15_000,
  maxMs: 600_000,
  maxStreams: 200,
  batch: 100,
};

export interface StreamPosition {
  xid: string;
  seq: string;
}

interface StreamRow extends StreamPosition {
  payload: EventEnvelope;
}

export class EventStream {
  private open = 0;
  private readonly waiters = new Set<() => void>();
  /** Ends each open stream: a stopping service must not wait for its clients to leave. */
  private readonly closers = new Set<() => void>();

  constructor(
    private readonly db: Database,
    private readonly options: EventStreamOptions = EVENT_STREAM_DEFAULTS,
  ) {}

  /** Called once the event log committed new rows: the streams of this process look now. */
  readonly wake = (): void => this.waiters.forEach((wake) => wake());

  /** Right after `lastEventId`, or from now (every event that commits from here on). */
  async position(tenant: Tenant, lastEventId?: string): Promise<StreamPosition> {
    if (!lastEventId) {
      const [now] = await this.db.query<StreamPosition>(
        `select pg_snapshot_xmin(pg_current_snapshot())::text as xid, '0' as seq`,
      );
      return now;
    }
    const [row] = await this.db.query<StreamPosition>(
      `select xid::text as xid, seq::text as seq from webhooks.events
       where id = $1 and account_id = $2 and livemode = $3`,
      [lastEventId, tenant.account, tenant.livemode],
    );
    if (!row) throw notFound('event', lastEventId, 'last_event_id');
    return row;
  }

  /** The next rows after `after` that no running transaction can still precede. */
  async next(tenant: Tenant, after: StreamPosition, types: readonly string[] | null): Promise<StreamRow[]> {
    return this.db.query<StreamRow>(
      `select xid::text as xid, seq::text as seq, payload from webhooks.events
       where account_id = $1 and livemode = $2 and (xid, seq) > ($3::xid8, $4::bigint)
         and xid < pg_snapshot_xmin(pg_current_snapshot())
         and ($5::text[] is null or type = any($5::text[]))
       order by xid, seq limit $6`,
      [tenant.account, tenant.livemode, after.xid, after.seq, types, this.options.batch],
    );
  }

  /** Ends every open stream (their clients reconnect to another instance). */
  close(): void {
    this.closers.forEach((close) => close());
  }

  /** Refuses a stream over the process's limit (before anything is written). */
  admit(): void {
    if (this.open >= this.options.maxStreams)
      throw new ApiError(
        'upstream_unavailable',
        'Too many event streams are open; retry shortly.',
        undefined,
        {
          headers: { 'retry-after': '5' },
        },
      );
  }

  /** Writes the stream to `res` from `from` until the client leaves or `maxMs` passes. */
  async serve(
    res: ServerResponse,
    tenant: Tenant,
    from: StreamPosition,
    types: readonly string[] | null,
  ): Promise<void> {
    this.open++;
    const closed = new AbortController();
    const close = () => closed.abort();
    res.once('close', close);
    this.closers.add(close);
    let wake: () => void = () => undefined;
    const waiter = () => wake();
    this.waiters.add(waiter);
    try {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      // The reconnection delay for EventSource clients, and a first byte that flushes the headers.
      res.write('retry: 1000\n\n');
      const deadline = Date.now() + this.options.maxMs;
      let position = from;
      let quietSince = Date.now();
      while (!closed.signal.aborted && Date.now() < deadline) {
        const rows = await this.next(tenant, position, types);
        for (const row of rows) {
          const frame = `id: ${row.payload.id}\nevent: ${row.payload.type}\ndata: ${JSON.stringify(row.payload)}\n\n`;
          if (!res.write(frame)) await drained(res, closed.signal);
          position = { xid: row.xid, seq: row.seq };
        }
        if (rows.length) quietSince = Date.now();
        if (rows.length === this.options.batch) continue;
        if (Date.now() - quietSince >= this.options.keepaliveMs) {
          res.write(': keepalive\n\n');
          quietSince = Date.now();
        }
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            closed.signal.removeEventListener('abort', done);
            resolve();
          };
          const timer = setTimeout(done, Math.min(this.options.pollMs, Math.max(0, deadline - Date.now())));
          // A wake-up comes before the rows' transaction is visible to all: look a moment later.
          wake = () => {
            clearTimeout(timer);
            setTimeout(done, 5);
          };
          closed.signal.addEventListener('abort', done, { once: true });
        });
      }
    } finally {
      this.waiters.delete(waiter);
      this.closers.delete(close);
      this.open--;
      if (!res.writableEnded) res.end();
    }
  }
}

function drained(res: ServerResponse, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
