import { openToken, sealToken, tokenHash } from './signed-token';

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
    const [body, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ amount: 1, exp: later.getTime() })).toString('base64url');
    expect(openToken(secret, 'p', `${forged}.${sig}`, now)).toBeNull();
    expect(openToken(secret, 'p', `${body}.${sig.slice(1)}A`, now)).toBeNull();
    expect(openToken(secret, 'p', 'garbage', now)).toBeNull();
    expect(openToken(secret, 'p', 42, now)).toBeNull();
  });

  it('hashes tokens for single-use bookkeeping', () => {
    expect(tokenHash('a')).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash('a')).not.toBe(tokenHash('b'));
  });
});
