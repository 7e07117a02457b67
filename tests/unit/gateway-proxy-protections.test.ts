// The /v1 proxy's protections at unit level: a bare Fastify instance with the gateway's
// security headers and proxy, a stand-in key store and upstreams that answer, hang or fail.
// The end-to-end versions (both modes, real services) are in
// tests/integration/gateway-protections.test.ts.
//
// The shared gateway and its stand-ins are in gateway-proxy-protections/gateway.helpers.ts;
// the event stream cases in gateway-proxy-protections/event-streams.cases.ts run here too, so
// Jest loads the gateway's modules once for all of them.

import { ApiError } from '@paygrid/platform';
import { InjectUpstream, type Injectable } from '../../apps/gateway/src/routing/upstream';
import { eventStreamCases } from './gateway-proxy-protections/event-streams.cases';
import {
  authenticated,
  BAD,
  clock,
  FakeUpstream,
  gateway,
  get,
  GOOD,
  LIVE,
} from './gateway-proxy-protections/gateway.helpers';

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
    // The service takes the request and never answers (nor its event streams).
    const hanging: Injectable = { routing: () => {}, inject: () => new Promise(() => {}) };
    const upstream = new InjectUpstream(
      { payments: hanging, invoicing: hanging, webhooks: hanging },
      100,
      's'.repeat(32),
    );
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

eventStreamCases();
