// The dispute object (docs/api.md Part 2, disputes): its row, its states and their transitions
// (docs/style.md rule 7: in one place), and its public form.

import { isoOrNull, minorToJson, toMinor } from '@paygrid/platform';
import type { Dispute } from '@paygrid/contracts';

export type DisputeStatus = 'needs_response' | 'under_review' | 'won' | 'lost';

/**
 * Where a dispute may go from each state. Processor events can arrive out of order (a
 * `closed` before an `updated`): a move this table does not allow is an older state arriving
 * late and changes nothing.
 */
export const DISPUTE_TRANSITIONS: Readonly<Record<DisputeStatus, readonly DisputeStatus[]>> = {
  needs_response: ['under_review', 'won', 'lost'],
  under_review: ['won', 'lost'],
  won: [],
  lost: [],
};

export const isClosed = (status: DisputeStatus): boolean => DISPUTE_TRANSITIONS[status].length === 0;

export const canMove = (from: DisputeStatus, to: DisputeStatus): boolean =>
  DISPUTE_TRANSITIONS[from].includes(to);

export interface DisputeRow {
  id: string;
  account_id: string;
  livemode: boolean;
  merchant_id: string | null;
  connection_id: string | null;
  transaction_id: string;
  processor_reference: string;
  amount: string;
  fee: string;
  fee_returned: string;
  currency: string;
  reason: string;
  status: DisputeStatus;
  evidence_due_by: Date | null;
  closed_at: Date | null;
  processor_updated_at: Date;
  created_at: Date;
  updated_at: Date;
}

export function serializeDispute(d: DisputeRow): Dispute {
  return {
    id: d.id,
    object: 'dispute',
    livemode: d.livemode,
    transaction: d.transaction_id,
    merchant: d.merchant_id,
    amount: minorToJson(toMinor(d.amount)),
    fee: minorToJson(toMinor(d.fee)),
    fee_returned: minorToJson(toMinor(d.fee_returned)),
    currency: d.currency,
    reason: d.reason,
    status: d.status,
    processor_reference: d.processor_reference,
    evidence_due_by: isoOrNull(d.evidence_due_by),
    closed_at: isoOrNull(d.closed_at),
    created_at: isoOrNull(d.created_at) ?? '',
    updated_at: isoOrNull(d.updated_at) ?? '',
  };
}
