// How the caller's context crosses to the service: signed into headers over HTTP (another
// process), handed over on the request object in process (the embedded default), never both.

import type { InternalContext } from '@paygrid/contracts';
import { handedOverContext, verifyContext } from '@paygrid/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { HttpUpstream, InjectUpstream, type Injectable } from './upstream';

const SECRET = 'internal-secret-0123456789abcdef0123456789';
const context: InternalContext = {
  kind: 'api',
  account: 'acct_12345678',
  account_name: 'Acme',
  livemode: false,
  key_id: 'key_12345678',
  scopes: ['merchants:read'],
  groupings: ['payments'],
  request_id: 'req_12345678',
  issued_at: Date.now(),
};

/** A service that answers what reached it: the context headers, a verified and a handed-over context. */
async function service(): Promise<FastifyInstance> {
  const app = Fastify();
  app.get('/v1/merchants', async (request) => ({
    signature: request.headers['x-paygrid-signature'] ?? null,
    verified: verifyContext(SECRET, request.headers, request.method, request.url) ?? null,
    handedOver: handedOverContext(request.raw) ?? null,
    requestId: request.headers['request-id'] ?? null,
  }));
  await app.ready();
  return app;
}

const request = { method: 'GET', url: '/v1/merchants?limit=2', headers: { 'request-id': 'req_12345678' } };

describe('the context over HTTP', () => {
  it('is signed into the headers, which the service verifies, and nothing is handed over', async () => {
    const app = await service();
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const upstream = new HttpUpstream({ payments: url, invoicing: url, webhooks: url }, 5_000, SECRET);
    try {
      const answer = JSON.parse(
        (await upstream.request('payments', { ...request, context })).body.toString(),
      );
      expect(answer.verified).toEqual(context);
      expect(answer.handedOver).toBeNull();
      expect(answer.requestId).toBe('req_12345678');
      // Without a context, no signature (the health checks).
      const bare = JSON.parse((await upstream.request('payments', request)).body.toString());
      expect(bare).toMatchObject({ signature: null, verified: null, handedOver: null });
    } finally {
      await upstream.close();
      await app.close();
    }
  });
});

describe('the context in process', () => {
  it('is handed over on the request object, unsigned', async () => {
    const app = await service();
    const services = { payments: app, invoicing: app, webhooks: app } as unknown as Record<
      'payments' | 'invoicing' | 'webhooks',
      Injectable
    >;
    const upstream = new InjectUpstream(services, 5_000, SECRET);
    try {
      const answer = JSON.parse(
        (await upstream.request('payments', { ...request, context })).body.toString(),
      );
      expect(answer).toMatchObject({ signature: null, verified: null, requestId: 'req_12345678' });
      expect(answer.handedOver).toEqual(context);
      const bare = JSON.parse((await upstream.request('payments', request)).body.toString());
      expect(bare).toMatchObject({ signature: null, verified: null, handedOver: null });
    } finally {
      await app.close();
    }
  });
});
