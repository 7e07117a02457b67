// The embedded default's gateway -> service call without light-my-request: the service's own
// Fastify request handler (`fastify.routing`) is handed a request and a response of this
// file's making, and the answer is collected as it is written. light-my-request makes the same
// exchange for tests of any shape (URL parsing, option validation, cookies, a payload string
// beside the bytes, a Writable "socket" per response whose every write waits a setImmediate,
// three RegExps compiled per response to copy headers back out of the rendered head): about
// 40-60 us of CPU per call, half of it garbage collection, where this takes a few
// (bench/README.md, finding 56). Event streams keep light-my-request (InjectUpstream.stream).
// The gateway's context is handed over on the request object instead of signed into headers
// and verified (finding 57).

import { EventEmitter } from 'node:events';
import { IncomingMessage, ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import { handOverContext } from '@paygrid/platform';
import type { UpstreamRequest, UpstreamResponse } from './upstream';

/** A service's HTTP entry point: Fastify's `routing(req, res)`, the handler its server would run. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * What Fastify and Node read of a connection: its address (request.ip), and the methods a
 * request or response may call on it. Nothing is written to it: the response is collected.
 */
class LocalSocket extends EventEmitter {
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 0;
  readonly localAddress = '127.0.0.1';
  readonly localPort = 0;
  readonly remoteFamily = 'IPv4';
  readonly encrypted = false;
  readable = true;
  writable = true;
  destroyed = false;
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  cork(): void {}
  uncork(): void {}
  write(_chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  }
  end(): this {
    return this;
  }
  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.readable = false;
    this.writable = false;
    process.nextTick(() => this.emit('close', false));
    return this;
  }
}

/** A response whose head and body are kept as they are written, never rendered to a socket. */
class CollectedResponse extends ServerResponse {
  private readonly chunks: Buffer[] = [];
  private head?: { status: number; headers: Record<string, string | string[] | undefined> };
  private settled = false;

  constructor(
    request: IncomingMessage,
    private readonly done: (response: UpstreamResponse) => void,
  ) {
    super(request);
    // With a header set before writeHead, Node merges writeHead's headers into the set ones,
    // so getHeaders() has them all (light-my-request does the same).
    this.setHeader('x-paygrid-local', '1');
    this.removeHeader('x-paygrid-local');
  }

  override writeHead(
    statusCode: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeaders[keyof OutgoingHttpHeaders][],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeaders[keyof OutgoingHttpHeaders][],
  ): this {
    super.writeHead(statusCode, reason as string, headers as OutgoingHttpHeaders);
    const collected: Record<string, string | string[] | undefined> = {};
    const all = this.getHeaders();
    for (const name of Object.keys(all)) {
      const value = all[name];
      collected[name] = Array.isArray(value)
        ? value.map(String)
        : value === undefined
          ? value
          : String(value);
    }
    this.head = { status: statusCode, headers: collected };
    return this;
  }

  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    if (!this.head) this.writeHead(this.statusCode);
    this.keep(chunk, encoding);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  }

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (this.settled) return this;
    if (typeof chunk === 'function') {
      callback = chunk;
      chunk = undefined;
    } else if (typeof encoding === 'function') {
      callback = encoding;
      encoding = undefined;
    }
    if (!this.head) this.writeHead(this.statusCode);
    if (chunk !== undefined && chunk !== null) this.keep(chunk, encoding);
    this.settled = true;
    // What Node's end() leaves behind: the response ended and flushed (writableEnded,
    // writableFinished), then 'finish' (Fastify's onResponse hooks) and 'close'.
    this.finished = true;
    const head = this.head as NonNullable<CollectedResponse['head']>;
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.emit('finish');
    if (typeof callback === 'function') process.nextTick(callback as () => void);
    process.nextTick(() => this.emit('close'));
    this.done({ status: head.status, headers: head.headers, body });
    return this;
  }

  private keep(chunk: unknown, encoding: unknown): void {
    if (Buffer.isBuffer(chunk)) this.chunks.push(chunk);
    else if (chunk instanceof Uint8Array) this.chunks.push(Buffer.from(chunk));
    else if (typeof chunk === 'string' && chunk.length)
      this.chunks.push(
        Buffer.from(chunk, (typeof encoding === 'string' ? encoding : 'utf8') as BufferEncoding),
      );
  }
}

/** One request to `handler`, answered when the service ends its response. */
export function requestInProcess(
  handler: RequestHandler,
  request: UpstreamRequest,
): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    const socket = new LocalSocket();
    const incoming = new IncomingMessage(socket as never);
    incoming.method = request.method;
    incoming.url = request.url;
    incoming.httpVersionMajor = 1;
    incoming.httpVersionMinor = 1;
    incoming.httpVersion = '1.1';
    const headers: Record<string, string> = { host: 'localhost' };
    const raw: string[] = [];
    for (const name of Object.keys(request.headers)) {
      const lower = name.toLowerCase();
      headers[lower] = request.headers[name];
    }
    // As light-my-request does: a body, even an empty one, is announced with its length.
    const body = request.body;
    if (body !== undefined && headers['content-length'] === undefined)
      headers['content-length'] = String(body.length);
    for (const name of Object.keys(headers)) raw.push(name, headers[name]);
    incoming.headers = headers;
    incoming.rawHeaders = raw;
    // The caller's context rides on the request object, not signed into headers: nothing from
    // outside this process reaches a service's handler here (the services do not listen).
    if (request.context) handOverContext(incoming, request.context);
    incoming.complete = true;
    if (body && body.length) incoming.push(body);
    incoming.push(null);
    const response = new CollectedResponse(incoming, resolve);
    response.once('error', reject);
    try {
      handler(incoming, response);
    } catch (error) {
      reject(error);
    }
  });
}
