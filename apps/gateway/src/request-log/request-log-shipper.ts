// The gateway's side of the request log (docs/api.md, "Request log"): each answered /v1 request
// of an authenticated account is noted in memory when its answer has left (Fastify's
// onResponse, so never on the request's path), and the notes are sent in batches to the
// webhooks service, which keeps and serves them. Fire-and-forget: a batch that cannot be sent
// is dropped and counted, never retried into the hot path; a full buffer drops new notes.

import type { RequestLogNote } from '@paygrid/contracts';
import type { Logger, Metrics } from '@paygrid/platform';
import type { OperatorForwarder } from '../admin/operator-forwarder';

export interface ShipperOptions {
  flushMs: number;
  /** Notes per POST. */
  batch: number;
  /** Notes held while the webhooks service is slow or away; more are dropped. */
  maxBuffered: number;
}

export const SHIPPER_DEFAULTS: ShipperOptions = { flushMs: 250, batch: 500, maxBuffered: 20_000 };

/**
 * The embedded default's: batches of 100. There the one database session runs each batch's
 * insert while every request's statements wait behind it: with 500 notes at a time the
 * gateway's added p99 was +8.7 to +8.9 ms, with 100 +2.4 to +3.8 ms. A full batch leaves at
 * once (note), so a busy gateway's batches stay that small. Distributed, the insert runs on a
 * connection of its own, and fewer, larger batches cost the gateway and the webhooks service
 * fewer requests (bench/README.md, finding 64).
 */
export const EMBEDDED_SHIPPER: ShipperOptions = Object.assign({}, SHIPPER_DEFAULTS, { batch: 100 });

export class RequestLogShipper {
  private buffer: RequestLogNote[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private readonly dropped;

  constructor(
    private readonly forwarder: Pick<OperatorForwarder, 'post'>,
    private readonly logger: Logger,
    metrics: Metrics,
    private readonly options: ShipperOptions = SHIPPER_DEFAULTS,
  ) {
    this.dropped = metrics.counter(
      'paygrid_request_log_dropped_total',
      'Request log notes the gateway dropped (buffer full, or the webhooks service did not take a batch).',
      ['reason'],
    );
    for (const reason of ['buffer_full', 'send_failed']) this.dropped.inc({ reason }, 0);
    this.timer = setInterval(() => void this.flush(), options.flushMs);
    this.timer.unref();
  }

  /** O(1), synchronous: an array push; a full batch starts a flush (unless one is running). */
  note(entry: RequestLogNote): void {
    if (this.buffer.length >= this.options.maxBuffered) {
      this.dropped.inc({ reason: 'buffer_full' });
      return;
    }
    this.buffer.push(entry);
    if (this.buffer.length >= this.options.batch && !this.flushing) void this.flush();
  }

  /**
   * Sends what was buffered when the flush began, one batch at a time; a flush already running
   * is joined. Notes that arrive meanwhile wait for the next tick, or for the next full batch
   * once this flush is over: sending until the buffer was empty kept a busy gateway posting a
   * batch of a few notes every few milliseconds, each one a request and a transaction in the
   * webhooks service (bench/README.md, finding 19).
   */
  flush(): Promise<void> {
    this.flushing ??= this.send(this.buffer.length).finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async send(buffered: number): Promise<void> {
    for (let left = buffered; left > 0 && this.buffer.length;) {
      const entries = this.buffer.splice(0, Math.min(left, this.options.batch));
      left -= entries.length;
      try {
        const answer = await this.forwarder.post(
          'webhooks',
          '/internal/request-log',
          { entries },
          entries[0].request_id,
        );
        if (answer.status !== 204) throw new Error(`answered ${answer.status}`);
      } catch (error) {
        this.dropped.inc({ reason: 'send_failed' }, entries.length);
        this.logger.warn({ err: error, entries: entries.length }, 'request log batch dropped');
        return;
      }
    }
  }

  /** Stops the timer and sends everything still buffered (a batch that fails is dropped). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    while (this.buffer.length || this.flushing) await this.flush();
  }
}
