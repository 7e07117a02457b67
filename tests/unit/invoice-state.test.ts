// The invoice state machine (docs/api.md §6), exhaustively: every status x action pair.

import { allows, transition, type InvoiceAction } from '../../apps/invoicing/src/invoices/invoice-state';
import { INVOICE_STATUSES, type InvoiceStatus } from '../../apps/invoicing/src/invoices/invoices.internal';

const ACTIONS: InvoiceAction[] = [
  'edit',
  'delete',
  'finalize',
  'send',
  'charge',
  'pay',
  'settle',
  'void',
  'mark_uncollectible',
];

/** The contract, written independently of the table in invoice-state.ts. */
const EXPECTED: Record<InvoiceStatus, Partial<Record<InvoiceAction, InvoiceStatus>>> = {
  draft: { edit: 'draft', delete: 'draft', finalize: 'open' },
  open: {
    send: 'open',
    charge: 'open',
    pay: 'paid',
    settle: 'paid',
    void: 'void',
    mark_uncollectible: 'uncollectible',
  },
  uncollectible: { charge: 'uncollectible', pay: 'paid', settle: 'paid', void: 'void' },
  paid: {},
  void: {},
};

describe('invoice transitions', () => {
  for (const status of INVOICE_STATUSES) {
    for (const action of ACTIONS) {
      const next = EXPECTED[status][action];
      it(`${status} --${action}--> ${next ?? '409 invalid_state_transition'}`, () => {
        expect(allows(status, action)).toBe(next !== undefined);
        if (next) {
          expect(transition('inv_test0001', status, action)).toBe(next);
        } else {
          expect(() => transition('inv_test0001', status, action)).toThrow(
            expect.objectContaining({ code: 'invalid_state_transition', status: 409 }),
          );
        }
      });
    }
  }

  it('keeps paid and void final', () => {
    for (const action of ACTIONS) {
      expect(allows('paid', action)).toBe(false);
      expect(allows('void', action)).toBe(false);
    }
  });
});
