// The form token of an invoice's card form (payments.invoice_payment_submissions): each form
// token pays at most once (its hash is the primary key); an invoice token pays at most once
// (a succeeded row, unique per invoice token), and while one submission of it is in flight
// another is refused; both checks run under an advisory lock on the invoice token's hash.

import type { Clock, Database } from '@paygrid/platform';
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
      claim: () => this.claim(invoiceHash, formHash),
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

  private claim(invoiceHash: string, formHash: string): Promise<FormClaim<InvoiceRefusal>> {
    return this.db.transaction(async (tx): Promise<FormClaim<InvoiceRefusal>> => {
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`invoice-payment:${invoiceHash}`]);
      const [used] = await tx.query(
        'select 1 from payments.invoice_payment_submissions where form_token_hash = $1',
        [formHash],
      );
      if (used) return { kind: 'used' };
      const [paid] = await tx.query<{ transaction_id: string }>(
        'select transaction_id from payments.invoice_payment_submissions where invoice_token_hash = $1 and succeeded',
        [invoiceHash],
      );
      if (paid) return { kind: 'paid', transaction: paid.transaction_id };
      const now = this.clock.now();
      const [busy] = await tx.query(
        `select 1 from payments.invoice_payment_submissions
          where invoice_token_hash = $1 and transaction_id is null and created_at > $2`,
        [invoiceHash, new Date(now.getTime() - IN_FLIGHT_MS)],
      );
      if (busy) return { kind: 'busy' };
      await tx.query(
        `insert into payments.invoice_payment_submissions (form_token_hash, invoice_token_hash, created_at) values ($1, $2, $3)`,
        [formHash, invoiceHash, now],
      );
      return { kind: 'claimed' };
    });
  }
}
