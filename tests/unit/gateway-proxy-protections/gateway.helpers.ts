// What the gateway proxy protection cases share: a bare Fastify instance with the gateway's
// security headers and proxy (gateway()), a stand-in key store with a live, a test and a bad
// key, an upstream that answers, hangs or fails as a case asks, and a clock the case moves.

import type { ServiceName } from '@paygrid/contracts';
import { ApiError, createLogger } from '@paygrid/platform';
import { PassThrough } from 'node:stream';
import { fastify, type FastifyInstance } from 'fastify';
import type { AccountsService, AuthenticatedKey } from '../../../apps/gateway/src/accounts/accounts.service';
import { hashKey, keyFingerprint } from '../../../apps/gateway/src/accounts/keys';
import { ApiRateLimits } from '../../../apps/gateway/src/rate-limit/api-rate-limits';
import { MemoryRateLimiter } from '../../../apps/gateway/src/rate-limit/rate-limiter';
import { registerProxy } from '../../../apps/gateway/src/routing/proxy';
import type { Upstream, UpstreamRequest } from '../../../apps/gateway/src/routing/upstream';
import { registerSecurityHeaders } from '../../../apps/gateway/src/security-headers';

export const GOOD = 'sk_test_goodgoodgoodgoodgoodgoodgoodgood';
export const LIVE = 'sk_live_goodgoodgoodgoodgoodgoodgoodgood';
export const BAD = 'sk_test_badbadbadbadbadbadbadbadbadbadba';

export function authenticated(
  id: string,
  livemode: boolean,
  rateLimit: number | null = null,
): AuthenticatedKey {
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
    fingerprint: '', // set by keyStore, from the secret it is found by
  };
}

/** The part of AccountsService the proxy uses. */
export function keyStore(keys: Record<string, AuthenticatedKey>): AccountsService {
  const store = {
    async authenticate(secret: string): Promise<AuthenticatedKey> {
      const found = keys[secret];
      if (!found) throw new ApiError('invalid_api_key', 'Invalid API key provided.');
      return { ...found, fingerprint: keyFingerprint(hashKey(secret)) };
    },
  };
  return store as unknown as AccountsService;
}

export class FakeUpstream implements Upstream {
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

export function clock() {
  let now = 5_000_000_000;
  const read = () => now;
  read.advance = (us: number) => {
    now += us;
  };
  return read;
}

export async function gateway(options: {
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
    logger: createLogger('test', 'silent'),
    maxInFlight: options.maxInFlight ?? 256,
  });
  await app.ready();
  return app;
}

export const get = (
  app: FastifyInstance,
  key: string | undefined,
  url = '/v1/merchants',
  remoteAddress?: string,
) =>
  app.inject({
    method: 'GET',
    url,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(remoteAddress ? { remoteAddress } : {}),
  });
