// Sealed tokens carried in URLs between services (the hosted invoice page handing a card
// payment to the payments service): the payload and its expiry, encrypted and authenticated
// with AES-256-GCM under a key derived (HKDF-SHA256) from the shared secret and the token's
// purpose, so a token minted for one flow is never accepted by another, and a payer who holds
// the URL learns nothing from it (it carried the account, customer, amount and return URL as
// readable base64 JSON: issue 12 finding 11). Token: base64url(iv[12] | ciphertext | tag[16]).
//
// Form tokens (the CSRF token of every public page's POST form: checkout, invoice card form,
// quote accept/decline): nonce.issued_at.HMAC-SHA256(secret, purpose, subject, nonce,
// issued_at), where the subject is the object the form acts on. Each render issues a fresh
// one; a POST must carry a valid, recent token for that purpose and object. Single use is the
// caller's bookkeeping: it records tokenHash(token) in the transaction that acts on it.

import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

const MAX_TOKEN_LENGTH = 4096;

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Derived keys by purpose and secret: HKDF on every seal was a measurable share of the
 * checkout's CPU (its 3-D Secure return URL is sealed on every card payment). A process holds
 * a handful of secrets and purposes; the bound only guards against a caller passing many.
 */
const sealKeys = new Map<string, Buffer>();
const SEAL_KEYS_MAX = 64;

function sealKey(secret: string, purpose: string): Buffer {
  const id = `${purpose}\u0000${secret}`;
  let key = sealKeys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, 'paygrid sealed token', purpose, 32));
    if (sealKeys.size >= SEAL_KEYS_MAX) sealKeys.clear();
    sealKeys.set(id, key);
  }
  return key;
}

export function sealToken<T extends object>(
  secret: string,
  purpose: string,
  payload: T,
  expiresAt: Date,
): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealKey(secret, purpose), iv);
  cipher.setAAD(Buffer.from(purpose));
  // Object.assign, not a leading spread: on Node 20 (V8 11.3) every member added after `{ ...x }` takes a slow path, ~1 us each (bench/README.md finding 56).
  const plain = Buffer.from(JSON.stringify(Object.assign({}, payload, { exp: expiresAt.getTime() })));
  const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return sealed.toString('base64url');
}

/** The payload if the token is intact, for this purpose, and not expired; otherwise null. */
export function openToken<T extends object>(
  secret: string,
  purpose: string,
  token: unknown,
  now: Date,
): T | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token))
    return null;
  const sealed = Buffer.from(token, 'base64url');
  if (sealed.length <= IV_BYTES + TAG_BYTES) return null;
  let parsed: unknown;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(secret, purpose), sealed.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
      decipher.final(),
    ]);
    parsed = JSON.parse(plain.toString('utf8'));
  } catch {
    return null; // tampered, another purpose or secret, or not a token at all
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
