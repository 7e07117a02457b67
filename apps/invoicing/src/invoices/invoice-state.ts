// The invoice state machine (docs/api.md §6), written down once. Every state change goes
// through `transition()`, which refuses what the table does not list.
//
//   draft --finalize--> open --pay|settle--> paid
//                        |  \--void--> void
//                        \--mark_uncollectible--> uncollectible --pay|settle--> paid
//                                                               \--void--> void
// `edit` and `delete` keep a draft a draft (delete removes it); `send` keeps an open invoice
// open; `charge` (a mandate charge requested) keeps an open or uncollectible invoice as it is.
// paid and void are final.

import { ApiError } from '@paygrid/platform';
import type { InvoiceStatus } from './invoices.internal';

export type InvoiceAction =
  'edit' | 'delete' | 'finalize' | 'send' | 'charge' | 'pay' | 'settle' | 'void' | 'mark_uncollectible';

const TRANSITIONS: Record<InvoiceStatus, Partial<Record<InvoiceAction, InvoiceStatus>>> = {
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

/** Whether `action` is allowed in `status`. */
export function allows(status: InvoiceStatus, action: InvoiceAction): boolean {
  return TRANSITIONS[status][action] !== undefined;
}

/** The status after `action`, or 409 invalid_state_transition naming what is allowed. */
export function transition(id: string, status: InvoiceStatus, action: InvoiceAction): InvoiceStatus {
  const next = TRANSITIONS[status][action];
  if (next === undefined) {
    throw new ApiError(
      'invalid_state_transition',
      `Invoice '${id}' is ${status}; it cannot ${action.replace('_', ' ')}${
        status === 'draft' ? ' (finalize it first)' : ''
      }.`,
    );
  }
  return next;
}

/** The status_transitions column set when entering a state. */
export const ENTERED_AT: Partial<Record<InvoiceStatus, string>> = {
  open: 'finalized_at',
  paid: 'paid_at',
  void: 'voided_at',
  uncollectible: 'marked_uncollectible_at',
};
