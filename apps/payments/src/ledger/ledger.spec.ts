import fc from 'fast-check';
import { assertBalanced, paymentLegs, refundLegs, UnbalancedPostingError } from './ledger';

describe('ledger postings', () => {
  it('payment and refund legs balance for any amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 99_999_999_999n }), (amount) => {
        assertBalanced(paymentLegs('mer_x', amount));
        assertBalanced(refundLegs('mer_x', amount));
      }),
    );
  });

  it('refund legs reverse payment legs', () => {
    const pay = paymentLegs('mer_x', 100n);
    const refund = refundLegs('mer_x', 100n);
    for (const leg of pay) {
      const reverse = refund.find((l) => l.ledger_account === leg.ledger_account);
      expect(reverse?.direction).toBe(leg.direction === 'debit' ? 'credit' : 'debit');
    }
  });

  it('refuses unbalanced, one-legged and non-positive postings', () => {
    expect(() =>
      assertBalanced([
        { ledger_account: 'a', direction: 'debit', amount: 100n },
        { ledger_account: 'b', direction: 'credit', amount: 99n },
      ]),
    ).toThrow(UnbalancedPostingError);
    expect(() => assertBalanced([{ ledger_account: 'a', direction: 'debit', amount: 1n }])).toThrow(
      UnbalancedPostingError,
    );
    expect(() =>
      assertBalanced([
        { ledger_account: 'a', direction: 'debit', amount: 0n },
        { ledger_account: 'b', direction: 'credit', amount: 0n },
      ]),
    ).toThrow(UnbalancedPostingError);
  });
});
