// The checkout's form token (payments.checkout_submissions, keyed by the token's hash): each
// token pays at most once, and a link with a limit (one_time, max_completions) never has more
// charges in flight than completions left, so concurrent payers cannot pay a one-time link
// twice (the claim runs with the link row locked).

import type { Clock, Database } from '@paygrid/platform';
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
      claim: () => this.claim(link, tokenHash),
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
          await tx.query(
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
   * link; otherwise a link that cannot take payments refuses, and the claim proper runs.
   */
  private async claim(link: PublicLink, tokenHash: string): Promise<FormClaim<CheckoutRefusal>> {
    if (await this.submission(tokenHash)) return { kind: 'used' };
    const status = effectiveStatus(link, this.clock.now());
    if (status !== 'active') return { kind: 'closed', status };
    return this.db.transaction(async (tx): Promise<FormClaim<CheckoutRefusal>> => {
      const [locked] = await tx.query<PaymentLinkRow>(
        'select * from payments.payment_links where id = $1 for update',
        [link.id],
      );
      const [used] = await tx.query('select 1 from payments.checkout_submissions where token_hash = $1', [
        tokenHash,
      ]);
      if (used) return { kind: 'used' };
      const limit = completionLimit(locked);
      if (limit !== null) {
        const [{ in_flight }] = await tx.query<{ in_flight: number }>(
          `select count(*)::int as in_flight from payments.checkout_submissions
            where payment_link_id = $1 and transaction_id is null and created_at > $2`,
          [link.id, new Date(this.clock.now().getTime() - IN_FLIGHT_MS)],
        );
        if (locked.completions_count + in_flight >= limit) return { kind: 'full' };
      }
      const rows = await tx.query<{ token_hash: string }>(
        `insert into payments.checkout_submissions (token_hash, payment_link_id, created_at) values ($1, $2, $3)
         on conflict (token_hash) do nothing returning token_hash`,
        [tokenHash, link.id, this.clock.now()],
      );
      return rows.length === 1 ? { kind: 'claimed' } : { kind: 'used' };
    });
  }
}
