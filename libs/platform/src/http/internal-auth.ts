// Signing and verification of the internal context the gateway attaches to every request
// it forwards. The signature covers the context and the request line, so a captured header
// cannot be replayed against another route, and expires after `maxAgeMs`.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { INTERNAL_CONTEXT_HEADER, INTERNAL_SIGNATURE_HEADER, type InternalContext } from '@paygrid/contracts';

export const CONTEXT_MAX_AGE_MS = 60_000;

/**
 * The request target as the gateway forwards and signs it: every byte that a WHATWG URL
 * parser would percent-encode is encoded already (in the path: controls, space, " # < > ` { }
 * and non-ASCII; in the query also '), so no hop re-encodes it on the way (the embedded
 * in-process injection did: `?email=o'brien@...` arrived as o%27brien and failed the
 * signature with a 401). Dot segments are left alone: the service must route exactly the path
 * the gateway authorised.
 */
/**
 * A byte the slow path below would encode (controls, space, non-ASCII and " # < > ` { }, and
 * ' which only the query encodes: a ' in the path just takes the slow path). Most targets have
 * none, and are returned as they are without the per-byte work (gateway hot path, issue 15).
 */
const NEEDS_ENCODING = /[^\x21-\x7e]|["#<>`{}']/;

export function canonicalRequestTarget(url: string): string {
  if (!NEEDS_ENCODING.test(url)) return url;
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  const query = at === -1 ? undefined : url.slice(at + 1);
  const encode = (text: string, extra: string) =>
    Array.from(Buffer.from(text, 'utf8'))
      .map((byte) => {
        const char = String.fromCharCode(byte);
        return byte <= 0x20 || byte >= 0x7f || ' "#<>`{}'.includes(char) || extra.includes(char)
          ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
          : char;
      })
      .join('');
  return query === undefined ? encode(path, '?') : `${encode(path, '?')}?${encode(query, "'")}`;
}

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

/**
 * The context handed over with the request object itself, by a caller in the same process (the
 * embedded default's gateway: apps/gateway/src/routing/in-process.ts). A property keyed by a
 * symbol no one outside this module holds: nothing a client sends (headers, body, URL) can set
 * it, so its presence is the proof that the gateway put it there, and the HMAC that proves it
 * across processes (signContext, verifyContext) is left out: about 36 µs of the embedded
 * process's one main thread per request (bench/README.md, finding 57). A request without it is
 * verified by its headers, as before.
 */
const HANDED_OVER = Symbol('paygrid.internal-context');

export function handOverContext(request: object, context: InternalContext): void {
  (request as { [HANDED_OVER]?: InternalContext })[HANDED_OVER] = context;
}

export function handedOverContext(request: object): InternalContext | undefined {
  return (request as { [HANDED_OVER]?: InternalContext })[HANDED_OVER];
}
