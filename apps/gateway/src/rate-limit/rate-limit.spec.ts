import { hashKey, keyFingerprint } from '../accounts/keys';
import { AuthFailureLimiter, isLoopback } from './auth-failures';
import { policyFor } from './gcra';
import { limitFor, rateLimitedError, rateLimitHeaders, wholeSeconds } from './headers';
import { MemoryRateLimiter } from './rate-limiter';

/** A clock tests move by hand, in microseconds. */
function manualClock(start = 1_000_000_000) {
  let now = start;
  const clock = () => now;
  clock.advance = (us: number) => {
    now += us;
  };
  return clock;
}

describe('limitFor', () => {
  const defaults = { live: 100, test: 25 };
  it('uses the mode default unless the account has an override, which applies to both modes', () => {
    expect(limitFor(true, null, defaults)).toBe(100);
    expect(limitFor(false, null, defaults)).toBe(25);
    expect(limitFor(false, undefined, defaults)).toBe(25);
    expect(limitFor(false, 500, defaults)).toBe(500);
    expect(limitFor(true, 7, defaults)).toBe(7);
  });
});

describe('RateLimit fields and 429', () => {
  it('formats the draft-10 fields and rounds seconds up to at least 1', () => {
    expect(
      rateLimitHeaders(25, { allowed: true, remaining: 24, retryAfterUs: 0, nextTokenUs: 40_000 }),
    ).toEqual({
      'ratelimit-policy': '"default";q=25;w=1',
      ratelimit: '"default";r=24;t=1',
    });
    expect(wholeSeconds(1)).toBe(1);
    expect(wholeSeconds(1_000_000)).toBe(1);
    expect(wholeSeconds(1_000_001)).toBe(2);
    expect(wholeSeconds(0)).toBe(1);
  });

  it('builds a 429 rate_limited with Retry-After and the fields', () => {
    const error = rateLimitedError(25, {
      allowed: false,
      remaining: 0,
      retryAfterUs: 2_500_000,
      nextTokenUs: 2_500_000,
    });
    expect(error.status).toBe(429);
    expect(error.code).toBe('rate_limited');
    expect(error.extra.headers).toEqual({
      'ratelimit-policy': '"default";q=25;w=1',
      ratelimit: '"default";r=0;t=3',
      'retry-after': '3',
    });
    expect(error.toEnvelope('req_x').error.type).toBe('rate_limit_error');
  });
});

describe('MemoryRateLimiter', () => {
  it('keeps one bucket per name and refills with the clock', async () => {
    const clock = manualClock();
    const limiter = new MemoryRateLimiter(clock);
    const policy = policyFor(2);
    expect((await limiter.take('a', policy)).allowed).toBe(true);
    expect((await limiter.take('a', policy)).allowed).toBe(true);
    const refused = await limiter.take('a', policy);
    expect(refused).toMatchObject({ allowed: false, retryAfterUs: 500_000 });
    expect((await limiter.take('b', policy)).allowed).toBe(true);
    expect(limiter.wouldRefuse('a', policy)).toBe(true);
    clock.advance(500_000);
    expect(limiter.wouldRefuse('a', policy)).toBe(false);
    expect((await limiter.take('a', policy)).allowed).toBe(true);
  });

  it('forgets buckets that are full again (sweep every ten seconds)', async () => {
    const clock = manualClock();
    const limiter = new MemoryRateLimiter(clock);
    for (let i = 0; i < 100; i++) await limiter.take(`k${i}`, policyFor(10));
    expect(limiter.size).toBe(100);
    clock.advance(11_000_000);
    await limiter.take('fresh', policyFor(10));
    expect(limiter.size).toBe(1);
  });
});

describe('AuthFailureLimiter', () => {
  const fingerprint = (secret: string) => keyFingerprint(hashKey(secret));
  const KEY = 'sk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  const OTHER = 'sk_test_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

  it('refuses an address after its failures per second, except keys that authenticated recently', () => {
    const clock = manualClock();
    const limiter = new AuthFailureLimiter(20, clock);
    limiter.succeeded(fingerprint(KEY));
    for (let i = 0; i < 20; i++) {
      expect(limiter.refuse('203.0.113.7', OTHER)).toBeUndefined();
      limiter.failed('203.0.113.7');
    }
    const refused = limiter.refuse('203.0.113.7', OTHER);
    expect(refused).toMatchObject({ allowed: false });
    expect(refused?.retryAfterUs).toBeGreaterThan(0);
    // A key known good on this instance still goes through (shared address: NAT, balancer).
    expect(limiter.refuse('203.0.113.7', KEY)).toBeUndefined();
    // Other addresses are unaffected.
    expect(limiter.refuse('203.0.113.8', OTHER)).toBeUndefined();
    // One token back after 1/20 s.
    clock.advance(50_000);
    expect(limiter.refuse('203.0.113.7', OTHER)).toBeUndefined();
  });

  it('forgets known-good keys after five minutes', () => {
    const clock = manualClock();
    const limiter = new AuthFailureLimiter(1, clock);
    limiter.succeeded(fingerprint(KEY));
    clock.advance(301_000_000);
    limiter.failed('203.0.113.7');
    expect(limiter.refuse('203.0.113.7', KEY)).toMatchObject({ allowed: false });
  });

  it('renews a known-good key only once half of its five minutes have passed', () => {
    const clock = manualClock();
    const limiter = new AuthFailureLimiter(1, clock);
    limiter.succeeded(fingerprint(KEY));
    clock.advance(100_000_000);
    limiter.succeeded(fingerprint(KEY)); // 200 s left: kept as it is
    clock.advance(210_000_000);
    limiter.failed('203.0.113.7');
    expect(limiter.refuse('203.0.113.7', KEY)).toMatchObject({ allowed: false });

    limiter.succeeded(fingerprint(OTHER));
    clock.advance(160_000_000);
    limiter.succeeded(fingerprint(OTHER)); // 140 s left: renewed for five minutes
    clock.advance(250_000_000);
    limiter.failed('203.0.113.9');
    expect(limiter.refuse('203.0.113.9', OTHER)).toBeUndefined();
  });

  it('exempts loopback peers', () => {
    const limiter = new AuthFailureLimiter(1, manualClock());
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      for (let i = 0; i < 5; i++) limiter.failed(address);
      expect(limiter.refuse(address, OTHER)).toBeUndefined();
    }
    expect(isLoopback('127.10.0.1')).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
    expect(isLoopback('::ffff:10.0.0.1')).toBe(false);
    expect(isLoopback('2001:db8::1')).toBe(false);
  });
});
