// A local webhook endpoint for the suites: an HTTP server that answers 200 "ok" to every
// POST and keeps what it received (body and the Standard Webhooks headers, ready for
// `new Webhook(secret).verify(body, headers)`).

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type WebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

export interface ReceivedWebhook {
  path: string;
  id: string;
  body: string;
  headers: WebhookHeaders;
}

export interface WebhookReceiver<X extends object = object> {
  server: Server;
  port: number;
  /** http://127.0.0.1:<port>/hook */
  url: string;
  received: (ReceivedWebhook & X)[];
  stop(): Promise<void>;
}

export const webhookHeaders = (headers: IncomingHttpHeaders): WebhookHeaders => ({
  'webhook-id': String(headers['webhook-id']),
  'webhook-timestamp': String(headers['webhook-timestamp']),
  'webhook-signature': String(headers['webhook-signature']),
});

/**
 * Listens on `port` (default: any free port). `annotate` adds fields to each entry, computed
 * when the request arrives (while its connection is open); `delayMs` holds each answer that
 * long (a receiver slower than the deliveries' claims).
 */
export async function startWebhookReceiver<X extends object = object>(
  options: { port?: number; annotate?: (req: IncomingMessage) => X; delayMs?: number } = {},
): Promise<WebhookReceiver<X>> {
  const received: (ReceivedWebhook & X)[] = [];
  const server = createServer((req, res) => {
    const extra = options.annotate?.(req) ?? ({} as X);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: String(req.url),
        id: String(req.headers['webhook-id']),
        body: Buffer.concat(chunks).toString('utf8'),
        headers: webhookHeaders(req.headers),
        ...extra,
      });
      if (options.delayMs) setTimeout(() => res.end('ok'), options.delayMs);
      else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}/hook`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
