// The form token of an invoice's card form (payments.invoice_payment_submissions): each form
// token pays at most once (its hash is the primary key); an invoice token pays at most once
// (a succeeded row, unique per invoice token), and while one submission of it is in flight
// another is refused; both checks run under an advisory lock on the invoice token's hash.

import type { Clock, Database } from '@paygrid/platform';
import { writeClaim, type IntentClaim } from '../intents/intents.sql';
import { invoiceClaim } from './form-claims.sql';
import type { FormClaim, FormRefusal, FormToken } from './form-token';

/** What an invoice form's token can refuse. */
export type InvoiceRefusal = Extract<FormRefusal, { kind: 'paid' | 'busy' }>;

/** A claimed submission older than this no longer blocks the invoice (its charge crashed). */
const IN_FLIGHT_MS = 2 * 60 * 1000;

export class InvoiceFormTokens {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The transaction that paid the invoice token, if one did. */
  async paidWith(invoiceHash: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ transaction_id: string }>(
      'select transaction_id from payments.invoice_payment_submissions where invoice_token_hash = $1 and succeeded',
      [invoiceHash],
    );
    return row?.transaction_id;
  }

  /** The form token (by its hash) of one posted card form of the invoice token (by its hash). */
  of(invoiceHash: string, formHash: string): FormToken<InvoiceRefusal> {
    return {
      claimIn: () => this.claim(invoiceHash, formHash),
      claim: () => this.db.transaction((tx) => writeClaim(tx, this.claim(invoiceHash, formHash))),
      release: async () => {
        await this.db.query(
          'delete from payments.invoice_payment_submissions where form_token_hash = $1 and transaction_id is null',
          [formHash],
        );
      },
      // After tx2, never in it: `succeeded` is unique per invoice token, and a violation (a
      // second payment of the token after the first one's in-flight window) must not roll back
      // the record of money the processor took; it fails this answer instead.
      complete: {
        when: 'after_outcome',
        run: async (transaction) => {
          await this.db.query(
            'update payments.invoice_payment_submissions set transaction_id = $2, succeeded = $3 where form_token_hash = $1',
            [formHash, transaction.id, transaction.status === 'succeeded'],
          );
        },
      },
      submission: async () => {
        const [row] = await this.db.query<{ transaction_id: string | null }>(
          'select transaction_id from payments.invoice_payment_submissions where form_token_hash = $1',
          [formHash],
        );
        return row;
      },
    };
  }

  /**
   * Under the invoice token's advisory lock, taken by a statement sent just before the one
   * that writes the pending payment, in the same write (IntentClaim.lock); then in that
   * statement (form-claims.sql.ts): its snapshot, taken after the lock was granted, holds what
   * the lock's previous holder committed.
   */
  private claim(invoiceHash: string, formHash: string): IntentClaim<FormClaim<InvoiceRefusal>> {
    const now = this.clock.now();
    return Object.assign(
      invoiceClaim({ formHash, invoiceHash, since: new Date(now.getTime() - IN_FLIGHT_MS), now }),
      {
        lock: {
          sql: 'select pg_advisory_xact_lock(hashtext($1))',
          params: [`invoice-payment:${invoiceHash}`],
        },
        decide: (decision: unknown): FormClaim<InvoiceRefusal> => {
          const { payable, used, paid, busy, claimed } = decision as {
            payable: boolean;
            used: boolean;
            paid: string | null;
            busy: boolean;
            claimed: boolean;
          };
          if (used) return { kind: 'used' };
          if (paid) return { kind: 'paid', transaction: paid };
          if (busy) return { kind: 'busy' };
          if (!payable) return { kind: 'unpayable' };
          if (!claimed) throw new Error(`invoice form token ${formHash} neither claimed nor refused`);
          return { kind: 'claimed' };
        },
      },
    );
  }
}
