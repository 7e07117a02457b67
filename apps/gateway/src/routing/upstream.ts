// How the gateway reaches a service: over HTTP (undici connection pools) when the services
// run as their own processes, or by in-process injection when they share the gateway's
// process (the embedded default). Both answer the same way, errors included.

import type { Readable } from 'node:stream';
import type { InternalContext, ServiceName } from '@paygrid/contracts';
import { ApiError, signContext } from '@paygrid/platform';
import { Pool, errors as undiciErrors, util as undiciUtil } from 'undici';
import { requestInProcess, type RequestHandler } from './in-process';

export interface UpstreamRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /**
   * The caller's context for the service's guard. How it crosses is the transport's business:
   * signed into headers (x-paygrid-context, x-paygrid-signature) to another process, handed
   * over on the request object within this one (handOverContext).
   */
  context?: InternalContext;
}

/** `request`'s headers with its context signed into them (a copy; none: the headers as they are). */
function signedHeaders(secret: string, request: UpstreamRequest): Record<string, string> {
  if (!request.context) return request.headers;
  return Object.assign(signContext(secret, request.context, request.method, request.url), request.headers);
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A response whose body is relayed as it arrives (server-sent events). */
export interface UpstreamStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

/**
 * A stream's body may be silent this long between chunks before the gateway gives up on it:
 * the event stream sends a keep-alive comment every 15 s (apps/webhooks event-stream.ts).
 */
export const STREAM_IDLE_TIMEOUT_MS = 60_000;

export interface Upstream {
  request(service: ServiceName, request: UpstreamRequest): Promise<UpstreamResponse>;
  /**
   * Like `request`, but answers once the headers arrive (within the same time limit) with the
   * body as a stream; `signal` (the client left) ends it.
   */
  stream(service: ServiceName, request: UpstreamRequest, signal: AbortSignal): Promise<UpstreamStream>;
  health(service: ServiceName): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

export class HttpUpstream implements Upstream {
  private readonly pools = new Map<ServiceName, Pool>();

  constructor(
    baseUrls: Record<ServiceName, string>,
    private readonly timeoutMs: number,
    private readonly secret: string,
  ) {
    for (const [name, url] of Object.entries(baseUrls) as [ServiceName, string][]) {
      this.pools.set(name, new Pool(url, { connections: 128, pipelining: 1, keepAliveTimeout: 30_000 }));
    }
  }

  /**
   * One request, its answer collected whole. Through undici's `dispatch` with a handler of our
   * own rather than `pool.request`, whose answer is a Readable stream read back with
   * `arrayBuffer()`: the stream, its promise and the copy cost the gateway about 7 µs of its
   * ~20 µs of client work per proxied call (a loopback micro-benchmark of both, 16 in flight).
   * Same time limits, same errors.
   */
  request(service: ServiceName, request: UpstreamRequest): Promise<UpstreamResponse> {
    const pool = this.pools.get(service);
    if (!pool)
      return Promise.reject(
        new ApiError('upstream_unavailable', 'The service for this route is not configured.'),
      );
    return new Promise((resolve, reject) => {
      let status = 0;
      let rawHeaders: Buffer[] = [];
      const chunks: Buffer[] = [];
      pool.dispatch(
        {
          path: request.url,
          method: request.method as 'GET',
          headers: signedHeaders(this.secret, request),
          body: request.body,
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        },
        {
          onConnect() {},
          onError(error: Error) {
            reject(upstreamError(error));
          },
          onHeaders(statusCode: number, headers: Buffer[]) {
            status = statusCode;
            rawHeaders = headers;
            return true;
          },
          onData(chunk: Buffer) {
            chunks.push(chunk);
            return true;
          },
          onComplete() {
            const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
            resolve({ status, headers: undiciUtil.parseHeaders(rawHeaders), body });
          },
        },
      );
    });
  }

  async stream(service: ServiceName, request: UpstreamRequest, signal: AbortSignal): Promise<UpstreamStream> {
    const pool = this.pools.get(service);
    if (!pool) throw new ApiError('upstream_unavailable', 'The service for this route is not configured.');
    try {
      const response = await pool.request({
        path: request.url,
        method: request.method as 'GET',
        headers: signedHeaders(this.secret, request),
        body: request.body,
        signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: STREAM_IDLE_TIMEOUT_MS,
      });
      return { status: response.statusCode, headers: response.headers, body: response.body };
    } catch (error) {
      throw upstreamError(error);
    }
  }

  async health(service: ServiceName): Promise<{ status: number; body: unknown }> {
    const response = await this.request(service, { method: 'GET', url: '/ready', headers: {} });
    return { status: response.status, body: JSON.parse(response.body.toString('utf8')) };
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }
}

function upstreamError(error: unknown): ApiError {
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError)
    return new ApiError('upstream_timeout', 'The service did not answer in time.');
  return new ApiError('upstream_unavailable', 'The service for this route is unavailable; retry shortly.');
}

/** The part of a Fastify instance the in-process upstream needs. */
export interface Injectable {
  /** The instance's request handler (Fastify's `routing`): a plain request goes through it. */
  routing: RequestHandler;
  /** light-my-request's injection: an event stream goes through it, answered at its headers. */
  inject(options: {
    method: string;
    url: string;
    headers: Record<string, string>;
    payload?: Buffer;
    payloadAsStream: true;
  }): Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | number | undefined>;
    stream(): Readable;
    raw: { res: { destroy(): unknown } };
  }>;
}

function headersOf(raw: Record<string, string | string[] | number | undefined>) {
  const headers: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(raw))
    headers[name] = typeof value === 'number' ? String(value) : value;
  return headers;
}

export class InjectUpstream implements Upstream {
  constructor(
    private readonly services: Record<ServiceName, Injectable>,
    private readonly timeoutMs: number,
    /** Signs the context of an event stream, whose request light-my-request makes. */
    private readonly secret: string,
  ) {}

  request(service: ServiceName, request: UpstreamRequest): Promise<UpstreamResponse> {
    return this.bounded(requestInProcess(this.services[service].routing, request));
  }

  /** `answer`, or upstream_timeout once the time limit has passed. */
  private async bounded<T>(answer: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ApiError('upstream_timeout', 'The service did not answer in time.')),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async stream(service: ServiceName, request: UpstreamRequest, signal: AbortSignal): Promise<UpstreamStream> {
    const response = await this.bounded(
      this.services[service].inject({
        method: request.method,
        url: request.url,
        headers: signedHeaders(this.secret, request),
        payload: request.body,
        payloadAsStream: true,
      }),
    );
    // The handler in the service learns that the client left from its response's `close`.
    const leave = () => response.raw.res.destroy();
    if (signal.aborted) leave();
    else signal.addEventListener('abort', leave, { once: true });
    return { status: response.statusCode, headers: headersOf(response.headers), body: response.stream() };
  }

  async health(service: ServiceName): Promise<{ status: number; body: unknown }> {
    const response = await this.request(service, { method: 'GET', url: '/ready', headers: {} });
    return { status: response.status, body: JSON.parse(response.body.toString('utf8')) };
  }

  async close(): Promise<void> {}
}
