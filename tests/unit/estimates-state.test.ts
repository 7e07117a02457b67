// The estimate state machine as written down in estimate-state.ts: every (status, action)
// pair, so a change to the table is a deliberate one.

import { ApiError } from '@paygrid/platform';
import {
  allows,
  ESTIMATE_STATUSES,
  transition,
  type EstimateAction,
} from '../../apps/invoicing/src/estimates/estimate-state';

const ACTIONS: EstimateAction[] = ['edit', 'send', 'accept', 'decline', 'expire', 'cancel', 'convert'];

const ALLOWED: Record<string, string> = {
  'draft edit': 'draft',
  'draft send': 'sent',
  'draft cancel': 'canceled',
  'sent send': 'sent',
  'sent accept': 'accepted',
  'sent decline': 'declined',
  'sent expire': 'expired',
  'sent cancel': 'canceled',
  'accepted convert': 'invoiced',
};

it('allows exactly the transitions of docs/api.md §6 and refuses the rest with 409 invalid_state_transition', () => {
  for (const status of ESTIMATE_STATUSES) {
    for (const action of ACTIONS) {
      const expected = ALLOWED[`${status} ${action}`];
      expect({ status, action, allowed: allows(status, action) }).toEqual({
        status,
        action,
        allowed: expected !== undefined,
      });
      if (expected) {
        expect(transition('est_test0000', status, action)).toBe(expected);
      } else {
        let error: unknown;
        try {
          transition('est_test0000', status, action);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).code).toBe('invalid_state_transition');
      }
    }
  }
});

it('keeps declined, expired, canceled and invoiced final', () => {
  for (const status of ['declined', 'expired', 'canceled', 'invoiced'] as const) {
    expect(ACTIONS.filter((a) => allows(status, a))).toEqual([]);
  }
});
