// The gateway's relay of a service's answer to the client (proxy.ts): the answer with the
// headers a service may set, or an event stream chunk by chunk.

import type { ServiceName } from '@paygrid/contracts';
import type { FastifyReply } from 'fastify';
import type { Upstream, UpstreamRequest, UpstreamResponse } from './upstream';

/** Response headers a service may set that reach the client. */
const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'content-disposition',
  'location',
  'idempotent-replayed',
  'retry-after',
  'allow',
  'cache-control',
  'set-cookie',
  'content-security-policy',
];

export function relay(reply: FastifyReply, response: UpstreamResponse): void {
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = response.headers[name];
    if (value !== undefined) void reply.header(name, value);
  }
  void reply.status(response.status).send(response.body);
}

/**
 * Relays a stream: the service's error (a JSON envelope) as usual, an event stream chunk by
 * chunk until either side leaves (the client leaving aborts the upstream request).
 */
export async function relayStream(
  reply: FastifyReply,
  upstream: Upstream,
  service: ServiceName,
  request: UpstreamRequest,
  opened: () => void,
  open: Set<() => void>,
): Promise<FastifyReply | undefined> {
  const left = new AbortController();
  // On close (the gateway stopping) the stream ends, or the server would wait for it.
  const end = () => {
    left.abort();
    reply.raw.end();
  };
  open.add(end);
  reply.raw.once('close', () => {
    open.delete(end);
    left.abort();
  });
  const response = await upstream.stream(service, request, left.signal);
  opened();
  const contentType = String(response.headers['content-type'] ?? '');
  if (response.status !== 200 || !contentType.startsWith('text/event-stream')) {
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(Buffer.from(chunk as Buffer));
    relay(reply, Object.assign({}, response, { body: Buffer.concat(chunks) }));
    return undefined;
  }
  // An upstream that fails mid-stream (idle time-out, a crash) just ends the client's stream;
  // the client reconnects with Last-Event-ID.
  response.body.on('error', () => reply.raw.end());
  // Returned to Fastify: an async handler that resolves before a stream has ended would
  // otherwise be answered again (empty) in its place.
  return reply
    .status(200)
    .header('content-type', contentType)
    .header('cache-control', 'no-store')
    .header('x-accel-buffering', 'no')
    .send(response.body);
}
