// The checkout's form token (payments.checkout_submissions, keyed by the token's hash): each
// token pays at most once, and a link with a limit (one_time, max_completions) never has more
// charges in flight than completions left, so concurrent payers cannot pay a one-time link
// twice (the claim of a link with a limit runs with the link row locked).

import type { Clock, Database } from '@paygrid/platform';
import { writeClaim, type IntentClaim } from '../intents/intents.sql';
import { effectiveStatus, linkOfJson, type PublicLink } from '../payment-links/payment-link';
import type { PaymentLinksService } from '../payment-links/payment-links.service';
import { completionLimit } from '../payment-links/totals';
import { checkoutClaim } from './form-claims.sql';
import type { FormClaim, FormRefusal, FormToken } from './form-token';

/** What a checkout's token can refuse. */
export type CheckoutRefusal = Extract<FormRefusal, { kind: 'full' | 'closed' }>;

/** A claimed submission older than this no longer holds a place (its charge crashed). */
const IN_FLIGHT_MS = 2 * 60 * 1000;

export class CheckoutFormTokens {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly links: PaymentLinksService,
  ) {}

  /** The token of one posted checkout form of `link`, by the token's hash. */
  of(link: PublicLink, tokenHash: string): FormToken<CheckoutRefusal> {
    return {
      claimIn: () => this.claim(link, tokenHash),
      claim: () => this.db.transaction((tx) => writeClaim(tx, this.claim(link, tokenHash))),
      release: async () => {
        await this.db.query(
          'delete from payments.checkout_submissions where token_hash = $1 and transaction_id is null',
          [tokenHash],
        );
      },
      // In tx2 with the payment: the link's completion and the token's transaction commit
      // with it, so the in-flight count of a claim never misses a success. The completion is
      // counted in the statement that records the payment succeeded (withSuccess).
      complete: {
        when: 'with_outcome',
        withSuccess: this.links.completionWithPayment,
        run: async (tx, transaction, counted) => {
          if (transaction.status === 'succeeded' && counted) {
            await this.links.completeAtLimit(tx, linkOfJson(counted));
          }
          // Read by later claims and submissions only: sent with the commit (Tx.writeAtCommit).
          tx.writeAtCommit(
            'update payments.checkout_submissions set transaction_id = $2 where token_hash = $1',
            [tokenHash, transaction.id],
          );
        },
      },
      submission: () => this.submission(tokenHash),
    };
  }

  private async submission(tokenHash: string): Promise<{ transaction_id: string | null } | undefined> {
    const [row] = await this.db.query<{ transaction_id: string | null }>(
      'select transaction_id from payments.checkout_submissions where token_hash = $1',
      [tokenHash],
    );
    return row;
  }

  /**
   * A token already used answers its first submission, even once that payment completed the
   * link; otherwise a link that cannot take payments refuses, and the claim proper runs, in
   * the caller's transaction (the charge's tx1). A link with a completion limit is locked
   * first, by a statement sent just before the one that writes the pending payment, in the
   * same write (IntentClaim.lock); then what the claim decides on (whether the token was used,
   * the link's completions and the charges in flight when it has a limit) and the token's row
   * are part of that statement (form-claims.sql.ts): its snapshot, taken after the lock was
   * granted, holds what a concurrent claim of the link committed while this one waited (one
   * statement's snapshot predates its lock). A link without a limit takes no lock: the
   * token's primary key alone makes it pay once.
   */
  private claim(link: PublicLink, tokenHash: string): IntentClaim<FormClaim<CheckoutRefusal>> {
    const now = this.clock.now();
    // Its type and max_completions never change (PaymentLinksService.update): the request's read serves.
    const limit = completionLimit(link);
    // The link as the payer's request found it: one completed meanwhile by a concurrent payer
    // is `full` (409) below, as it was busy when this payer pressed Pay, not `closed`.
    const status = effectiveStatus(link, now);
    // Object.assign, not a leading spread: Node 20's slow path (docs/style.md, finding 56).
    return Object.assign(
      {},
      checkoutClaim({
        tokenHash,
        link: link.id,
        since: new Date(now.getTime() - IN_FLIGHT_MS),
        limit,
        open: status === 'active',
        now,
      }),
      {
        decide: (decision: Record<string, unknown>): FormClaim<CheckoutRefusal> => {
          const { payable, token_used, completions, in_flight, claimed } = decision as {
            payable: boolean;
            token_used: boolean;
            completions: number;
            in_flight: number;
            claimed: boolean;
          };
          if (token_used) return { kind: 'used' };
          if (status !== 'active') return { kind: 'closed', status };
          if (limit !== null && completions + in_flight >= limit) return { kind: 'full' };
          if (!payable) return { kind: 'unpayable' };
          return claimed ? { kind: 'claimed' } : { kind: 'used' };
        },
      },
    );
  }
}
