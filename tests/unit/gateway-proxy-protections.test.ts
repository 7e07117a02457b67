// The /v1 proxy's protections at unit level: a bare Fastify instance with the gateway's
// security headers and proxy, a stand-in key store and upstreams that answer, hang or fail.
// The end-to-end versions (both modes, real services) are in
// tests/integration/gateway-protections.test.ts.

import type { ServiceName } from '@paygrid/contracts';
import { ApiError, createLogger } from '@paygrid/platform';
import { get as httpGet, type ClientRequest } from 'node:http';
import { PassThrough } from 'node:stream';
import { fastify, type FastifyInstance } from 'fastify';
import type { AccountsService, AuthenticatedKey } from '../../apps/gateway/src/accounts/accounts.service';
import { ApiRateLimits } from '../../apps/gateway/src/rate-limit/api-rate-limits';
import { MemoryRateLimiter } from '../../apps/gateway/src/rate-limit/rate-limiter';
import { registerProxy } from '../../apps/gateway/src/routing/proxy';
import {
  InjectUpstream,
  type Injectable,
  type Upstream,
  type UpstreamRequest,
} from '../../apps/gateway/src/routing/upstream';
import { registerSecurityHeaders } from '../../apps/gateway/src/security-headers';

const GOOD = 'sk_test_goodgoodgoodgoodgoodgoodgoodgood';
const LIVE = 'sk_live_goodgoodgoodgoodgoodgoodgoodgood';
const BAD = 'sk_test_badbadbadbadbadbadbadbadbadbadba';

function authenticated(id: string, livemode: boolean, rateLimit: number | null = null): AuthenticatedKey {
  const now = new Date();
  return {
    key: {
      id,
      account_id: 'acct_1',
      livemode,
      kind: 'secret',
      scopes: [],
      prefix: livemode ? 'sk_live' : 'sk_test',
      last4: 'good',
      name: null,
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
      rolled_to: null,
      created_at: now,
      updated_at: now,
    },
    account: {
      id: 'acct_1',
      name: 'Acme',
      groupings: ['payments', 'invoicing'],
      status: 'active',
      rate_limit_per_second: rateLimit,
      metadata: {},
      created_at: now,
      updated_at: now,
    },
    scopes: ['merchants:read'],
  };
}

/** The part of AccountsService the proxy uses. */
function keyStore(keys: Record<string, AuthenticatedKey>): AccountsService {
  const store = {
    async authenticate(secret: string): Promise<AuthenticatedKey> {
      const found = keys[secret];
      if (!found) throw new ApiError('invalid_api_key', 'Invalid API key provided.');
      return found;
    },
  };
  return store as unknown as AccountsService;
}

class FakeUpstream implements Upstream {
  readonly calls: UpstreamRequest[] = [];
  constructor(private readonly answer: (service: ServiceName) => Promise<void>) {}
  async request(service: ServiceName, request: UpstreamRequest) {
    this.calls.push(request);
    await this.answer(service);
    const html = request.url.startsWith('/pay/');
    return {
      status: 200,
      headers: html
        ? { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'self'" }
        : { 'content-type': 'application/json; charset=utf-8' },
      body: Buffer.from(html ? '<html></html>' : '{"object":"list","data":[]}'),
    };
  }
  /** The event streams opened, with the signal that says their client left. */
  readonly streams: { body: PassThrough; signal: AbortSignal }[] = [];
  async stream(service: ServiceName, request: UpstreamRequest, signal: AbortSignal) {
    this.calls.push(request);
    await this.answer(service);
    const body = new PassThrough();
    this.streams.push({ body, signal });
    body.write('retry: 1000\n\n');
    return { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body };
  }
  async health() {
    return { status: 200, body: {} };
  }
  async close() {}
}

function clock() {
  let now = 5_000_000_000;
  const read = () => now;
  read.advance = (us: number) => {
    now += us;
  };
  return read;
}

async function gateway(options: {
  upstream?: Upstream;
  publicBaseUrl?: string;
  keys?: Record<string, AuthenticatedKey>;
  clock?: () => number;
  maxInFlight?: number;
}): Promise<FastifyInstance> {
  const app = fastify();
  const time = options.clock ?? clock();
  registerSecurityHeaders(app, { publicBaseUrl: options.publicBaseUrl ?? 'http://localhost:3000' });
  registerProxy(app, {
    accounts: keyStore(
      options.keys ?? { [GOOD]: authenticated('key_test', false), [LIVE]: authenticated('key_live', true) },
    ),
    upstream: options.upstream ?? new FakeUpstream(async () => {}),
    rateLimits: new ApiRateLimits(new MemoryRateLimiter(time), { live: 100, test: 25 }, 20, time),
    internalSecret: 'x'.repeat(32),
    logger: createLogger('test', 'silent'),
    maxInFlight: options.maxInFlight ?? 256,
  });
  await app.ready();
  return app;
}

const get = (app: FastifyInstance, key: string | undefined, url = '/v1/merchants', remoteAddress?: string) =>
  app.inject({
    method: 'GET',
    url,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(remoteAddress ? { remoteAddress } : {}),
  });

describe('per-key rate limit', () => {
  it('admits a test key 25 times at one instant, then answers 429 with Retry-After and the fields', async () => {
    const time = clock();
    const app = await gateway({ clock: time });
    const statuses: number[] = [];
    for (let i = 0; i < 26; i++) statuses.push((await get(app, GOOD)).statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(25);
    const first = await get(app, LIVE);
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-policy']).toBe('"default";q=100;w=1');
    expect(first.headers['ratelimit']).toBe('"default";r=99;t=1');

    const refused = await get(app, GOOD);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['ratelimit']).toBe('"default";r=0;t=1');
    expect(refused.headers['ratelimit-policy']).toBe('"default";q=25;w=1');
    expect(refused.headers['request-id']).toMatch(/^req_/);
    expect(refused.json().error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });

    time.advance(40_000);
    expect((await get(app, GOOD)).statusCode).toBe(200);
    expect((await get(app, GOOD)).statusCode).toBe(429);
    await app.close();
  });

  it("uses the account's override", async () => {
    const app = await gateway({ keys: { [GOOD]: authenticated('key_x', false, 3) } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(app, GOOD)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    await app.close();
  });

  it('does not charge or label requests without a valid key', async () => {
    const app = await gateway({});
    const none = await get(app, undefined);
    expect(none.statusCode).toBe(401);
    expect(none.headers['ratelimit']).toBeUndefined();
    const bad = await get(app, BAD);
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['ratelimit']).toBeUndefined();
    await app.close();
  });
});

describe('failed authentications per address', () => {
  it('answers 429 after 20 failures a second from one address, but lets known keys through', async () => {
    const time = clock();
    const app = await gateway({ clock: time });
    const address = '198.51.100.4';
    expect((await get(app, GOOD, '/v1/merchants', address)).statusCode).toBe(200);
    for (let i = 0; i < 20; i++) expect((await get(app, BAD, '/v1/merchants', address)).statusCode).toBe(401);
    const refused = await get(app, BAD, '/v1/merchants', address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['ratelimit-policy']).toBe('"failed_auth";q=20;w=1');
    // A key that authenticated before still works from that address; so do other addresses.
    expect((await get(app, GOOD, '/v1/merchants', address)).statusCode).toBe(200);
    expect((await get(app, BAD, '/v1/merchants', '198.51.100.5')).statusCode).toBe(401);
    // Loopback (the default inject address) is exempt.
    for (let i = 0; i < 30; i++) expect((await get(app, BAD)).statusCode).toBe(401);
    time.advance(1_000_000);
    expect((await get(app, BAD, '/v1/merchants', address)).statusCode).toBe(401);
    await app.close();
  });
});

describe('security headers', () => {
  it('puts the baseline and the JSON CSP on API answers and errors', async () => {
    const app = await gateway({});
    for (const response of [
      await get(app, GOOD),
      await get(app, undefined),
      await get(app, GOOD, '/v1/nope'),
    ]) {
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
        'cross-origin-resource-policy': 'same-origin',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      });
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
    await app.close();
  });

  it("keeps a page's own CSP and adds HSTS behind an https base URL", async () => {
    const app = await gateway({ publicBaseUrl: 'https://pay.example.com' });
    const page = await get(app, undefined, '/pay/plink_123');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe("script-src 'self'");
    expect(page.headers['cache-control']).toBeUndefined();
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    await app.close();
  });
});

describe('upstream failures', () => {
  it('answers 504 upstream_timeout when the service does not answer in time', async () => {
    const hanging: Injectable = { inject: () => new Promise(() => {}) };
    const upstream = new InjectUpstream({ payments: hanging, invoicing: hanging, webhooks: hanging }, 100);
    const app = await gateway({ upstream });
    const started = Date.now();
    const response = await get(app, GOOD);
    expect(response.statusCode).toBe(504);
    expect(response.json().error).toMatchObject({ type: 'api_error', code: 'upstream_timeout' });
    expect(Date.now() - started).toBeLessThan(5_000);
    // Still charged, still labelled.
    expect(response.headers['ratelimit']).toBe('"default";r=24;t=1');
    await app.close();
  });

  it('answers 503 upstream_unavailable when the service cannot be reached', async () => {
    const upstream = new FakeUpstream(async () => {
      throw new ApiError('upstream_unavailable', 'The service for this route is unavailable; retry shortly.');
    });
    const app = await gateway({ upstream });
    const response = await get(app, GOOD);
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('upstream_unavailable');
    await app.close();
  });
});

describe('load shedding (in-flight bound)', () => {
  it('answers 503 with Retry-After beyond the bound, on /v1 and pages, and serves again once requests finish', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const upstream = new FakeUpstream(() => gate);
    const app = await gateway({ upstream, maxInFlight: 2 });
    // Two requests reach the (held) service and occupy the bound.
    const held = [get(app, GOOD), get(app, GOOD)];
    for (let turn = 0; upstream.calls.length < 2 && turn < 1_000; turn++)
      await new Promise((r) => setImmediate(r));
    expect(upstream.calls).toHaveLength(2);
    const shed = await Promise.all([get(app, GOOD), get(app, undefined), get(app, GOOD, '/pay/plink_1')]);
    for (const response of shed) {
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.headers['request-id']).toMatch(/^req_/);
      expect(response.json().error).toMatchObject({
        type: 'api_error',
        code: 'upstream_unavailable',
        message: expect.stringContaining('overloaded'),
        request_id: response.headers['request-id'],
      });
    }
    // Shed before any work: the service saw none of them, and the key was not charged.
    expect(upstream.calls).toHaveLength(2);
    release();
    for (const response of await Promise.all(held)) expect(response.statusCode).toBe(200);
    const after = await Promise.all([get(app, GOOD), get(app, GOOD)]);
    expect(after.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(after[1].headers['ratelimit']).toBe('"default";r=21;t=1');
    await app.close();
  });
});

async function eventuallyOpen(upstream: FakeUpstream): Promise<void> {
  while (!upstream.streams.length) await new Promise((resolve) => setTimeout(resolve, 5));
}

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
        { host: '127.0.0.1', port: address.port, path: STREAM, headers: { authorization: `Bearer ${GOOD}` } },
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
        { host: '127.0.0.1', port: address.port, path: STREAM, headers: { authorization: `Bearer ${GOOD}` } },
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
