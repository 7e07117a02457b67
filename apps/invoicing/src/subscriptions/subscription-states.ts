// The subscription states of docs/api.md §6 and every transition between them, in one
// place: the service (API actions) and the billing engine (time and payment outcomes) both
// go through `assertTransition`, so no code path can invent a transition.

import { ApiError } from '@paygrid/platform';
import { SUBSCRIPTION_STATUSES } from '@paygrid/contracts';

export { SUBSCRIPTION_STATUSES };
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** from -> the states it may move to, and what moves it. */
export const TRANSITIONS: Record<SubscriptionStatus, readonly SubscriptionStatus[]> = {
  // The trial ends (engine); cancel (API).
  trialing: ['active', 'canceled'],
  // The first invoice is paid; 23 hours pass unpaid; cancel.
  incomplete: ['active', 'incomplete_expired', 'canceled'],
  // A renewal's payment fails; cancel (now, or at period end by the engine); pause (API).
  active: ['past_due', 'canceled', 'paused'],
  // A retry or an out-of-band payment succeeds; the last retry fails (per dunning_end_state); cancel.
  past_due: ['active', 'unpaid', 'canceled'],
  // The open invoice gets paid after all; cancel.
  unpaid: ['active', 'canceled'],
  // resume (API); cancel.
  paused: ['active', 'canceled'],
  canceled: [],
  incomplete_expired: [],
};

/** States whose periods the engine keeps walking through (billing, or recording paused ones). */
export const RUNNING_STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due', 'paused'];

export const TERMINAL_STATUSES: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired'];

export function canTransition(from: SubscriptionStatus, to: SubscriptionStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** 409 invalid_state_transition unless `from -> to` is allowed. */
export function assertTransition(from: SubscriptionStatus, to: SubscriptionStatus, id: string): void {
  if (!canTransition(from, to)) {
    throw new ApiError(
      'invalid_state_transition',
      `Subscription '${id}' is ${from} and cannot become ${to}.`,
    );
  }
}

/** The event that announces a move to `to` (subscription.updated when there is no specific one). */
export function eventForStatus(
  to: SubscriptionStatus,
  from: SubscriptionStatus,
):
  | 'subscription.past_due'
  | 'subscription.paused'
  | 'subscription.resumed'
  | 'subscription.canceled'
  | 'subscription.updated' {
  if (to === 'past_due') return 'subscription.past_due';
  if (to === 'paused') return 'subscription.paused';
  if (to === 'canceled') return 'subscription.canceled';
  if (from === 'paused' && to === 'active') return 'subscription.resumed';
  return 'subscription.updated';
}
