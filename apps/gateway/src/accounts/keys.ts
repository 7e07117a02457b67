// API key format and hashing. A key is `sk_test_` / `sk_live_` / `rk_test_` / `rk_live_`
// followed by 32 base62 characters (about 190 bits), so a fast hash (SHA-256) is enough to
// store it: there is nothing to brute-force. Only the hash and the last four are kept.

import { createHash } from 'node:crypto';
import { randomBase62 } from '@paygrid/platform';

export type KeyKind = 'secret' | 'restricted';

const KEY_PATTERN = /^(sk|rk)_(test|live)_[0-9A-Za-z]{32}$/;

export function generateKey(
  kind: KeyKind,
  livemode: boolean,
): { secret: string; prefix: string; last4: string } {
  const prefix = `${kind === 'secret' ? 'sk' : 'rk'}_${livemode ? 'live' : 'test'}`;
  const secret = `${prefix}_${randomBase62(32)}`;
  return { secret, prefix, last4: secret.slice(-4) };
}

export function hashKey(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/**
 * The key's identity in an instance's memory (the accounts cache, the auth-failure limiter's
 * known-good keys): its hash as base64. Computed once per request, by `authenticate`.
 */
export function keyFingerprint(hash: Buffer): string {
  return hash.toString('base64');
}

export function looksLikeKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}
