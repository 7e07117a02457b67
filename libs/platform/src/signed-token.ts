// Short signed tokens carried in URLs between services (e.g. the hosted invoice page handing a
// card payment to the payments service): base64url(JSON payload with expiry) + "." +
// base64url(HMAC-SHA256(secret, purpose + payload)). The purpose binds a token to one use, so
// a token minted for one flow is never accepted by another. Not encrypted: put nothing secret
// in the payload.

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

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
