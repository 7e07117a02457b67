// The hosted checkout's CSRF token: HMAC-SHA256 (server secret) over the link id, a random
// nonce and the time it was issued. Each render issues a fresh one; a POST must carry a
// valid, recent token for that very link, and each token pays at most once (its hash is the
// primary key of payments.checkout_submissions). Pure functions: unit-tested.

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a rendered form can be submitted. */
export const CHECKOUT_TOKEN_TTL_MS = 60 * 60 * 1000;

const mac = (secret: string, linkId: string, nonce: string, issuedAt: number) =>
  createHmac('sha256', secret)
    .update(`paygrid-checkout\n${linkId}\n${nonce}\n${issuedAt}`)
    .digest('base64url');

export function signCheckoutToken(secret: string, linkId: string, now: Date): string {
  const nonce = randomBytes(18).toString('base64url');
  const issuedAt = now.getTime();
  return `${nonce}.${issuedAt}.${mac(secret, linkId, nonce, issuedAt)}`;
}

export function verifyCheckoutToken(
  secret: string,
  linkId: string,
  token: unknown,
  now: Date,
  ttlMs = CHECKOUT_TOKEN_TTL_MS,
): boolean {
  if (typeof token !== 'string' || token.length > 200) return false;
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  const [nonce, issued, signature] = parts;
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(nonce) || !/^\d{1,15}$/.test(issued)) return false;
  const issuedAt = Number(issued);
  const age = now.getTime() - issuedAt;
  if (age < -60_000 || age > ttlMs) return false;
  const expected = Buffer.from(mac(secret, linkId, nonce, issuedAt));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** What is stored for a used token: its hash, never the token itself. */
export const checkoutTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
