// Event streams through the proxy: frames relayed as they come (with Last-Event-ID), no slot
// of the load shedder held while a stream is open, the upstream told when the client leaves,
// open streams ended when the gateway closes, and an upstream error answered as JSON.

import { get as httpGet, type ClientRequest } from 'node:http';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { FakeUpstream, gateway, get, GOOD } from './gateway.helpers';

async function eventuallyOpen(upstream: FakeUpstream): Promise<void> {
  while (!upstream.streams.length) await new Promise((resolve) => setTimeout(resolve, 5));
}

export function eventStreamCases() {
  describe('event streams', () => {
    const STREAM = '/v1/events/stream?types=payment.succeeded';
    const open = (app: FastifyInstance) =>
      app.inject({
        method: 'GET',
        url: STREAM,
        headers: { authorization: `Bearer ${GOOD}` },
        payloadAsStream: true,
      });

    it('relays the frames as they come, with the Last-Event-ID header, until the upstream ends', async () => {
      const upstream = new FakeUpstream(async () => {});
      const app = await gateway({ upstream });
      const response = await app.inject({
        method: 'GET',
        url: STREAM,
        headers: { authorization: `Bearer ${GOOD}`, 'last-event-id': 'evt_12345678' },
        payloadAsStream: true,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(upstream.calls[0]).toMatchObject({ url: STREAM });
      expect(upstream.calls[0].headers['last-event-id']).toBe('evt_12345678');
      const chunks: string[] = [];
      const body = response.stream();
      body.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
      const [stream] = upstream.streams;
      stream.body.write('id: evt_1\ndata: {}\n\n');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(chunks.join('')).toBe('retry: 1000\n\nid: evt_1\ndata: {}\n\n');
      stream.body.end();
      await new Promise((resolve) => body.once('end', resolve));
      await app.close();
    });

    it('does not hold a slot of the load shedder once the stream is open', async () => {
      const upstream = new FakeUpstream(async () => {});
      const app = await gateway({ upstream, maxInFlight: 1 });
      const first = await open(app);
      expect(first.statusCode).toBe(200);
      expect((await get(app, GOOD)).statusCode).toBe(200);
      upstream.streams.forEach((s) => s.body.end());
      await app.close();
    });

    it('tells the upstream when the client leaves', async () => {
      const upstream = new FakeUpstream(async () => {});
      const app = await gateway({ upstream });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address() as { port: number };
      const client = await new Promise<ClientRequest>((resolve) => {
        const request = httpGet(
          {
            host: '127.0.0.1',
            port: address.port,
            path: STREAM,
            headers: { authorization: `Bearer ${GOOD}` },
          },
          (response) => {
            expect(response.statusCode).toBe(200);
            resolve(request);
          },
        );
      });
      const [stream] = upstream.streams;
      expect(stream.signal.aborted).toBe(false);
      client.destroy();
      await new Promise<void>((resolve) => stream.signal.addEventListener('abort', () => resolve()));
      expect(stream.signal.aborted).toBe(true);
      stream.body.end();
      await app.close();
    });

    it('ends open streams when the gateway closes, instead of waiting for their clients', async () => {
      const upstream = new FakeUpstream(async () => {});
      const app = await gateway({ upstream });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address() as { port: number };
      const ended = new Promise<void>((resolve) => {
        httpGet(
          {
            host: '127.0.0.1',
            port: address.port,
            path: STREAM,
            headers: { authorization: `Bearer ${GOOD}` },
          },
          (response) => {
            response.resume();
            response.once('end', resolve);
          },
        );
      });
      await eventuallyOpen(upstream);
      await app.close();
      await ended;
      expect(upstream.streams[0].signal.aborted).toBe(true);
    });

    it('answers an upstream error as JSON, not as a stream', async () => {
      const upstream = new FakeUpstream(async () => {});
      upstream.stream = async () => {
        const body = new PassThrough();
        body.end('{"error":{"code":"resource_missing"}}');
        return { status: 404, headers: { 'content-type': 'application/json' }, body };
      };
      const app = await gateway({ upstream });
      const response = await get(app, GOOD, STREAM);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('resource_missing');
      await app.close();
    });
  });
}
