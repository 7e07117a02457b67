// The single-use token of a hosted card form, as pay-by-card.ts claims it. Each form has its
// own table and rules (checkout-form-token.ts, invoice-form-token.ts); what they share is
// the protocol: claim before charging, release when the charge never started, complete with
// the charge's transaction, and look the first submission up for a replay.

import type { TransactionRow } from '../transactions/transaction';

/** Why a form's token refuses a charge before any money moves. */
export type FormRefusal =
  /** The invoice is paid already (by this transaction). */
  | { kind: 'paid'; transaction: string }
  /** Another submission of the same invoice is being charged. */
  | { kind: 'busy' }
  /** The link has no completion left for another charge in flight. */
  | { kind: 'full' }
  /** The link cannot take payments any more (inactive, completed, expired). */
  | { kind: 'closed'; status: 'inactive' | 'completed' | 'expired' };

export type FormClaim<R extends FormRefusal = FormRefusal> =
  /** This submission may charge. */
  | { kind: 'claimed' }
  /** The token was submitted before (a double click): answer the first submission. */
  | { kind: 'used' }
  | R;

/** A form's token; `R` names the refusals that form can give. */
export interface FormToken<R extends FormRefusal = FormRefusal> {
  claim(): Promise<FormClaim<R>>;
  /** The token gives its place back: its charge never started (the card was refused first). */
  release(): Promise<void>;
  /** Records the outcome of the token's charge (after the saga recorded it). */
  complete(transaction: TransactionRow): Promise<void>;
  /** The submission of a used token: its transaction once known; undefined once released. */
  submission(): Promise<{ transaction_id: string | null } | undefined>;
}
