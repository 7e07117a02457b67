// Slows down key guessing and floods of bad keys: each client address may fail
// authentication (401 invalid_api_key) `perSecond` times a second (burst: one second's worth),
// in memory on each instance. Once over, its requests are answered 429 before the key is
// looked up (an unknown key costs a database round trip), except keys that authenticated
// recently on this instance: behind a load balancer or NAT many clients share an address,
// and one client's bad key must not lock the others out.
//
// A key counts as known good for 150 to 300 seconds after its last use: its entry is renewed
// only once half of that has passed, so an authenticated request costs one Map lookup here.
//
// Requests from loopback addresses are exempt: on the host itself the peer is a local
// reverse proxy (every client would share its address) or a test suite. Requests without a
// key cost nothing to refuse and are not counted.

import { isIP } from 'node:net';
import { hashKey, keyFingerprint } from '../accounts/keys';
import { policyFor, type GcraPolicy } from './gcra';
import { MemoryRateLimiter, type MicrosecondClock, type RateLimitDecision } from './rate-limiter';

const KNOWN_GOOD_TTL_US = 300_000_000;
const KNOWN_GOOD_MAX = 50_000;

export function isLoopback(address: string): boolean {
  if (address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

export class AuthFailureLimiter {
  private readonly buckets: MemoryRateLimiter;
  private readonly policy: GcraPolicy;
  /** Fingerprints of keys that authenticated recently -> when that stops counting. */
  private readonly knownGood = new Map<string, number>();

  constructor(
    readonly perSecond: number,
    private readonly clock: MicrosecondClock,
  ) {
    this.buckets = new MemoryRateLimiter(clock);
    this.policy = policyFor(perSecond);
  }

  /** A refusal (429) for this request, or undefined to go on and authenticate it. */
  refuse(address: string, secret: string): RateLimitDecision | undefined {
    if (isLoopback(address) || !this.buckets.wouldRefuse(address, this.policy)) return undefined;
    const goodUntil = this.knownGood.get(keyFingerprint(hashKey(secret)));
    if (goodUntil !== undefined && goodUntil > this.clock()) return undefined;
    return this.buckets.takeNow(address, this.policy);
  }

  failed(address: string): void {
    if (!isLoopback(address)) this.buckets.takeNow(address, this.policy);
  }

  /** `fingerprint`: the authenticated key's (`AuthenticatedKey.fingerprint`), not hashed again. */
  succeeded(fingerprint: string): void {
    const now = this.clock();
    const goodUntil = this.knownGood.get(fingerprint);
    if (goodUntil !== undefined && goodUntil - now > KNOWN_GOOD_TTL_US / 2) return;
    // Re-inserting keeps the Map in renewal order, so the oldest entries go first when full.
    this.knownGood.delete(fingerprint);
    if (this.knownGood.size >= KNOWN_GOOD_MAX) {
      const oldest = this.knownGood.keys().next();
      if (!oldest.done) this.knownGood.delete(oldest.value);
    }
    this.knownGood.set(fingerprint, now + KNOWN_GOOD_TTL_US);
  }
}
