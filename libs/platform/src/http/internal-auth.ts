// Signing and verification of the internal context the gateway attaches to every request
// it forwards. The signature covers the context and the request line, so a captured header
// cannot be replayed against another route, and expires after `maxAgeMs`.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { INTERNAL_CONTEXT_HEADER, INTERNAL_SIGNATURE_HEADER, type InternalContext } from '@paygrid/contracts';

export const CONTEXT_MAX_AGE_MS = 60_000;

function mac(secret: string, encoded: string, method: string, url: string): string {
  return createHmac('sha256', secret).update(`${encoded}.${method.toUpperCase()} ${url}`).digest('base64url');
}

export function signContext(
  secret: string,
  context: InternalContext,
  method: string,
  url: string,
): Record<string, string> {
  const encoded = Buffer.from(JSON.stringify(context)).toString('base64url');
  return {
    [INTERNAL_CONTEXT_HEADER]: encoded,
    [INTERNAL_SIGNATURE_HEADER]: mac(secret, encoded, method, url),
  };
}

export function verifyContext(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  method: string,
  url: string,
  now = Date.now(),
): InternalContext | undefined {
  const encoded = headers[INTERNAL_CONTEXT_HEADER];
  const signature = headers[INTERNAL_SIGNATURE_HEADER];
  if (typeof encoded !== 'string' || typeof signature !== 'string') return undefined;
  const expected = Buffer.from(mac(secret, encoded, method, url));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const context = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as InternalContext;
    if (typeof context.issued_at !== 'number' || Math.abs(now - context.issued_at) > CONTEXT_MAX_AGE_MS)
      return undefined;
    return context;
  } catch {
    return undefined;
  }
}
