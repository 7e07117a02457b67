// The statements of the intent saga (intent-saga.ts) on payments.transactions. A pending row
// is the intent of one processor call; it leaves `pending` once, to succeeded or failed:
// both moves are guarded by `status = 'pending'`, so a racing recovery and a late outcome
// cannot both record (the second gets no row and reloads what the first recorded).

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
       payment_link, mandate, invoice, customer, client_reference_id, reference, payment_method, metadata, created_at, updated_at)
     values ($1, $2, $3, $4, 'payment', 'pending', $5::bigint, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::jsonb, $15, $15)
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
    ],
  );
  return row;
}

/** pending -> succeeded; undefined when the intent had already left pending. */
export async function markSucceeded(
  tx: Tx,
  id: string,
  processorReference: string,
  now: Date,
): Promise<TransactionRow | undefined> {
  const [row] = await tx.query<TransactionRow>(
    `update payments.transactions set status = 'succeeded', processor_reference = $2, updated_at = $3
      where id = $1 and status = 'pending' returning *`,
    [id, processorReference, now],
  );
  return row;
}

/** pending -> failed (a null reference keeps the one recorded); undefined when already out of pending. */
export async function markFailed(
  tx: Tx,
  id: string,
  failure: { code: string; message: string; processor_reference: string | null },
  now: Date,
): Promise<TransactionRow | undefined> {
  const [row] = await tx.query<TransactionRow>(
    `update payments.transactions set status = 'failed', failure_code = $2, failure_message = $3,
       processor_reference = coalesce($4, processor_reference), updated_at = $5
      where id = $1 and status = 'pending' returning *`,
    [id, failure.code, failure.message, failure.processor_reference, now],
  );
  return row;
}

export async function transactionById(db: Tx | Database, id: string): Promise<TransactionRow> {
  const [row] = await db.query<TransactionRow>('select * from payments.transactions where id = $1', [id]);
  return row;
}

/**
 * Typed-card payments left pending before `cutoff` (a crash between the call and tx2).
 * Charges of a stored card (a mandate_charges row) are not among them: they are re-driven.
 */
export async function staleCardPayments(db: Database, cutoff: Date): Promise<{ id: string }[]> {
  return db.query<{ id: string }>(
    `select t.id from payments.transactions t where t.status = 'pending' and t.type = 'payment' and t.created_at < $1
        and not exists (select 1 from payments.mandate_charges c where c.transaction_id = t.id)
     order by t.created_at limit 500`,
    [cutoff],
  );
}
