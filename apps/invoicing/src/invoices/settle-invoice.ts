// Settlement from payments.events.v1 (called by the payments feed, inside its inbox
// transaction): payment.succeeded naming an invoice credits it once, payment.failed records
// the failure; the registered listeners (the billing engine's dunning) run in the same
// transaction.

import type { EventEnvelope } from '@paygrid/contracts';
import { toMinor, type Tx } from '@paygrid/platform';
import { type InvoiceRow, type LastPayment, toInvoice } from './invoice.serializer';
import type { InvoiceStore } from './invoice.sql';
import type { PaymentOutcomeListener } from './invoices.internal';

/** A payment or refund object of payments.events.v1, as far as invoices read it. */
export interface PaymentEventObject {
  id?: string;
  invoice?: string | null;
  customer?: string | null;
  reference?: string | null;
  amount?: number;
  currency?: string;
  failure_code?: string | null;
  failure_message?: string | null;
}

export async function applyPaymentEvent(
  store: InvoiceStore,
  listeners: readonly PaymentOutcomeListener[],
  tx: Tx,
  event: EventEnvelope<PaymentEventObject>,
): Promise<void> {
  const payment = event.data.object;
  if (!payment.invoice || !payment.id) return;
  const tenant = { account: event.account, livemode: event.livemode };
  const [current] = await tx.query<InvoiceRow>(
    'select * from invoicing.invoices where id = $1 and account_id = $2 and livemode = $3 for update',
    [payment.invoice, tenant.account, tenant.livemode],
  );
  if (!current) return;
  const at = new Date(event.created_at);
  const succeeded = event.type === 'payment.succeeded';
  const lastPayment: LastPayment = {
    status: succeeded ? 'succeeded' : 'failed',
    transaction: payment.id,
    reference: payment.reference ?? null,
    failure_code: succeeded ? null : (payment.failure_code ?? null),
    failure_message: succeeded ? null : (payment.failure_message ?? null),
    at: at.toISOString(),
  };
  let row = current;
  if (succeeded) {
    const amount = payment.currency === current.currency ? toMinor(payment.amount ?? 0) : 0n;
    const [credited] = await tx.query(
      `insert into invoicing.invoice_payments (transaction_id, invoice_id, amount, currency, reference, paid_at)
       values ($1, $2, $3, $4, $5, $6) on conflict (transaction_id) do nothing returning transaction_id`,
      [
        payment.id,
        current.id,
        amount.toString(),
        payment.currency ?? current.currency,
        payment.reference ?? null,
        at,
      ],
    );
    if (!credited) return;
    const paid = toMinor(current.amount_paid) + amount;
    const due = toMinor(current.total) - paid;
    const changes = {
      amount_paid: paid.toString(),
      amount_due: (due > 0n ? due : 0n).toString(),
      last_payment: JSON.stringify(lastPayment),
    };
    // A payment for a void or paid invoice is recorded (amount_paid) but changes no state:
    // the merchant refunds it through /v1/refunds.
    const settles = due <= 0n && (current.status === 'open' || current.status === 'uncollectible');
    row = settles
      ? await store.move(tx, current, 'settle', at, changes)
      : await store.patch(tx, current, changes, at);
  } else {
    row = await store.patch(tx, current, { last_payment: JSON.stringify(lastPayment) }, at);
    if (current.status === 'open' || current.status === 'uncollectible') {
      await store.emit(tx, 'invoice.payment_failed', row, at);
    }
  }
  for (const listener of listeners) {
    await listener(tx, {
      tenant,
      invoice: toInvoice(row),
      outcome: succeeded ? 'succeeded' : 'failed',
      transaction: payment.id,
      reference: lastPayment.reference,
      failure_code: lastPayment.failure_code,
      failure_message: lastPayment.failure_message,
      at,
    });
  }
}
