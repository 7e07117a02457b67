// The estimate / quote state machine (docs/api.md §6), written down once. Every state
// change goes through `transition()`.
//
//   draft --send--> sent --accept--> accepted --convert--> invoiced
//     |               |--decline--> declined
//     |               |--expire---> expired      (the expiry job, at expires_at)
//     \--cancel--> canceled <--cancel--/
// `edit` keeps a draft a draft; `send` on a sent estimate sends it again (same number).
// declined, expired, canceled and invoiced are final.

import { ApiError } from '@paygrid/platform';

export const ESTIMATE_STATUSES = [
  'draft',
  'sent',
  'accepted',
  'declined',
  'expired',
  'canceled',
  'invoiced',
] as const;
export type EstimateStatus = (typeof ESTIMATE_STATUSES)[number];

export const ESTIMATE_KINDS = ['estimate', 'quote'] as const;
export type EstimateKind = (typeof ESTIMATE_KINDS)[number];

export type EstimateAction = 'edit' | 'send' | 'accept' | 'decline' | 'expire' | 'cancel' | 'convert';

const TRANSITIONS: Record<EstimateStatus, Partial<Record<EstimateAction, EstimateStatus>>> = {
  draft: { edit: 'draft', send: 'sent', cancel: 'canceled' },
  sent: { send: 'sent', accept: 'accepted', decline: 'declined', expire: 'expired', cancel: 'canceled' },
  accepted: { convert: 'invoiced' },
  declined: {},
  expired: {},
  canceled: {},
  invoiced: {},
};

export function allows(status: EstimateStatus, action: EstimateAction): boolean {
  return TRANSITIONS[status][action] !== undefined;
}

/** The status after `action`, or 409 invalid_state_transition. */
export function transition(id: string, status: EstimateStatus, action: EstimateAction): EstimateStatus {
  const next = TRANSITIONS[status][action];
  if (next === undefined) {
    throw new ApiError(
      'invalid_state_transition',
      `Estimate '${id}' is ${status}; it cannot be ${PAST[action]}${status === 'draft' && action !== 'edit' ? ' (send it first)' : ''}.`,
    );
  }
  return next;
}

const PAST: Record<EstimateAction, string> = {
  edit: 'edited',
  send: 'sent',
  accept: 'accepted',
  decline: 'declined',
  expire: 'expired',
  cancel: 'canceled',
  convert: 'converted',
};

/** The timestamp column set when entering a state. */
export const ENTERED_AT: Partial<Record<EstimateStatus, string>> = {
  sent: 'sent_at',
  accepted: 'accepted_at',
  declined: 'declined_at',
  expired: 'expired_at',
  canceled: 'canceled_at',
  invoiced: 'invoiced_at',
};

/** Number prefixes per kind: `EST-0001`, `Q-0001`. */
export const NUMBER_PREFIX: Record<EstimateKind, string> = { estimate: 'EST', quote: 'Q' };
