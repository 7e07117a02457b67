import { checkoutTokenHash, signCheckoutToken, verifyCheckoutToken } from './checkout-token';
import { completionLimit, lineItemsTotal } from './totals';

const SECRET = 'a-test-secret-of-sufficient-length-123456';
const NOW = new Date('2026-01-15T12:00:00Z');

describe('checkout token', () => {
  it('verifies for the link it was issued for, while recent', () => {
    const token = signCheckoutToken(SECRET, 'plink_abcdefgh', NOW);
    expect(verifyCheckoutToken(SECRET, 'plink_abcdefgh', token, NOW)).toBe(true);
    expect(verifyCheckoutToken(SECRET, 'plink_abcdefgh', token, new Date(NOW.getTime() + 30 * 60_000))).toBe(
      true,
    );
  });

  it('refuses another link, another secret, a tampered or stale token, and garbage', () => {
    const token = signCheckoutToken(SECRET, 'plink_abcdefgh', NOW);
    expect(verifyCheckoutToken(SECRET, 'plink_zzzzzzzz', token, NOW)).toBe(false);
    expect(verifyCheckoutToken(`${SECRET}x`, 'plink_abcdefgh', token, NOW)).toBe(false);
    const [nonce, issued, sig] = token.split('.');
    expect(verifyCheckoutToken(SECRET, 'plink_abcdefgh', `${nonce}.${Number(issued) + 1}.${sig}`, NOW)).toBe(
      false,
    );
    expect(verifyCheckoutToken(SECRET, 'plink_abcdefgh', `${nonce}.${issued}.${sig.slice(1)}x`, NOW)).toBe(
      false,
    );
    expect(verifyCheckoutToken(SECRET, 'plink_abcdefgh', token, new Date(NOW.getTime() + 2 * 3600_000))).toBe(
      false,
    );
    for (const bad of [undefined, '', 'a.b', 'x'.repeat(300), 42]) {
      expect(verifyCheckoutToken(SECRET, 'plink_abcdefgh', bad, NOW)).toBe(false);
    }
  });

  it('issues a different token each render and hashes without revealing it', () => {
    const a = signCheckoutToken(SECRET, 'plink_abcdefgh', NOW);
    const b = signCheckoutToken(SECRET, 'plink_abcdefgh', NOW);
    expect(a).not.toBe(b);
    expect(checkoutTokenHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(checkoutTokenHash(a)).not.toContain(a);
  });
});

describe('line item totals', () => {
  it('sums quantity x unit_amount in bigint', () => {
    expect(
      lineItemsTotal([
        { description: 'a', quantity: 3, unit_amount: 1999 },
        { description: 'b', quantity: 1, unit_amount: '1' },
      ]),
    ).toBe(5998n);
  });

  it('refuses a total above 99 999 999 999', () => {
    expect(lineItemsTotal([{ description: 'a', quantity: 2, unit_amount: 99_999_999_999 }])).toBeUndefined();
    expect(lineItemsTotal([{ description: 'a', quantity: 1, unit_amount: 99_999_999_999 }])).toBe(
      99_999_999_999n,
    );
  });

  it('completes one_time links after one payment unless max_completions says otherwise', () => {
    expect(completionLimit({ type: 'one_time', max_completions: null })).toBe(1);
    expect(completionLimit({ type: 'one_time', max_completions: 3 })).toBe(3);
    expect(completionLimit({ type: 'recurring', max_completions: null })).toBeNull();
  });
});
