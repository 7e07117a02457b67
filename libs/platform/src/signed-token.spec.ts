import { createHmac } from 'node:crypto';
import {
  FORM_TOKEN_TTL_MS,
  openToken,
  sealToken,
  signFormToken,
  tokenHash,
  verifyFormToken,
} from './signed-token';

const secret = 'x'.repeat(32);
const now = new Date('2026-01-01T00:00:00Z');
const later = new Date(now.getTime() + 60_000);

describe('signed tokens', () => {
  it('round-trips a payload until it expires', () => {
    const token = sealToken(secret, 'p', { invoice: 'inv_1', amount: 500 }, later);
    expect(openToken(secret, 'p', token, now)).toEqual({ invoice: 'inv_1', amount: 500 });
    expect(openToken(secret, 'p', token, later)).toBeNull();
  });

  it('refuses another purpose, another secret, and any altered byte', () => {
    const token = sealToken(secret, 'p', { amount: 500 }, later);
    expect(openToken(secret, 'q', token, now)).toBeNull();
    expect(openToken('y'.repeat(32), 'p', token, now)).toBeNull();
    const bytes = Buffer.from(token, 'base64url');
    for (const at of [0, 12, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const altered = Buffer.from(bytes);
      altered[at] ^= 1;
      expect(openToken(secret, 'p', altered.toString('base64url'), now)).toBeNull();
    }
    const forged = Buffer.from(JSON.stringify({ amount: 1, exp: later.getTime() })).toString('base64url');
    expect(openToken(secret, 'p', forged, now)).toBeNull();
    expect(openToken(secret, 'p', 'garbage', now)).toBeNull();
    expect(openToken(secret, 'p', `${token}.x`, now)).toBeNull();
    expect(openToken(secret, 'p', 42, now)).toBeNull();
  });

  it('is sealed: nothing of the payload can be read from the token (issue 12 finding 11)', () => {
    const payload = { account: 'acct_visible01', amount: 123456, return_url: 'https://shop.example/i/abc' };
    const token = sealToken(secret, 'p', payload, later);
    const decoded = Buffer.from(token, 'base64url').toString('latin1');
    for (const part of ['acct_visible01', '123456', 'shop.example', 'amount'])
      expect(decoded).not.toContain(part);
    // Two seals of one payload differ (a fresh IV each time).
    expect(sealToken(secret, 'p', payload, later)).not.toBe(token);
  });

  it('hashes tokens for single-use bookkeeping', () => {
    expect(tokenHash('a')).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash('a')).not.toBe(tokenHash('b'));
  });
});

describe('form tokens', () => {
  const issued = new Date('2026-01-15T12:00:00Z');
  const at = (ms: number) => new Date(issued.getTime() + ms);

  it('verify for the purpose and subject they were issued for, for an hour', () => {
    const token = signFormToken(secret, 'form', 'obj_1', issued);
    expect(verifyFormToken(secret, 'form', 'obj_1', token, issued)).toBe(true);
    expect(verifyFormToken(secret, 'form', 'obj_1', token, at(FORM_TOKEN_TTL_MS))).toBe(true);
    expect(verifyFormToken(secret, 'form', 'obj_1', token, at(FORM_TOKEN_TTL_MS + 1))).toBe(false);
    // Another instance a little behind accepts it; a token from far in the future is refused.
    expect(verifyFormToken(secret, 'form', 'obj_1', token, at(-60_000))).toBe(true);
    expect(verifyFormToken(secret, 'form', 'obj_1', token, at(-60_001))).toBe(false);
  });

  it('refuse another purpose, subject or secret, any altered part, and garbage', () => {
    const token = signFormToken(secret, 'form', 'obj_1', issued);
    expect(verifyFormToken(secret, 'other', 'obj_1', token, issued)).toBe(false);
    expect(verifyFormToken(secret, 'form', 'obj_2', token, issued)).toBe(false);
    expect(verifyFormToken('y'.repeat(32), 'form', 'obj_1', token, issued)).toBe(false);
    const [nonce, time, sig] = token.split('.');
    expect(verifyFormToken(secret, 'form', 'obj_1', `${nonce}.${Number(time) + 1}.${sig}`, issued)).toBe(
      false,
    );
    expect(verifyFormToken(secret, 'form', 'obj_1', `${nonce}x.${time}.${sig}`, issued)).toBe(false);
    expect(verifyFormToken(secret, 'form', 'obj_1', `${nonce}.${time}.${sig.slice(1)}A`, issued)).toBe(false);
    expect(verifyFormToken(secret, 'form', 'obj_1', `${token}x`, issued)).toBe(false);
    for (const bad of [undefined, 42, '', 'a.b', 'a.b.c.d', 'x'.repeat(300)]) {
      expect(verifyFormToken(secret, 'form', 'obj_1', bad, issued)).toBe(false);
    }
  });

  it('are fresh each render and keep the format the checkout has always signed', () => {
    const a = signFormToken(secret, 'paygrid-checkout', 'plink_1', issued);
    expect(a).not.toBe(signFormToken(secret, 'paygrid-checkout', 'plink_1', issued));
    const [nonce, time, sig] = a.split('.');
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(Number(time)).toBe(issued.getTime());
    const expected = createHmac('sha256', secret)
      .update(`paygrid-checkout\nplink_1\n${nonce}\n${time}`)
      .digest('base64url');
    expect(sig).toBe(expected);
  });
});
