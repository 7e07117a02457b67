// The account's API requests as the gateway recorded them (docs/api.md, "Request log"): the
// gateway sends batches (POST /internal/request-log, operator context), this keeps them for
// 24 hours and at most MAX_ROWS rows, and serves them as a list and as server-sent events.
//
// Batches are inserted one at a time (a transaction-scoped advisory lock), so rows commit in
// `seq` order and a stream that reads `seq > cursor` never skips one that commits late.

import type { ServerResponse } from 'node:http';
import { type Clock, type Database, type Tenant } from '@paygrid/platform';
import { SseStreams } from '../streaming/sse-streams';
import type { RequestLogNote, RequestLog as RequestLogEntryObject } from '@paygrid/contracts';

interface Row {
  seq: string;
  request_id: string;
  /** The gateway answers any other method 405 before authentication, so none is noted (proxy.ts). */
  method: RequestLogEntryObject['method'];
  path: string;
  status: number;
  duration_ms: number;
  created_at: Date;
}

export interface RequestLogOptions {
  retentionMs: number;
  /** Rows kept across all accounts (the oldest go first beyond it). */
  maxRows: number;
  pollMs: number;
  keepaliveMs: number;
  maxStreamMs: number;
  maxStreams: number;
}

export const REQUEST_LOG_DEFAULTS: RequestLogOptions = {
  retentionMs: 24 * 3600_000,
  maxRows: 5_000_000,
  pollMs: 500,
  keepaliveMs: 15_000,
  maxStreamMs: 600_000,
  maxStreams: 200,
};

/** Any constant: the advisory lock that orders the inserts. */
const INSERT_LOCK = 7_270_440;
const PRUNE_EVERY_MS = 60_000;
/** Rows per read of a stream. */
const STREAM_BATCH = 100;

const serialize = (row: Row): RequestLogEntryObject => ({
  object: 'request_log' as const,
  id: row.request_id,
  method: row.method,
  path: row.path,
  status: row.status,
  duration_ms: row.duration_ms,
  created_at: new Date(row.created_at).toISOString(),
});

export class RequestLog {
  private lastPrune = 0;
  private readonly streams: SseStreams;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly options: RequestLogOptions = REQUEST_LOG_DEFAULTS,
  ) {
    this.streams = new SseStreams('request log streams', { ...options, maxMs: options.maxStreamMs });
  }

  async record(entries: readonly RequestLogNote[]): Promise<void> {
    if (!entries.length) return;
    const column = <K extends keyof RequestLogNote>(key: K) => entries.map((e) => e[key]);
    // BEGIN, the lock, the insert and COMMIT in one write (Tx.queryCommitting): the session is
    // never held across a turn of this process's event loop. In the embedded default every
    // request's statements waited behind it there; with the gateway's smaller embedded batches
    // (EMBEDDED_SHIPPER), its added p99 went from +10.7 to +12.8 ms to +2.4 to +3.8 ms
    // (bench/README.md, finding 64).
    await this.db.transaction(async (tx) => {
      await tx.queryCommitting(
        { sql: 'select pg_advisory_xact_lock($1)', params: [INSERT_LOCK] },
        `insert into webhooks.request_log
           (account_id, livemode, request_id, method, path, status, duration_ms, created_at)
         select * from unnest($1::text[], $2::boolean[], $3::text[], $4::text[], $5::text[],
                              $6::smallint[], $7::integer[], $8::timestamptz[])`,
        [
          column('account'),
          column('livemode'),
          column('request_id'),
          column('method'),
          column('path'),
          column('status'),
          column('duration_ms'),
          column('created_at'),
        ],
      );
    });
    await this.prune();
  }

  /** At most once a minute: what is older than the retention, then what is over the cap. */
  private async prune(): Promise<void> {
    const now = this.clock.now();
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now.getTime();
    await this.db.query('delete from webhooks.request_log where created_at < $1', [
      new Date(now.getTime() - this.options.retentionMs),
    ]);
    await this.db.query(
      `delete from webhooks.request_log
        where seq <= (select max(seq) from webhooks.request_log) - $1`,
      [this.options.maxRows],
    );
  }

  /** The newest `limit` requests of the tenant, newest first. */
  async list(tenant: Tenant, limit: number) {
    const rows = await this.db.query<Row>(
      `select seq::text as seq, request_id, method, path, status, duration_ms, created_at
         from webhooks.request_log where account_id = $1 and livemode = $2 and created_at >= $3
        order by seq desc limit $4`,
      [tenant.account, tenant.livemode, this.since(), limit + 1],
    );
    return {
      object: 'list' as const,
      data: rows.slice(0, limit).map(serialize),
      has_more: rows.length > limit,
      url: '/v1/request-logs' as const,
    };
  }

  private since(): Date {
    return new Date(this.clock.now().getTime() - this.options.retentionMs);
  }

  /** Refuses a stream over the process's limit (before anything is written). */
  admit(): void {
    this.streams.admit();
  }

  /** Where a stream starts: after `lastId` (a position it sent), else after everything so far. */
  async position(lastId: string | undefined): Promise<string> {
    if (lastId) return lastId;
    const [row] = await this.db.query<{ seq: string }>(
      'select coalesce(max(seq), 0)::text as seq from webhooks.request_log',
    );
    return row.seq;
  }

  close(): void {
    this.streams.close();
  }

  /** Writes the tenant's requests after `from` to `res` until the client leaves or the time is up. */
  serve(res: ServerResponse, tenant: Tenant, from: string): Promise<void> {
    return this.streams.serve(res, from, async (cursor) => {
      const rows = await this.db.query<Row>(
        `select seq::text as seq, request_id, method, path, status, duration_ms, created_at
           from webhooks.request_log where account_id = $1 and livemode = $2 and seq > $3::bigint
          order by seq limit $4`,
        [tenant.account, tenant.livemode, cursor, STREAM_BATCH],
      );
      return {
        frames: rows.map((row) => ({ id: row.seq, event: 'request', data: serialize(row) })),
        cursor: rows.at(-1)?.seq ?? cursor,
        more: rows.length === STREAM_BATCH,
      };
    });
  }
}
