// Where the rate-limit buckets live: in this process (embedded mode, and the fallback) or in
// Redis, shared by every gateway instance (distributed mode). Both run gcra() of gcra.ts.

import Redis from 'ioredis';
import type { Logger } from '@paygrid/platform';
import { gcra, type GcraDecision, type GcraPolicy } from './gcra';
import { GCRA_LUA } from './gcra.lua';

export type RateLimitDecision = Omit<GcraDecision, 'tat'>;

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
    const { tat, ...decision } = gcra(this.tats.get(bucket), now, policy);
    if (decision.allowed) this.tats.set(bucket, tat);
    return decision;
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
}

const FAILURE_LOG_EVERY_MS = 10_000;

type GcraCommand = (key: string, intervalUs: number, burst: number) => Promise<number[]>;

/**
 * Buckets in Redis, one key per bucket (`paygrid:rl:<bucket>`, expiring once full), decided
 * by one atomic script on Redis's clock. One round trip per request.
 *
 * **When Redis is down the gateway fails open, to per-instance limits**: each decision falls
 * back to the in-memory limiter of this instance, logs an error (at most every ten seconds,
 * with the running count) and counts it in `stats.fallback`. Payments keep flowing, and a
 * key is still held to its limit on each instance (so to N times its limit over N instances)
 * until Redis is back. Failing closed would turn a cache outage into a full API outage;
 * failing fully open would leave the services unprotected exactly when something is wrong.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly stats: RedisLimiterStats = { shared: 0, fallback: 0 };
  private readonly redis: Redis;
  private readonly fallback: MemoryRateLimiter;
  private lastFailureLog = 0;

  constructor(
    url: string,
    private readonly logger: Logger,
    options: { commandTimeoutMs?: number; clock?: MicrosecondClock } = {},
  ) {
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
    try {
      const command = (this.redis as unknown as { paygridGcra: GcraCommand }).paygridGcra;
      const [allowed, remaining, retryAfterUs, nextTokenUs] = await command.call(
        this.redis,
        `paygrid:rl:${bucket}`,
        policy.intervalUs,
        policy.burst,
      );
      this.stats.shared++;
      return { allowed: allowed === 1, remaining, retryAfterUs, nextTokenUs };
    } catch (error) {
      this.stats.fallback++;
      this.failed(error as Error);
      return this.fallback.takeNow(bucket, policy);
    }
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
    this.redis.disconnect();
    await this.fallback.close();
  }
}
