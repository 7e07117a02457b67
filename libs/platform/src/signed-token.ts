// Short signed tokens carried in URLs between services (e.g. the hosted invoice page handing a
// card payment to the payments service): base64url(JSON payload with expiry) + "." +
// base64url(HMAC-SHA256(secret, purpose + payload)). The purpose binds a token to one use, so
// a token minted for one flow is never accepted by another. Not encrypted: put nothing secret
// in the payload.
//
// Form tokens (the CSRF token of every public page's POST form: checkout, invoice card form,
// quote accept/decline): nonce.issued_at.HMAC-SHA256(secret, purpose, subject, nonce,
// issued_at), where the subject is the object the form acts on. Each render issues a fresh
// one; a POST must carry a valid, recent token for that purpose and object. Single use is the
// caller's bookkeeping: it records tokenHash(token) in the transaction that acts on it.

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const MAX_TOKEN_LENGTH = 4096;

const mac = (secret: string, purpose: string, body: string) =>
  createHmac('sha256', secret).update(`${purpose}\n${body}`).digest('base64url');

export function sealToken<T extends object>(
  secret: string,
  purpose: string,
  payload: T,
  expiresAt: Date,
): string {
  const body = Buffer.from(JSON.stringify({ ...payload, exp: expiresAt.getTime() })).toString('base64url');
  return `${body}.${mac(secret, purpose, body)}`;
}

/** The payload if the token is intact, for this purpose, and not expired; otherwise null. */
export function openToken<T extends object>(
  secret: string,
  purpose: string,
  token: unknown,
  now: Date,
): T | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const body = token.slice(0, dot);
  const expected = Buffer.from(mac(secret, purpose, body));
  const given = Buffer.from(token.slice(dot + 1));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { exp, ...payload } = parsed as { exp?: unknown };
  if (typeof exp !== 'number' || exp <= now.getTime()) return null;
  return payload as T;
}

/** What to store to make a token single-use: its hash, never the token. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** How long a rendered form can be submitted. */
export const FORM_TOKEN_TTL_MS = 60 * 60 * 1000;
/** A form token issued up to this far in the future (another instance's clock) is accepted. */
const FORM_TOKEN_SKEW_MS = 60_000;

const formMac = (secret: string, purpose: string, subject: string, nonce: string, issuedAt: number) =>
  createHmac('sha256', secret).update(`${purpose}\n${subject}\n${nonce}\n${issuedAt}`).digest('base64url');

export function signFormToken(secret: string, purpose: string, subject: string, now: Date): string {
  const nonce = randomBytes(18).toString('base64url');
  const issuedAt = now.getTime();
  return `${nonce}.${issuedAt}.${formMac(secret, purpose, subject, nonce, issuedAt)}`;
}

/** Whether the token was issued for this purpose and subject, with this secret, and is recent. */
export function verifyFormToken(
  secret: string,
  purpose: string,
  subject: string,
  token: unknown,
  now: Date,
  ttlMs = FORM_TOKEN_TTL_MS,
): boolean {
  if (typeof token !== 'string' || token.length > 200) return false;
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  const [nonce, issued, signature] = parts;
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(nonce) || !/^\d{1,15}$/.test(issued)) return false;
  const issuedAt = Number(issued);
  const age = now.getTime() - issuedAt;
  if (age < -FORM_TOKEN_SKEW_MS || age > ttlMs) return false;
  const expected = Buffer.from(formMac(secret, purpose, subject, nonce, issuedAt));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
