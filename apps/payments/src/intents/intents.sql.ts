// The statements of the intent saga (intent-saga.ts) on payments.transactions. A pending row
// is the intent of one processor call; it leaves `pending` once, to succeeded or failed, or
// waits in `requires_action` while the payer authenticates (3-D Secure) and leaves that once.
// The final moves are guarded by `status in ('pending', 'requires_action')` (NOT_FINAL), so a
// racing recovery, the payer's return, a processor webhook and a late outcome cannot both
// record (the second gets no row and reloads what the first recorded).

import { newId, type Database, type Tenant, type Tx } from '@paygrid/platform';
import type { PaymentIntent, TransactionRow } from '../transactions/transaction';

/** Writes a pending payment (tx1 of a charge). */
export async function insertPaymentIntent(
  tx: Tx,
  tenant: Tenant,
  intent: PaymentIntent,
  now: Date,
): Promise<TransactionRow> {
  const [row] = await tx.query<TransactionRow>(
    `insert into payments.transactions (id, account_id, livemode, merchant_id, type, status, amount, currency,
       payment_link, mandate, invoice, customer, client_reference_id, reference, payment_method, metadata, mandate_terms,
       created_at, updated_at, receipt_email)
     values ($1, $2, $3, $4, 'payment', 'pending', $5::bigint, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::jsonb,
       $16::jsonb, $15, $15, $17)
     returning *`,
    [
      newId('txn'),
      tenant.account,
      tenant.livemode,
      intent.merchant,
      intent.amount.toString(),
      intent.currency,
      intent.payment_link ?? null,
      intent.mandate ?? null,
      intent.invoice ?? null,
      intent.customer ?? null,
      intent.client_reference_id ?? null,
      intent.reference ?? null,
      intent.payment_method ? JSON.stringify(intent.payment_method) : null,
      JSON.stringify(intent.metadata ?? {}),
      now,
      intent.mandate_terms ? JSON.stringify(intent.mandate_terms) : null,
      intent.receipt_email ?? null,
    ],
  );
  return row;
}

/** The statuses an intent can still leave; requires_action is one (the payer may still pay). */
const NOT_FINAL = `status in ('pending', 'requires_action')`;

/** pending -> requires_action; undefined when the intent is no longer pending. */
export async function markRequiresAction(
  tx: Tx,
  id: string,
  action: { processor_reference: string; redirect_url: string },
  now: Date,
): Promise<TransactionRow | undefined> {
  const [row] = await tx.query<TransactionRow>(
    `update payments.transactions set status = 'requires_action', processor_reference = $2,
       authentication_url = $3, updated_at = $4
      where id = $1 and status = 'pending' returning *`,
    [id, action.processor_reference, action.redirect_url, now],
  );
  return row;
}

/** pending | requires_action -> succeeded; undefined when the intent had already left them. */
export async function markSucceeded(
  tx: Tx,
  id: string,
  processorReference: string,
  now: Date,
): Promise<TransactionRow | undefined> {
  const [row] = await tx.query<TransactionRow>(
    `update payments.transactions set status = 'succeeded', processor_reference = $2, updated_at = $3
      where id = $1 and ${NOT_FINAL} returning *`,
    [id, processorReference, now],
  );
  return row;
}

/** pending | requires_action -> failed (a null reference keeps the one recorded); undefined when final. */
export async function markFailed(
  tx: Tx,
  id: string,
  failure: { code: string; message: string; processor_reference: string | null },
  now: Date,
): Promise<TransactionRow | undefined> {
  const [row] = await tx.query<TransactionRow>(
    `update payments.transactions set status = 'failed', failure_code = $2, failure_message = $3,
       processor_reference = coalesce($4, processor_reference), updated_at = $5
      where id = $1 and ${NOT_FINAL} returning *`,
    [id, failure.code, failure.message, failure.processor_reference, now],
  );
  return row;
}

export async function transactionById(db: Tx | Database, id: string): Promise<TransactionRow> {
  const [row] = await db.query<TransactionRow>('select * from payments.transactions where id = $1', [id]);
  return row;
}

/** A typed-card payment recovery asks the processor about. */
export type StaleCardPayment = Pick<
  TransactionRow,
  'id' | 'account_id' | 'livemode' | 'status' | 'processor_reference' | 'payment_method' | 'created_at'
>;

/**
 * How long recovery keeps asking the processor about a payment left requires_action (the payer
 * never came back): a processor's authentication session is long over by then, and nothing
 * can move without the payer. After it, only a processor webhook settles the payment.
 */
export const REQUIRES_ACTION_HORIZON_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Typed-card payments left pending since before `cutoff` (a crash between the call and tx2, an
 * answer lost), or requires_action and not asked about since `cutoff` (the payer may never
 * come back: each is asked once per recovery interval, not on every run, for a week at most).
 * Charges of a stored card (a mandate_charges row) are not among them: they are re-driven.
 */
export async function staleCardPayments(db: Database, cutoff: Date): Promise<StaleCardPayment[]> {
  return db.query<StaleCardPayment>(
    `select t.id, t.account_id, t.livemode, t.status, t.processor_reference, t.payment_method, t.created_at
       from payments.transactions t
      where t.type = 'payment'
        and ((t.status = 'pending' and t.created_at < $1)
          or (t.status = 'requires_action' and t.updated_at < $1 and t.created_at > $2))
        and not exists (select 1 from payments.mandate_charges c where c.transaction_id = t.id)
     order by t.created_at limit 500`,
    [cutoff, new Date(cutoff.getTime() - REQUIRES_ACTION_HORIZON_MS)],
  );
}

/** Notes that recovery asked about a requires_action payment (the next ask waits an interval). */
export async function touchRequiresAction(db: Database, id: string, now: Date): Promise<void> {
  await db.query(
    `update payments.transactions set updated_at = $2 where id = $1 and status = 'requires_action'`,
    [id, now],
  );
}
