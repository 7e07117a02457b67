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
import { notFound, type Database, type Tenant } from '@paygrid/platform';
import { SseStreams, type SseOptions } from '../streaming/sse-streams';

export interface EventStreamOptions extends SseOptions {
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
  private readonly streams: SseStreams;

  constructor(
    private readonly db: Database,
    private readonly options: EventStreamOptions = EVENT_STREAM_DEFAULTS,
  ) {
    this.streams = new SseStreams('event streams', options);
  }

  /** Called once the event log committed new rows: the streams of this process look now. */
  readonly wake = (): void => this.streams.wake();

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
    this.streams.close();
  }

  /** Refuses a stream over the process's limit (before anything is written). */
  admit(): void {
    this.streams.admit();
  }

  /** Writes the stream to `res` from `from` until the client leaves or `maxMs` passes. */
  serve(
    res: ServerResponse,
    tenant: Tenant,
    from: StreamPosition,
    types: readonly string[] | null,
  ): Promise<void> {
    return this.streams.serve(res, from, async (after) => {
      const rows = await this.next(tenant, after, types);
      const last = rows.at(-1);
      return {
        frames: rows.map((row) => ({ id: row.payload.id, event: row.payload.type, data: row.payload })),
        cursor: last ? { xid: last.xid, seq: last.seq } : after,
        more: rows.length === this.options.batch,
      };
    });
  }
}
