// Where the rate-limit buckets live: in this process (embedded mode, and the fallback) or in
// Redis, shared by every gateway instance (distributed mode). Both run gcra() of gcra.ts.

import Redis from 'ioredis';
import type { Logger } from '@paygrid/platform';
import { gcra, type GcraDecision, type GcraPolicy } from './gcra';
import { GCRA_LUA } from './gcra.lua';

export type RateLimitDecision = Omit<GcraDecision, 'tat' | 'granted'>;

const decisionOf = ({ allowed, remaining, retryAfterUs, nextTokenUs }: GcraDecision): RateLimitDecision => ({
  allowed,
  remaining,
  retryAfterUs,
  nextTokenUs,
});

export interface RateLimiter {
  /** Takes one token from `bucket` if it has one. Never throws. */
  take(bucket: string, policy: GcraPolicy): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

/** Microseconds on a clock that never goes backwards (wall-clock jumps must not refill buckets). */
export type MicrosecondClock = () => number;

export const monotonicMicroseconds: MicrosecondClock = () => Math.floor(performance.now() * 1000);

const SWEEP_EVERY_US = 10_000_000;

/** Buckets in a Map; entries whose bucket is full again are swept every ten seconds. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly tats = new Map<string, number>();
  private lastSweep: number;

  constructor(private readonly clock: MicrosecondClock = monotonicMicroseconds) {
    this.lastSweep = clock();
  }

  takeNow(bucket: string, policy: GcraPolicy): RateLimitDecision {
    const now = this.clock();
    if (now - this.lastSweep > SWEEP_EVERY_US) this.sweep(now);
    const decision = gcra(this.tats.get(bucket), now, policy);
    if (decision.allowed) this.tats.set(bucket, decision.tat);
    return decisionOf(decision);
  }

  async take(bucket: string, policy: GcraPolicy): Promise<RateLimitDecision> {
    return this.takeNow(bucket, policy);
  }

  /** Whether the next take() would be refused, without taking anything. */
  wouldRefuse(bucket: string, policy: GcraPolicy): boolean {
    const tat = this.tats.get(bucket);
    return tat !== undefined && !gcra(tat, this.clock(), policy).allowed;
  }

  get size(): number {
    return this.tats.size;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [bucket, tat] of this.tats) if (tat <= now) this.tats.delete(bucket);
  }

  async close(): Promise<void> {
    this.tats.clear();
  }
}

/** What the Redis limiter did, for logs and tests ("metrics" without a metrics system). */
export interface RedisLimiterStats {
  /** Decisions taken by Redis. */
  shared: number;
  /** Decisions taken by the in-memory fallback because Redis failed (fail-open counter). */
  fallback: number;
  /** Decisions taken from a lease, without a round trip to Redis. */
  leased: number;
}

const FAILURE_LOG_EVERY_MS = 10_000;

type GcraCommand = (key: string, intervalUs: number, burst: number, want: number) => Promise<number[]>;

/**
 * How long tokens an instance took ahead (a lease) may be spent. Unspent ones are then lost:
 * the shared bucket was charged for them, so a lease only ever makes limits stricter.
 */
export const LEASE_US = 100_000;
/**
 * The largest lease: a fiftieth of the bucket, at most 64 tokens; 1 (no lease: one call per
 * request, as precise as the script) below a bucket of 100. An instance holds at most one
 * lease per bucket, so a burst through N instances is admitted at least the bucket less
 * N x (leaseMax - 1) tokens, and never more than the bucket.
 */
export const leaseMax = (policy: GcraPolicy): number =>
  Math.max(1, Math.min(64, Math.floor(policy.burst / 50)));

/** Tokens of one bucket this instance took from Redis ahead of its requests. */
interface Lease {
  intervalUs: number;
  burst: number;
  /** Unspent tokens. */
  tokens: number;
  /** What Redis answered for the shared bucket when it granted them, and when. */
  remaining: number;
  nextTokenUs: number;
  grantedAt: number;
  until: number;
  /** Tokens to ask for next time: doubles while leases are spent in time, else what was spent. */
  next: number;
  spent: number;
}

/**
 * Buckets in Redis, one key per bucket (`paygrid:rl:<bucket>`, expiring once full), decided
 * by one atomic script on Redis's clock.
 *
 * **Leases.** A round trip to Redis per request was about a sixth of the gateway's CPU on an
 * authenticated read (bench/README.md, finding 30). A key busy enough to spend its tokens
 * quickly takes several at once (up to `leaseMax`: a fiftieth of its bucket, at most 64) and
 * spends them here for up to LEASE_US; the size doubles while leases are spent in time and
 * falls back to what was spent when one expires, so a key that sends a request now and then
 * asks for one token per request, as before. Tokens are taken from the shared bucket before
 * they are spent, so a lease never admits more than the limit: at worst another instance
 * refuses a request while this one holds unspent tokens, for at most LEASE_US. The RateLimit
 * headers count this instance's unspent tokens as remaining.
 *
 * **When Redis is down the gateway fails open, to per-instance limits**: each decision falls
 * back to the in-memory limiter of this instance, logs an error (at most every ten seconds,
 * with the running count) and counts it in `stats.fallback`. Payments keep flowing, and a
 * key is still held to its limit on each instance (so to N times its limit over N instances)
 * until Redis is back. Failing closed would turn a cache outage into a full API outage;
 * failing fully open would leave the services unprotected exactly when something is wrong.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly stats: RedisLimiterStats = { shared: 0, fallback: 0, leased: 0 };
  private readonly redis: Redis;
  private readonly fallback: MemoryRateLimiter;
  private readonly clock: MicrosecondClock;
  private readonly leases = new Map<string, Lease>();
  /** The call to Redis under way for a bucket that leases (at most one each). */
  private readonly inFlight = new Map<string, Promise<RateLimitDecision>>();
  private lastSweep: number;
  private lastFailureLog = 0;

  constructor(
    url: string,
    private readonly logger: Logger,
    options: { commandTimeoutMs?: number; clock?: MicrosecondClock } = {},
  ) {
    this.clock = options.clock ?? monotonicMicroseconds;
    this.lastSweep = this.clock();
    this.fallback = new MemoryRateLimiter(options.clock);
    this.redis = new Redis(url, {
      // Fail fast instead of queueing: a request must not wait for Redis to come back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // A Redis that accepts the connection but does not answer costs at most this much.
      commandTimeout: options.commandTimeoutMs ?? 250,
      // Reconnect in the background, at most every two seconds.
      retryStrategy: (times) => Math.min(times * 100, 2_000),
      // Scripts called in the same event-loop turn go out in one write: on loopback a socket
      // write cost ~0.2 ms of CPU per call here (bench/README.md, gateway-overhead).
      enableAutoPipelining: true,
    });
    this.redis.defineCommand('paygridGcra', { numberOfKeys: 1, lua: GCRA_LUA });
    // Without a listener ioredis prints every connection error to stderr.
    this.redis.on('error', (error: Error) => this.failed(error));
  }

  /** Waits (up to `timeoutMs`) for the connection; the limiter works without it (fallback). */
  async ready(timeoutMs = 2_000): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.redis.off('ready', onReady);
        resolve(false);
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.redis.once('ready', onReady);
    });
  }

  async take(bucket: string, policy: GcraPolicy): Promise<RateLimitDecision> {
    for (;;) {
      const now = this.clock();
      if (now - this.lastSweep > LEASE_US * 10) this.sweep(now);
      const lease = this.leases.get(bucket);
      const current =
        lease && lease.until > now && lease.intervalUs === policy.intervalUs && lease.burst === policy.burst
          ? lease
          : undefined;
      if (current && current.tokens > 0) {
        current.tokens--;
        current.spent++;
        this.stats.leased++;
        return this.fromLease(current, now);
      }
      if (leaseMax(policy) === 1) return this.ask(bucket, policy, 1);
      // One call to Redis per bucket at a time: requests that miss the lease meanwhile wait for
      // its grant (and share a refusal), so an instance never holds more than one lease.
      const pending = this.inFlight.get(bucket);
      if (pending) {
        const decision = await pending;
        if (!decision.allowed) return decision;
        continue;
      }
      const asked = this.ask(bucket, policy, lease ? this.nextWant(lease, current !== undefined, policy) : 1);
      this.inFlight.set(bucket, asked);
      try {
        return await asked;
      } finally {
        this.inFlight.delete(bucket);
      }
    }
  }

  /** One decision of Redis for `want` tokens (never throws: the fallback decides instead). */
  private async ask(bucket: string, policy: GcraPolicy, want: number): Promise<RateLimitDecision> {
    try {
      const command = (this.redis as unknown as { paygridGcra: GcraCommand }).paygridGcra;
      const [allowed, remaining, retryAfterUs, nextTokenUs, granted] = await command.call(
        this.redis,
        `paygrid:rl:${bucket}`,
        policy.intervalUs,
        policy.burst,
        want,
      );
      this.stats.shared++;
      if (allowed !== 1) return { allowed: false, remaining, retryAfterUs, nextTokenUs };
      return this.granted(bucket, policy, { remaining, nextTokenUs, granted, want });
    } catch (error) {
      this.stats.fallback++;
      this.failed(error as Error);
      return this.fallback.takeNow(bucket, policy);
    }
  }

  /** The size of the next lease: double after one spent in time, else what the last one spent. */
  private nextWant(lease: Lease, inTime: boolean, policy: GcraPolicy): number {
    const wanted = inTime ? lease.next * 2 : Math.max(1, lease.spent);
    return Math.min(wanted, leaseMax(policy));
  }

  /** Records a grant of Redis (one token for this request, the rest leased) and answers. */
  private granted(
    bucket: string,
    policy: GcraPolicy,
    grant: { remaining: number; nextTokenUs: number; granted: number; want: number },
  ): RateLimitDecision {
    const { remaining, nextTokenUs } = grant;
    // A bucket too small to lease keeps no record: one call per request, as without leases.
    if (leaseMax(policy) === 1) return { allowed: true, remaining, retryAfterUs: 0, nextTokenUs };
    const now = this.clock();
    const lease: Lease = {
      intervalUs: policy.intervalUs,
      burst: policy.burst,
      tokens: grant.granted - 1,
      remaining,
      nextTokenUs,
      grantedAt: now,
      until: now + LEASE_US,
      next: grant.want,
      spent: 1,
    };
    // Kept even when empty: a request within LEASE_US then knows the lease was spent in time.
    this.leases.set(bucket, lease);
    return this.fromLease(lease, now);
  }

  /**
   * A decision from the lease: the shared bucket's remaining as Redis last told it, refilled
   * since, plus the tokens this instance still holds.
   */
  private fromLease(lease: Lease, now: number): RateLimitDecision {
    const elapsed = now - lease.grantedAt;
    const refilled =
      elapsed < lease.nextTokenUs ? 0 : 1 + Math.floor((elapsed - lease.nextTokenUs) / lease.intervalUs);
    const sinceRefill =
      elapsed < lease.nextTokenUs
        ? elapsed - lease.nextTokenUs
        : (elapsed - lease.nextTokenUs) % lease.intervalUs;
    return {
      allowed: true,
      remaining: Math.min(lease.burst - 1, lease.remaining + refilled + lease.tokens),
      retryAfterUs: 0,
      nextTokenUs: sinceRefill < 0 ? -sinceRefill : lease.intervalUs - sinceRefill,
    };
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [bucket, lease] of this.leases) if (lease.until <= now) this.leases.delete(bucket);
  }

  private failed(error: Error): void {
    const now = Date.now();
    if (now - this.lastFailureLog < FAILURE_LOG_EVERY_MS) return;
    this.lastFailureLog = now;
    this.logger.error(
      { err: { message: error.message, name: error.name }, fallback_decisions_total: this.stats.fallback },
      'rate limiter: Redis unavailable, failing open to per-instance limits',
    );
  }

  async close(): Promise<void> {
    this.leases.clear();
    this.redis.disconnect();
    await this.fallback.close();
  }
}
