// Rate limits are shared by every gateway instance through Redis: a key hammered through two
// gateways is admitted about its limit in total, not twice it. Also, against the real Redis:
// the Lua script decides exactly like gcra() of gcra.ts, and the limiter fails open to
// per-instance buckets when Redis is gone or hangs.

import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import Redis from 'ioredis';
import { createLogger } from '@paygrid/platform';
import fc from 'fast-check';
import { gcra, policyFor } from '../../apps/gateway/src/rate-limit/gcra';
import { GCRA_LUA } from '../../apps/gateway/src/rate-limit/gcra.lua';
import { LEASE_US, leaseMax, RedisRateLimiter } from '../../apps/gateway/src/rate-limit/rate-limiter';
import { freePort, startDistributedPlatform, type DistributedPlatform } from '../support/platform';

const REDIS_URL = process.env.REDIS_URL as string;

/** A MULTI with the test's script registered on it. */
interface GcraPipeline {
  gcraAt(key: string, intervalUs: number, burst: number, want: number, now: number): GcraPipeline;
  persist(key: string): GcraPipeline;
  get(key: string): GcraPipeline;
  exec(): Promise<[Error | null, unknown][]>;
}

describe('two gateway instances', () => {
  let platform: DistributedPlatform;

  beforeAll(async () => {
    platform = await startDistributedPlatform();
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('share one bucket per key: a burst through both admits the limit once, not twice', async () => {
    const second = await platform.startExtraGateway();
    try {
      const account = await platform.newAccount(['payments'], { defaultRateLimit: true });
      const urls = [platform.url, second.url];
      const call = async (i: number) => {
        const response = await fetch(`${urls[i % 2]}/v1/merchants`, {
          headers: { authorization: `Bearer ${account.testKey}` },
        });
        await response.arrayBuffer();
        return { status: response.status, instance: i % 2, policy: response.headers.get('ratelimit-policy') };
      };
      // Warm both instances' key caches with the live key, so the burst measures the limiter.
      for (const url of urls) {
        const warm = await fetch(`${url}/v1/merchants`, {
          headers: { authorization: `Bearer ${account.liveKey}` },
        });
        expect(warm.status).toBe(200);
      }
      const started = performance.now();
      const results = await Promise.all(Array.from({ length: 150 }, (_, i) => call(i)));
      const elapsedS = (performance.now() - started) / 1000;
      const accepted = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status === 429);
      expect(accepted.length + refused.length).toBe(150);
      // Burst 25 plus what refills (25/s) while the requests are in flight, plus one.
      const bound = 25 + Math.ceil(elapsedS * 25) + 1;
      expect(accepted.length).toBeGreaterThanOrEqual(25);
      expect(accepted.length).toBeLessThanOrEqual(bound);
      // Both instances answered, and both refused: they drew from the same bucket.
      expect(new Set(accepted.map((r) => r.instance)).size).toBe(2);
      expect(new Set(refused.map((r) => r.instance)).size).toBe(2);
      expect(new Set(results.map((r) => r.policy))).toEqual(new Set(['"default";q=25;w=1']));
    } finally {
      await second.stop();
    }
  });
});

describe('the Lua script against real Redis', () => {
  let redis: Redis;
  const prefix = `paygrid:rl-test:${randomBytes(4).toString('hex')}:`;

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
    redis.defineCommand('gcraAt', { numberOfKeys: 1, lua: GCRA_LUA });
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const gcraAt = (key: string, intervalUs: number, burst: number, now?: number): Promise<number[]> => {
    const command = (redis as unknown as { gcraAt: (...args: (string | number)[]) => Promise<number[]> })
      .gcraAt;
    return now === undefined
      ? command.call(redis, key, intervalUs, burst, 1)
      : command.call(redis, key, intervalUs, burst, 1, now);
  };

  it('decides exactly like gcra() on random sequences (fixed clock passed in)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 120_000 }), fc.integer({ min: 1, max: 70 })), {
          minLength: 1,
          maxLength: 80,
        }),
        async (rate, steps) => {
          const policy = policyFor(rate);
          const key = `${prefix}seq:${run++}`;
          let now = 1_700_000_000_000_000 + run * 1_000_000_000;
          let tat: number | undefined;
          // Each step asks for `want` tokens at once (a gateway instance's lease).
          for (const [gap, want] of steps) {
            now += gap;
            const expected = gcra(tat, now, policy, want);
            if (expected.allowed) tat = expected.tat;
            // The key's expiry runs on Redis's real clock, not this simulated one: persist it in
            // the same transaction, so only the script's arithmetic is compared.
            const replies = await (redis.multi() as unknown as GcraPipeline)
              .gcraAt(key, policy.intervalUs, policy.burst, want, now)
              .persist(key)
              .get(key)
              .exec();
            const [allowed, remaining, retryAfterUs, nextTokenUs, granted] = replies[0][1] as number[];
            const stored = replies[2][1] as string | null;
            expect({ allowed: allowed === 1, remaining, retryAfterUs, nextTokenUs, granted }).toEqual({
              allowed: expected.allowed,
              remaining: expected.remaining,
              retryAfterUs: expected.retryAfterUs,
              nextTokenUs: expected.nextTokenUs,
              granted: expected.granted,
            });
            // The stored TAT keeps all 16 digits (no 1.7e+15 from Lua's tostring).
            if (tat !== undefined) expect(stored).toBe(String(tat));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("uses Redis's clock, and lets the key expire once the bucket is full again", async () => {
    const key = `${prefix}clock`;
    const policy = policyFor(10);
    const decisions = [];
    for (let i = 0; i < 11; i++) decisions.push(await gcraAt(key, policy.intervalUs, policy.burst));
    expect(decisions.slice(0, 10).map((d) => d[0])).toEqual(Array(10).fill(1));
    expect(decisions[10][0]).toBe(0);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1_001);
  });
});

describe('when Redis fails', () => {
  const logger = createLogger('test', 'silent');

  it('fails open to per-instance buckets when Redis is unreachable, and counts it', async () => {
    const limiter = new RedisRateLimiter(`redis://127.0.0.1:${await freePort()}`, logger);
    try {
      expect(await limiter.ready(300)).toBe(false);
      const policy = policyFor(5);
      const decisions = [];
      for (let i = 0; i < 6; i++) decisions.push(await limiter.take('key:k1', policy));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
      expect(limiter.stats).toEqual({ shared: 0, fallback: 6, leased: 0 });
    } finally {
      await limiter.close();
    }
  });

  it('fails open within the command time-out when Redis accepts connections but never answers', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const limiter = new RedisRateLimiter(`redis://127.0.0.1:${port}`, logger, { commandTimeoutMs: 100 });
    try {
      const started = performance.now();
      const decision = await limiter.take('key:k2', policyFor(5));
      expect(decision.allowed).toBe(true);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(limiter.stats.fallback).toBe(1);
    } finally {
      await limiter.close();
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('goes back to the shared bucket when Redis is there', async () => {
    const limiter = new RedisRateLimiter(REDIS_URL, logger);
    try {
      expect(await limiter.ready()).toBe(true);
      const bucket = `test:${randomBytes(4).toString('hex')}`;
      const decision = await limiter.take(bucket, policyFor(5));
      expect(decision).toMatchObject({ allowed: true, remaining: 4 });
      expect(limiter.stats).toEqual({ shared: 1, fallback: 0, leased: 0 });
    } finally {
      await limiter.close();
    }
  });
});

describe('leases: tokens an instance takes from Redis ahead of its requests', () => {
  const logger = createLogger('test', 'silent');
  /** A limiter clock the test moves; Redis keeps its own (refills follow real time). */
  const manualClock = () => {
    let now = 1_000_000_000;
    const clock = () => now;
    clock.advance = (us: number) => {
      now += us;
    };
    return clock;
  };
  const bucket = () => `test:lease:${randomBytes(4).toString('hex')}`;
  const opened: RedisRateLimiter[] = [];
  /** A limiter on the real Redis with its own manual clock, connected; closed after the test. */
  const open = async () => {
    const clock = manualClock();
    const limiter = new RedisRateLimiter(REDIS_URL, logger, { clock });
    opened.push(limiter);
    expect(await limiter.ready()).toBe(true);
    return { limiter, clock };
  };

  afterEach(async () => {
    for (const limiter of opened.splice(0)) await limiter.close();
  });

  it('a busy key takes growing leases: far fewer round trips, and never more than its bucket', async () => {
    const { limiter } = await open();
    const policy = policyFor(500); // a bucket of 500, one token per 2 ms of Redis's clock
    expect(leaseMax(policy)).toBe(10);
    expect(leaseMax(policyFor(99))).toBe(1);
    const key = bucket();
    const started = performance.now();
    const decisions = [];
    for (let i = 0; i < 800; i++) decisions.push(await limiter.take(key, policy));
    const refill = Math.ceil((performance.now() - started) / 2) + 1;
    const admitted = decisions.filter((d) => d.allowed).length;
    // One instance spends what it leased: the whole bucket, plus what Redis refilled meanwhile.
    expect(admitted).toBeGreaterThanOrEqual(500);
    expect(admitted).toBeLessThanOrEqual(500 + refill);
    // Remaining counts down by one per admitted request, leased tokens included (plus what
    // Redis refilled meanwhile).
    decisions.slice(0, 40).forEach((d, i) => {
      expect(d.remaining).toBeGreaterThanOrEqual(499 - i);
      expect(d.remaining).toBeLessThanOrEqual(499 - i + refill);
    });
    expect(limiter.stats.leased).toBeGreaterThan(admitted / 2);
    expect(limiter.stats.shared + limiter.stats.leased).toBe(800);
    expect(limiter.stats.fallback).toBe(0);
  });

  it('concurrent requests share one call to Redis: a burst through two instances loses at most a lease each', async () => {
    const limiters = [(await open()).limiter, (await open()).limiter];
    const key = bucket();
    const policy = policyFor(500);
    // 1,500 requests at once, 750 through each instance: three times the bucket.
    const started = performance.now();
    const decisions = await Promise.all(
      Array.from({ length: 1_500 }, (_, i) => limiters[i % 2].take(key, policy)),
    );
    const refill = Math.ceil((performance.now() - started) / 2) + 1;
    const admitted = decisions.filter((d) => d.allowed).length;
    expect(admitted).toBeGreaterThanOrEqual(500 - 2 * (leaseMax(policy) - 1));
    expect(admitted).toBeLessThanOrEqual(500 + refill);
    // Far fewer calls than requests, on both instances.
    for (const limiter of limiters) expect(limiter.stats.shared).toBeLessThan(750 / 2);
  });

  it('a key with one request now and then asks for one token per request, as without leases', async () => {
    const { limiter, clock } = await open();
    const key = bucket();
    const started = performance.now();
    for (let i = 0; i < 5; i++) {
      expect(await limiter.take(key, policyFor(100))).toMatchObject({ allowed: true });
      clock.advance(LEASE_US + 1);
    }
    // The bucket was charged one token per request: leases of two would leave 89 or fewer.
    const sixth = await limiter.take(key, policyFor(100));
    const refill = Math.floor((performance.now() - started) / 10);
    expect(sixth.remaining).toBeGreaterThanOrEqual(94);
    expect(sixth.remaining).toBeLessThanOrEqual(94 + refill);
    expect(limiter.stats).toEqual({ shared: 6, fallback: 0, leased: 0 });
  });

  it('unspent tokens are not spent once the lease has expired', async () => {
    const { limiter, clock } = await open();
    const key = bucket();
    const policy = policyFor(1_000); // leases of up to 20
    for (let i = 0; i < 20; i++) await limiter.take(key, policy);
    const before = { ...limiter.stats };
    clock.advance(LEASE_US);
    await limiter.take(key, policy);
    // The lease had tokens left, but its time was up: this decision went to Redis.
    expect(limiter.stats.shared).toBe(before.shared + 1);
    expect(limiter.stats.leased).toBe(before.leased);
  });

  it('two instances hammering one key until both refuse admit the bucket once, not twice', async () => {
    const limiters = [(await open()).limiter, (await open()).limiter];
    const key = bucket();
    const policy = policyFor(200);
    const started = performance.now();
    let admitted = 0;
    let refusedInARow = 0;
    for (let i = 0; refusedInARow < 2 && i < 2_000; i++) {
      const decision = await limiters[i % 2].take(key, policy);
      if (decision.allowed) admitted++;
      refusedInARow = decision.allowed ? 0 : refusedInARow + 1;
    }
    const refill = Math.ceil((performance.now() - started) / 5) + 1;
    expect(refusedInARow).toBe(2);
    expect(admitted).toBeGreaterThanOrEqual(200);
    expect(admitted).toBeLessThanOrEqual(200 + refill);
    expect(limiters[0].stats.leased + limiters[1].stats.leased).toBeGreaterThan(0);
  });
});
