// GET /v1/events/stream as an async iterator of typed events: parses the server-sent events,
// and when the connection ends (the server closes it every 10 minutes, a network failure)
// reconnects with Last-Event-ID, so the caller sees every event once, in log order.

import { isErrorEnvelope, PaygridConnectionError, PaygridError } from './errors.js';
import { retryAfterMs } from './retry.js';
import type { Event, EventType, Schemas } from './types.js';

type RequestLog = Schemas['RequestLog'];

export interface StreamOptions {
  /** Only these types (default: every type). */
  types?: readonly EventType[];
  /** Resume after this event id (default: from now). */
  lastEventId?: string;
  /** Stops the stream (the iterator then returns). */
  signal?: AbortSignal;
  /** Called when a connection is open (again): `paygrid listen` prints it. */
  onConnect?: (info: { lastEventId: string | undefined }) => void;
  /** Wait before reconnecting after a connection ended (default 1 s). */
  reconnectDelayMs?: number;
}

export interface StreamTransport {
  baseUrl: string;
  key: string;
  fetch: typeof fetch;
}

/** The frames of a server-sent event stream (the WHATWG format: `field: value` lines). */
export async function* sseFrames(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ id?: string; event?: string; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const frame: { id?: string; event?: string; data: string } = { data: '' };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (!line || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') data.push(value);
        else if (field === 'id') frame.id = value;
        else if (field === 'event') frame.event = value;
      }
      if (data.length) yield { ...frame, data: data.join('\n') };
    }
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

export async function* streamEvents(
  transport: StreamTransport,
  options: StreamOptions = {},
): AsyncGenerator<Event> {
  const query = options.types?.length ? `?types=${options.types.join(',')}` : '';
  for await (const frame of resumable(transport, `/v1/events/stream${query}`, options)) {
    const event = JSON.parse(frame.data) as Event;
    frame.resumeFrom(frame.id ?? event.id);
    yield event;
  }
}

/** GET /v1/request-logs/stream: the account's API requests as they are answered. */
export async function* streamRequestLogs(
  transport: StreamTransport,
  options: Omit<StreamOptions, 'types'> = {},
): AsyncGenerator<RequestLog> {
  for await (const frame of resumable(transport, '/v1/request-logs/stream', options)) {
    if (frame.id) frame.resumeFrom(frame.id);
    yield JSON.parse(frame.data) as RequestLog;
  }
}

/**
 * The frames of a stream at `path`, reconnecting (after `reconnectDelayMs`, or the
 * Retry-After of a 429/503) with Last-Event-ID set to what the caller last passed to
 * `resumeFrom`, until `signal` aborts. An error envelope is thrown as a PaygridError.
 */
async function* resumable(
  transport: StreamTransport,
  path: string,
  options: Omit<StreamOptions, 'types'>,
): AsyncGenerator<{ id?: string; event?: string; data: string; resumeFrom: (id: string) => void }> {
  let last = options.lastEventId;
  const resumeFrom = (id: string) => (last = id);
  const delay = options.reconnectDelayMs ?? 1_000;
  while (!options.signal?.aborted) {
    let response: Response;
    try {
      response = await transport.fetch(`${transport.baseUrl}${path}`, {
        headers: {
          authorization: `Bearer ${transport.key}`,
          accept: 'text/event-stream',
          ...(last ? { 'last-event-id': last } : {}),
        },
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) return;
      await sleep(delay, options.signal);
      void error;
      continue;
    }
    if (response.status === 429 || response.status === 503) {
      await response.body?.cancel();
      await sleep(retryAfterMs(response.headers.get('retry-after')) ?? delay, options.signal);
      continue;
    }
    if (!response.ok || !response.body) {
      const body: unknown = await response.json().catch(() => undefined);
      if (isErrorEnvelope(body)) throw new PaygridError(response.status, body);
      throw new PaygridConnectionError(
        `The stream ${path} answered HTTP ${response.status}`,
        response.status,
      );
    }
    options.onConnect?.({ lastEventId: last });
    try {
      for await (const frame of sseFrames(response.body)) yield { ...frame, resumeFrom };
    } catch (error) {
      // A cut connection: reconnect below; an abort: stop.
      if (options.signal?.aborted) return;
      void error;
    }
    await sleep(delay, options.signal);
  }
}
