// The gateway's rate limits as the /v1 proxy applies them: the per-key token bucket (after
// authentication: requests without a valid key are not charged to any key) and the per-address
// limit on failed authentications (before the key is looked up).

import { ApiError } from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import type { AuthenticatedKey } from '../accounts/accounts.service';
import { AuthFailureLimiter } from './auth-failures';
import { policyFor } from './gcra';
import { limitFor, rateLimitedError, rateLimitHeaders, type RateLimitDefaults } from './headers';
import { monotonicMicroseconds, type MicrosecondClock, type RateLimiter } from './rate-limiter';

export class ApiRateLimits {
  private readonly authFailures?: AuthFailureLimiter;
  /** Told of every 429 (the gateway's metrics): a key's quota or an address's failed authentications. */
  onRejected?: (limit: 'key' | 'failed_auth') => void;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly defaults: RateLimitDefaults,
    /** Failed authentications allowed per second per client address; 0 turns that limit off. */
    authFailuresPerSecond: number,
    clock: MicrosecondClock = monotonicMicroseconds,
  ) {
    if (authFailuresPerSecond > 0) this.authFailures = new AuthFailureLimiter(authFailuresPerSecond, clock);
  }

  /** Throws 429 when `address` has failed authentication too often (and the key is not known good). */
  checkAddress(address: string, secret: string): void {
    const refused = this.authFailures?.refuse(address, secret);
    if (!refused) return;
    const limit = this.authFailures?.perSecond ?? 0;
    this.onRejected?.('failed_auth');
    throw rateLimitedError(
      limit,
      refused,
      'Too many failed authentications from this address. Retry after the number of seconds in Retry-After.',
      // Its own policy name: this is the address's quota of failures, not a key's quota.
      'failed_auth',
    );
  }

  /** Records a successful authentication: the key counts as known good at every address. */
  authenticated(auth: AuthenticatedKey): void {
    this.authFailures?.succeeded(auth.fingerprint);
  }

  /** Records a failed authentication (only invalid keys count as failures). */
  notAuthenticated(address: string, error: unknown): void {
    if (error instanceof ApiError && error.code === 'invalid_api_key') this.authFailures?.failed(address);
  }

  /**
   * Takes a token from the key's bucket and sets the RateLimit fields on the reply; throws
   * 429 `rate_limited` (with the same fields and Retry-After) when the bucket is empty.
   */
  async charge(auth: AuthenticatedKey, reply: FastifyReply): Promise<void> {
    const limit = limitFor(auth.key.livemode, auth.account.rate_limit_per_second, this.defaults);
    const decision = await this.limiter.take(`key:${auth.key.id}`, policyFor(limit));
    if (!decision.allowed) {
      this.onRejected?.('key');
      throw rateLimitedError(limit, decision);
    }
    void reply.headers(rateLimitHeaders(limit, decision));
  }

  async close(): Promise<void> {
    await this.limiter.close();
  }
}
