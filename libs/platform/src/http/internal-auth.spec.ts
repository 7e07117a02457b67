import { createHmac } from 'node:crypto';
import {
  INTERNAL_CONTEXT_HEADER,
  INTERNAL_SIGNATURE_HEADER,
  type AuthenticatedContext,
  type PublicContext,
} from '@paygrid/contracts';
import { CONTEXT_MAX_AGE_MS, signContext, verifyContext } from './internal-auth';

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
