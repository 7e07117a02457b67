import { createHmac } from 'node:crypto';
import {
  INTERNAL_CONTEXT_HEADER,
  INTERNAL_SIGNATURE_HEADER,
  type AuthenticatedContext,
  type PublicContext,
} from '@paygrid/contracts';
import { canonicalRequestTarget, CONTEXT_MAX_AGE_MS, signContext, verifyContext } from './internal-auth';

const SECRET = 'internal-secret-0123456789abcdef0123456789';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const URL = '/v1/transactions/txn_12345678?expand=refunds';

function context(overrides: Partial<AuthenticatedContext> = {}): AuthenticatedContext {
  return {
    kind: 'api',
    account: 'acct_1234567890',
    account_name: 'Acme',
    livemode: false,
    key_id: 'key_1234567890',
    scopes: ['transactions:read', 'refunds:write'],
    groupings: ['payments'],
    request_id: 'req_1234567890',
    issued_at: NOW,
    ...overrides,
  };
}

function macOf(secret: string, encoded: string, requestLine: string): string {
  return createHmac('sha256', secret).update(`${encoded}.${requestLine}`).digest('base64url');
}

describe('signContext / verifyContext', () => {
  it('produces the two internal headers', () => {
    const headers = signContext(SECRET, context(), 'GET', URL);
    expect(Object.keys(headers).sort()).toEqual([INTERNAL_CONTEXT_HEADER, INTERNAL_SIGNATURE_HEADER].sort());
    expect(headers[INTERNAL_CONTEXT_HEADER]).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(headers[INTERNAL_SIGNATURE_HEADER]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('round-trips an authenticated context', () => {
    const ctx = context();
    const headers = signContext(SECRET, ctx, 'POST', URL);
    expect(verifyContext(SECRET, headers, 'POST', URL, NOW)).toEqual(ctx);
  });

  it('round-trips a public context', () => {
    const ctx: PublicContext = { kind: 'public', request_id: 'req_abcdefgh', issued_at: NOW };
    const headers = signContext(SECRET, ctx, 'GET', '/pay/plink_12345678');
    expect(verifyContext(SECRET, headers, 'GET', '/pay/plink_12345678', NOW)).toEqual(ctx);
  });

  it('treats the method case-insensitively', () => {
    const headers = signContext(SECRET, context(), 'post', URL);
    expect(verifyContext(SECRET, headers, 'POST', URL, NOW)).toEqual(context());
  });

  it('refuses a tampered context (re-encoded with another account)', () => {
    const headers = signContext(SECRET, context(), 'GET', URL);
    const forged = Buffer.from(JSON.stringify(context({ account: 'acct_attacker00' }))).toString('base64url');
    expect(
      verifyContext(SECRET, { ...headers, [INTERNAL_CONTEXT_HEADER]: forged }, 'GET', URL, NOW),
    ).toBeUndefined();
  });

  it('refuses a context with elevated scopes or livemode', () => {
    const headers = signContext(SECRET, context(), 'GET', URL);
    for (const changed of [context({ scopes: ['merchants:write'] }), context({ livemode: true })]) {
      const forged = Buffer.from(JSON.stringify(changed)).toString('base64url');
      expect(
        verifyContext(SECRET, { ...headers, [INTERNAL_CONTEXT_HEADER]: forged }, 'GET', URL, NOW),
      ).toBeUndefined();
    }
  });

  it('refuses a tampered signature', () => {
    const headers = signContext(SECRET, context(), 'GET', URL);
    const signature = headers[INTERNAL_SIGNATURE_HEADER];
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    expect(
      verifyContext(SECRET, { ...headers, [INTERNAL_SIGNATURE_HEADER]: flipped }, 'GET', URL, NOW),
    ).toBeUndefined();
    // a signature of another length must not throw either
    expect(
      verifyContext(SECRET, { ...headers, [INTERNAL_SIGNATURE_HEADER]: 'short' }, 'GET', URL, NOW),
    ).toBeUndefined();
    expect(
      verifyContext(SECRET, { ...headers, [INTERNAL_SIGNATURE_HEADER]: '' }, 'GET', URL, NOW),
    ).toBeUndefined();
  });

  it('refuses a context signed with another secret', () => {
    const headers = signContext(`${SECRET}-other`, context(), 'GET', URL);
    expect(verifyContext(SECRET, headers, 'GET', URL, NOW)).toBeUndefined();
  });

  it('refuses a replay against another method', () => {
    const headers = signContext(SECRET, context(), 'GET', URL);
    expect(verifyContext(SECRET, headers, 'POST', URL, NOW)).toBeUndefined();
    expect(verifyContext(SECRET, headers, 'DELETE', URL, NOW)).toBeUndefined();
  });

  it('refuses a replay against another URL (path or query string)', () => {
    const headers = signContext(SECRET, context(), 'GET', URL);
    expect(verifyContext(SECRET, headers, 'GET', '/v1/transactions/txn_87654321', NOW)).toBeUndefined();
    expect(verifyContext(SECRET, headers, 'GET', '/v1/transactions/txn_12345678', NOW)).toBeUndefined();
    expect(verifyContext(SECRET, headers, 'GET', `${URL}&x=1`, NOW)).toBeUndefined();
  });

  it(`accepts a context up to ${CONTEXT_MAX_AGE_MS} ms old and refuses an older one`, () => {
    expect(CONTEXT_MAX_AGE_MS).toBe(60_000);
    const headers = signContext(SECRET, context(), 'GET', URL);
    expect(verifyContext(SECRET, headers, 'GET', URL, NOW + 30_000)).toEqual(context());
    expect(verifyContext(SECRET, headers, 'GET', URL, NOW + 60_000)).toEqual(context());
    expect(verifyContext(SECRET, headers, 'GET', URL, NOW + 60_001)).toBeUndefined();
    expect(verifyContext(SECRET, headers, 'GET', URL, NOW + 3_600_000)).toBeUndefined();
  });

  it('refuses a context issued more than 60 s in the future', () => {
    const headers = signContext(SECRET, context({ issued_at: NOW + 120_000 }), 'GET', URL);
    expect(verifyContext(SECRET, headers, 'GET', URL, NOW)).toBeUndefined();
  });

  it('uses the current time by default', () => {
    const fresh = signContext(SECRET, context({ issued_at: Date.now() }), 'GET', URL);
    expect(verifyContext(SECRET, fresh, 'GET', URL)).toBeDefined();
    const stale = signContext(SECRET, context({ issued_at: Date.now() - 61_000 }), 'GET', URL);
    expect(verifyContext(SECRET, stale, 'GET', URL)).toBeUndefined();
  });

  it('refuses a signed context without a numeric issued_at', () => {
    const withoutIssuedAt: Partial<AuthenticatedContext> = context();
    delete withoutIssuedAt.issued_at;
    const headers = signContext(SECRET, withoutIssuedAt as AuthenticatedContext, 'GET', URL);
    expect(verifyContext(SECRET, headers, 'GET', URL, NOW)).toBeUndefined();
    const asString = signContext(
      SECRET,
      { ...context(), issued_at: String(NOW) } as unknown as AuthenticatedContext,
      'GET',
      URL,
    );
    expect(verifyContext(SECRET, asString, 'GET', URL, NOW)).toBeUndefined();
  });

  it('returns undefined (does not throw) for a correctly signed payload that is not a context', () => {
    for (const payload of ['not json', 'null', '42']) {
      const encoded = Buffer.from(payload).toString('base64url');
      const headers = {
        [INTERNAL_CONTEXT_HEADER]: encoded,
        [INTERNAL_SIGNATURE_HEADER]: macOf(SECRET, encoded, `GET ${URL}`),
      };
      expect(verifyContext(SECRET, headers, 'GET', URL, NOW)).toBeUndefined();
    }
  });

  it('returns undefined when a header is missing or not a single string', () => {
    const headers = signContext(SECRET, context(), 'GET', URL);
    const encoded = headers[INTERNAL_CONTEXT_HEADER];
    const signature = headers[INTERNAL_SIGNATURE_HEADER];
    expect(verifyContext(SECRET, {}, 'GET', URL, NOW)).toBeUndefined();
    expect(verifyContext(SECRET, { [INTERNAL_CONTEXT_HEADER]: encoded }, 'GET', URL, NOW)).toBeUndefined();
    expect(
      verifyContext(SECRET, { [INTERNAL_SIGNATURE_HEADER]: signature }, 'GET', URL, NOW),
    ).toBeUndefined();
    expect(
      verifyContext(
        SECRET,
        { [INTERNAL_CONTEXT_HEADER]: [encoded], [INTERNAL_SIGNATURE_HEADER]: signature },
        'GET',
        URL,
        NOW,
      ),
    ).toBeUndefined();
    expect(
      verifyContext(
        SECRET,
        { [INTERNAL_CONTEXT_HEADER]: encoded, [INTERNAL_SIGNATURE_HEADER]: [signature, signature] },
        'GET',
        URL,
        NOW,
      ),
    ).toBeUndefined();
  });
});

describe('canonicalRequestTarget', () => {
  // The per-byte encoding as it was before the fast path for targets that need none: every
  // target must come out exactly as this gives it (gateway and services must agree byte for byte).
  const reference = (url: string): string => {
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
  };

  it.each([
    ['/v1/merchants?limit=10', '/v1/merchants?limit=10'],
    ['/v1/customers?email=o%27brien%40x.test', '/v1/customers?email=o%27brien%40x.test'],
    ["/v1/customers?email=o'brien@x.test", '/v1/customers?email=o%27brien@x.test'],
    ["/v1/a'b", "/v1/a'b"],
    ['/v1/x?q=a b', '/v1/x?q=a%20b'],
    ['/v1/caf\u00e9', '/v1/caf%C3%A9'],
    ['/v1/x?a={1}&b=<2>#f', '/v1/x?a=%7B1%7D&b=%3C2%3E%23f'],
    ['/v1/x?created[gte]=2026-01-01T00:00:00Z', '/v1/x?created[gte]=2026-01-01T00:00:00Z'],
  ])('%s -> %s', (url, expected) => {
    expect(canonicalRequestTarget(url)).toBe(expected);
    expect(reference(url)).toBe(expected);
  });

  it('gives what the per-byte encoding gives for 20,000 random targets', () => {
    const chars = [
      ...Array.from({ length: 0x7f - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i)),
      '\t',
      '\u00e9',
      '\u20ac',
      '?',
      '?',
      "'",
    ];
    let state = 42;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      const url = `/v1/${Array.from({ length: 1 + (next() % 30) }, () => chars[next() % chars.length]).join('')}`;
      expect(canonicalRequestTarget(url)).toBe(reference(url));
    }
  });
});
