// Which limit applies to a key, and how a decision is told to the client: the RateLimit-Policy
// and RateLimit fields of draft-ietf-httpapi-ratelimit-headers-10 on every response to a
// request with a valid key, and 429 `rate_limited` with Retry-After when it is refused.

import { ApiError } from '@paygrid/platform';
import type { RateLimitDecision } from './rate-limiter';

/** Requests per second per key when the account has no override (docs/api.md §4). */
export interface RateLimitDefaults {
  live: number;
  test: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitDefaults = { live: 100, test: 25 };

/** The account's override (`accounts.rate_limit_per_second`, both modes) or the mode's default. */
export function limitFor(
  livemode: boolean,
  accountOverride: number | null | undefined,
  defaults: RateLimitDefaults,
): number {
  if (accountOverride !== null && accountOverride !== undefined && accountOverride > 0)
    return Math.floor(accountOverride);
  return livemode ? defaults.live : defaults.test;
}

/** Whole seconds, rounded up, at least 1 (Retry-After and `t` are integers). */
export function wholeSeconds(microseconds: number): number {
  return Math.max(1, Math.ceil(microseconds / 1_000_000));
}

/**
 * `RateLimit-Policy: "default";q=<limit>;w=1` (quota `q` per window `w` seconds) and
 * `RateLimit: "default";r=<remaining>;t=<seconds until the next token>` (both Structured
 * Field lists of one item named after the policy). With a burst of one second's worth, `t` is
 * 1 in practice: a token arrives within the second; on a 429 it equals Retry-After.
 */
export function rateLimitHeaders(
  limit: number,
  decision: RateLimitDecision,
  policy = 'default',
): Record<string, string> {
  return {
    'ratelimit-policy': `"${policy}";q=${limit};w=1`,
    ratelimit: `"${policy}";r=${decision.remaining};t=${wholeSeconds(decision.nextTokenUs)}`,
  };
}

export function rateLimitedError(
  limit: number,
  decision: RateLimitDecision,
  message = `Too many requests: this key is limited to ${limit} per second. Retry after the number of seconds in Retry-After.`,
  policy = 'default',
): ApiError {
  return new ApiError('rate_limited', message, undefined, {
    headers: Object.assign(rateLimitHeaders(limit, decision, policy), {
      'retry-after': String(wholeSeconds(decision.retryAfterUs)),
    }),
  });
}
