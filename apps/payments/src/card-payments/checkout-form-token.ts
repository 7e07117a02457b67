// The checkout's form token (payments.checkout_submissions, keyed by the token's hash): each
// token pays at most once, and a link with a limit (one_time, max_completions) never has more
// charges in flight than completions left, so concurrent payers cannot pay a one-time link
// twice (the claim runs with the link row locked).

import type { Clock, Database, Tx } from '@paygrid/platform';
import {
  effectiveStatus,
  type PaymentLinkRow,
  type PaymentLinksService,
  type PublicLink,
} from '../payment-links/payment-links.service';
import { completionLimit } from '../payment-links/totals';
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
      claimIn: (tx) => this.claim(tx, link, tokenHash),
      claim: () => this.db.transaction((tx) => this.claim(tx, link, tokenHash)),
      release: async () => {
        await this.db.query(
          'delete from payments.checkout_submissions where token_hash = $1 and transaction_id is null',
          [tokenHash],
        );
      },
      // In tx2 with the payment: the link's completion and the token's transaction commit
      // with it, so the in-flight count of a claim never misses a success.
      complete: {
        when: 'with_outcome',
        run: async (tx, transaction) => {
          if (transaction.status === 'succeeded') await this.links.recordCompletion(tx, link.id);
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
   * the caller's transaction (the charge's tx1), in three statements: the link locked, what
   * the claim decides on (whether the token was used, the charges in flight when the link has
   * a limit) read in one statement, then the token's row.
   */
  private async claim(tx: Tx, link: PublicLink, tokenHash: string): Promise<FormClaim<CheckoutRefusal>> {
    const now = this.clock.now();
    const [locked] = await tx.query<PaymentLinkRow>(
      'select * from payments.payment_links where id = $1 for update',
      [link.id],
    );
    // A statement of its own after the lock: its snapshot then holds what a concurrent claim of
    // the link committed while this one waited (one statement's snapshot predates its lock).
    const limit = completionLimit(locked);
    const [{ token_used, in_flight }] = await tx.query<{ token_used: boolean; in_flight: number }>(
      `select exists (select 1 from payments.checkout_submissions where token_hash = $1) as token_used,
              case when $4::boolean then (select count(*)::int from payments.checkout_submissions
                    where payment_link_id = $2 and transaction_id is null and created_at > $3)
                   else 0 end as in_flight`,
      [tokenHash, link.id, new Date(now.getTime() - IN_FLIGHT_MS), limit !== null],
    );
    if (token_used) return { kind: 'used' };
    // The link as the payer's request found it: one completed meanwhile by a concurrent payer
    // is `full` (409) below, as it was busy when this payer pressed Pay, not `closed`.
    const status = effectiveStatus(link, now);
    if (status !== 'active') return { kind: 'closed', status };
    if (limit !== null && locked.completions_count + in_flight >= limit) return { kind: 'full' };
    const rows = await tx.query<{ token_hash: string }>(
      `insert into payments.checkout_submissions (token_hash, payment_link_id, created_at) values ($1, $2, $3)
       on conflict (token_hash) do nothing returning token_hash`,
      [tokenHash, link.id, now],
    );
    return rows.length === 1 ? { kind: 'claimed' } : { kind: 'used' };
  }
}
