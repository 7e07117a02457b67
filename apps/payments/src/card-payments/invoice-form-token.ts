// The form token of an invoice's card form (payments.invoice_payment_submissions): each form
// token pays at most once (its hash is the primary key); an invoice token pays at most once
// (a succeeded row, unique per invoice token), and while one submission of it is in flight
// another is refused; both checks run under an advisory lock on the invoice token's hash.

import type { Clock, Database, Tx } from '@paygrid/platform';
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
      claimIn: (tx) => this.claim(tx, invoiceHash, formHash),
      claim: () => this.db.transaction((tx) => this.claim(tx, invoiceHash, formHash)),
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

  private async claim(tx: Tx, invoiceHash: string, formHash: string): Promise<FormClaim<InvoiceRefusal>> {
    await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`invoice-payment:${invoiceHash}`]);
    // After the lock, in its own statement: a snapshot taken before the lock was granted would
    // miss what the holder committed.
    const now = this.clock.now();
    const [{ used, paid, busy }] = await tx.query<{ used: boolean; paid: string | null; busy: boolean }>(
      `select exists (select 1 from payments.invoice_payment_submissions where form_token_hash = $1) as used,
              (select transaction_id from payments.invoice_payment_submissions
                where invoice_token_hash = $2 and succeeded limit 1) as paid,
              exists (select 1 from payments.invoice_payment_submissions
                where invoice_token_hash = $2 and transaction_id is null and created_at > $3) as busy`,
      [formHash, invoiceHash, new Date(now.getTime() - IN_FLIGHT_MS)],
    );
    if (used) return { kind: 'used' };
    if (paid) return { kind: 'paid', transaction: paid };
    if (busy) return { kind: 'busy' };
    await tx.query(
      `insert into payments.invoice_payment_submissions (form_token_hash, invoice_token_hash, created_at) values ($1, $2, $3)`,
      [formHash, invoiceHash, now],
    );
    return { kind: 'claimed' };
  }
}
