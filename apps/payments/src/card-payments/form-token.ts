// The single-use token of a hosted card form, as pay-by-card.ts claims it. Each form has its
// own table and rules (checkout-form-token.ts, invoice-form-token.ts); what they share is
// the protocol: claim before charging, release when the charge never started, complete with
// the charge's transaction, and look the first submission up for a replay.

import type { Tx } from '@paygrid/platform';
import type { SqlPart } from '@paygrid/platform';
import type { IntentClaim } from '../intents/intents.sql';
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
  /**
   * Not claimed because the payment may not be written (its merchant: intents.sql.ts
   * `payable`): the charge's own refusal answers, and the token stays unclaimed.
   */
  | { kind: 'unpayable' }
  | R;

/** A form's token; `R` names the refusals that form can give. */
export interface FormToken<R extends FormRefusal = FormRefusal> {
  /**
   * The token's claim in the charge's tx1 (intents/intent-saga.ts `write`): what must come
   * first (a lock, sent in the same write) and the claim's write, both part of the round trip
   * that writes the pending payment (intents.sql.ts IntentClaim), so the claim and the payment
   * commit together, or roll back together when the charge is refused before the processor
   * call (a merchant that cannot take payments): never a claimed token without its payment,
   * nor one to give back.
   */
  claimIn(): IntentClaim<FormClaim<R>>;
  /** The claim in a transaction of its own, then released: a form posted without a usable card. */
  claim(): Promise<FormClaim<R>>;
  /** The token gives its place back (a claim made by `claim`, whose charge never started). */
  release(): Promise<void>;
  /**
   * Records the outcome of the token's charge. `with_outcome` runs in the saga's tx2, in the
   * transaction that records the payment (no commit of its own, and never a recorded payment
   * whose token still looks in flight); `after_outcome` runs once tx2 has committed, for a
   * token whose write may fail where the payment's record must not (invoice-form-token.ts).
   */
  complete:
    | {
        when: 'with_outcome';
        /** Sent in the statement that records the payment succeeded (RecordEffects.withSuccess). */
        withSuccess?: SqlPart;
        /** `withSuccess`: the row that write returned, on a success. */
        run(tx: Tx, transaction: TransactionRow, withSuccess?: Record<string, unknown> | null): Promise<void>;
      }
    | { when: 'after_outcome'; run(transaction: TransactionRow): Promise<void> };
  /** The submission of a used token: its transaction once known; undefined once released. */
  submission(): Promise<{ transaction_id: string | null } | undefined>;
}
