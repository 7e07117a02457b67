// The rate-limit arithmetic: GCRA (generic cell rate algorithm), the token bucket written as
// one number per bucket, its "theoretical arrival time" (TAT). No drip process, no counter
// per window: a request at `now` is admitted when the bucket, refilled at `limit` tokens per
// second up to `burst` tokens, still holds one. The same arithmetic runs in memory (embedded
// mode) and inside Redis as a Lua script (gcra.lua.ts, which mirrors this function line by
// line); both take integer microseconds so they agree to the microsecond.

/** How fast a bucket refills and how much it holds. */
export interface GcraPolicy {
  /** Microseconds between two tokens (1e6 / requests per second, rounded). */
  intervalUs: number;
  /** Tokens the bucket holds when full: the largest burst admitted at once. */
  burst: number;
}

export interface GcraDecision {
  allowed: boolean;
  /** Tokens left after this request (0 when refused). */
  remaining: number;
  /** When refused: microseconds until a request would be admitted. 0 when allowed. */
  retryAfterUs: number;
  /** Microseconds until the next token is added to the bucket (after this request). */
  nextTokenUs: number;
  /** The bucket's new TAT (unchanged when refused); a bucket whose TAT <= now is full. */
  tat: number;
  /** Tokens taken: `want`, or fewer when the bucket holds fewer (at least 1 when allowed). */
  granted: number;
}

/** Requests per second -> policy with a burst of one second's worth (at least one request). */
export function policyFor(perSecond: number): GcraPolicy {
  const rate = Math.max(1, Math.floor(perSecond));
  return { intervalUs: Math.max(1, Math.round(1_000_000 / rate)), burst: rate };
}

/**
 * One request against a bucket whose stored TAT is `storedTat` (undefined: never used or
 * expired, i.e. full), at `now` (microseconds, any fixed origin as long as it is the one the
 * TATs were written with). `want` > 1 takes up to that many tokens at once, as many as the
 * bucket holds (a gateway instance's lease of tokens: rate-limiter.ts); `remaining` and
 * `nextTokenUs` are then those after all the tokens granted.
 */
export function gcra(storedTat: number | undefined, now: number, policy: GcraPolicy, want = 1): GcraDecision {
  const { intervalUs, burst } = policy;
  const tat = storedTat === undefined || storedTat < now ? now : storedTat;
  // Tokens in the bucket: how many intervals `now` is past the instant the bucket would be
  // `burst` intervals in debt (at most `burst`, since tat >= now).
  const available = Math.floor((now - tat + burst * intervalUs) / intervalUs);
  if (available < 1) {
    // The earliest instant one request may pass.
    const allowAt = tat + intervalUs - burst * intervalUs;
    return {
      allowed: false,
      remaining: 0,
      retryAfterUs: allowAt - now,
      nextTokenUs: allowAt - now,
      tat,
      granted: 0,
    };
  }
  const granted = Math.min(want, available);
  const newTat = tat + granted * intervalUs;
  const credit = now - (newTat - burst * intervalUs);
  return {
    allowed: true,
    remaining: Math.floor(credit / intervalUs),
    retryAfterUs: 0,
    nextTokenUs: intervalUs - (credit % intervalUs),
    tat: newTat,
    granted,
  };
}
