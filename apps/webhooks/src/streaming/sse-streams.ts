// The server-sent-events loop shared by the event stream (GET /v1/events/stream) and the
// request log's stream (GET /v1/request-logs/stream): headers, the reconnection hint, one
// read of the next frames at a time, backpressure, keepalive comments, a wake-up for rows
// written by this process, a poll for rows written by other instances, a connection limit
// per process, a maximum connection age, and an end on the client's leaving or the
// service's stop. What a frame is and how the cursor moves is the caller's (`read`).
//
// Every wait registers its abort listener and removes it again: a stream polls for up to ten
// minutes, and a listener left behind per poll would pile up on the connection's signal
// (tests/unit/sse-streams.test.ts).

import type { ServerResponse } from 'node:http';
import { ApiError } from '@paygrid/platform';

export interface SseOptions {
  /** How often an idle stream looks again (rows written by another instance). */
  pollMs: number;
  /** An SSE comment after this much silence, so proxies and clients see the stream alive. */
  keepaliveMs: number;
  /** A connection ends after this long; the client reconnects with Last-Event-ID. */
  maxMs: number;
  /** Open streams per process; more are answered 503 with Retry-After. */
  maxStreams: number;
}

export interface SseFrame {
  id: string;
  event: string;
  data: unknown;
}

/** One read: the frames after `cursor`, where the next read starts, and whether to read again at once. */
export interface SseRead<C> {
  frames: readonly SseFrame[];
  cursor: C;
  more: boolean;
}

export class SseStreams {
  private open = 0;
  private readonly waiters = new Set<() => void>();
  /** Ends each open stream: a stopping service must not wait for its clients to leave. */
  private readonly closers = new Set<() => void>();

  constructor(
    /** What the 503 names: "Too many <what> are open". */
    private readonly what: string,
    private readonly options: SseOptions,
  ) {}

  /** New rows committed in this process: every open stream reads now instead of at its next poll. */
  readonly wake = (): void => this.waiters.forEach((wake) => wake());

  /** Refuses a stream over the process's limit (before anything is written). */
  admit(): void {
    if (this.open >= this.options.maxStreams)
      throw new ApiError(
        'upstream_unavailable',
        `Too many ${this.what} are open; retry shortly.`,
        undefined,
        {
          headers: { 'retry-after': '5' },
        },
      );
  }

  /** Ends every open stream (their clients reconnect to another instance). */
  close(): void {
    this.closers.forEach((close) => close());
  }

  /** Open streams of this process. */
  get size(): number {
    return this.open;
  }

  /** Writes frames to `res` from `from` until the client leaves, the service stops or `maxMs` passes. */
  async serve<C>(res: ServerResponse, from: C, read: (cursor: C) => Promise<SseRead<C>>): Promise<void> {
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
      let cursor = from;
      let quietSince = Date.now();
      while (!closed.signal.aborted && Date.now() < deadline) {
        const next = await read(cursor);
        for (const frame of next.frames) {
          const text = `id: ${frame.id}\nevent: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`;
          if (!res.write(text)) await drained(res, closed.signal);
        }
        cursor = next.cursor;
        if (next.frames.length) quietSince = Date.now();
        if (next.more) continue;
        if (Date.now() - quietSince >= this.options.keepaliveMs) {
          res.write(': keepalive\n\n');
          quietSince = Date.now();
        }
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            closed.signal.removeEventListener('abort', done);
            wake = () => undefined;
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
      res.off('close', close);
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
