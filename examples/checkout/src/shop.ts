// A small shop on @paygrid/sdk, as an integrator would write it: POST /checkout creates a
// payment link for the order and answers its hosted page; POST /hooks receives Paygrid's
// webhooks, verifies them (Standard Webhooks, the endpoint's or `paygrid listen`'s secret)
// and marks the order paid on `payment.succeeded`; GET /orders/<id> shows the order.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Paygrid, PaygridError, verify, type EventOf } from '@paygrid/sdk';

export interface Order {
  id: string;
  amount: number;
  currency: string;
  payment_link: string;
  status: 'open' | 'paid';
  /** The transaction that paid it, from the verified event. */
  transaction?: string;
}

export interface Shop {
  url: string;
  orders: Map<string, Order>;
  stop(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

/** Marks the order of the link paid; a redelivered event changes nothing. */
function onPayment(orders: Map<string, Order>, event: EventOf<'payment.succeeded'>): void {
  const transaction = event.data.object;
  const order = [...orders.values()].find((o) => o.payment_link === transaction.payment_link);
  if (!order || order.status === 'paid') return;
  order.status = 'paid';
  order.transaction = transaction.id;
}

export async function startShop(options: {
  paygrid: Paygrid;
  webhookSecret: string;
  port?: number;
}): Promise<Shop> {
  const orders = new Map<string, Order>();
  let next = 1;
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'POST' && req.url === '/checkout') {
        const { amount, currency } = JSON.parse((await body(req)).toString('utf8')) as {
          amount: number;
          currency: string;
        };
        const id = `order_${next++}`;
        const link = await options.paygrid.POST('/v1/payment-links', {
          body: { amount, currency, description: `Order ${id}`, client_reference_id: id, max_completions: 1 },
          headers: { 'Idempotency-Key': `checkout-${id}` },
        });
        orders.set(id, { id, amount, currency, payment_link: link.id, status: 'open' });
        return send(res, 200, { order: id, pay_at: link.url });
      }
      if (req.method === 'POST' && req.url === '/hooks') {
        // The raw bytes: the signature is over them, not over a re-serialised object.
        const raw = await body(req);
        let event;
        try {
          event = verify(raw, req.headers, options.webhookSecret);
        } catch {
          return send(res, 400, { error: 'invalid signature' });
        }
        if (event.type === 'payment.succeeded') onPayment(orders, event);
        return send(res, 200, { received: event.id });
      }
      const order = /^\/orders\/([\w]+)$/.exec(req.url ?? '')?.[1];
      if (req.method === 'GET' && order && orders.has(order)) return send(res, 200, orders.get(order));
      return send(res, 404, { error: 'not found' });
    })().catch((error: unknown) => {
      send(res, error instanceof PaygridError ? 502 : 500, {
        error: error instanceof Error ? error.message : 'error',
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    orders,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
