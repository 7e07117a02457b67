// What invoicing learns from the payments service: every payment.* and refund.* event is
// recorded once (inbox + primary key), as the source of customers' billing history; a
// payment naming an invoice settles it (or records the failure) in the same transaction; a
// mandate created for a customer becomes its default_mandate when it has none. Consumed by
// PaymentsFeedConsumer (payments-feed.consumer.ts).

import { TOPICS, type EventEnvelope } from '@paygrid/contracts';
import { emitEvent, type Tx } from '@paygrid/platform';
import { serializeCustomer, type CustomerRow } from '../customers/customers.service';
import type { InvoicesService, PaymentEventObject } from '../invoices/invoices.service';

export const PAYMENTS_FEED_CONSUMER = 'invoicing.payments-feed';

export interface PaymentObject {
  id?: string;
  invoice?: string | null;
  customer?: string | null;
  /** A refund's payment. */
  transaction?: string | null;
  amount?: number;
  currency?: string;
}

/** One payments event, inside the inbox transaction that records it as handled. */
export async function handlePaymentsEvent(
  event: EventEnvelope<PaymentObject & PaymentEventObject>,
  tx: Tx,
  invoices: InvoicesService,
): Promise<void> {
  await recordPaymentFact(event, tx);
  if (event.type === 'payment.succeeded' || event.type === 'payment.failed') {
    await invoices.applyPaymentEvent(tx, event);
  }
  if (event.type === 'mandate.created') await adoptMandate(event, tx);
}

/** A customer's first mandate becomes its default_mandate (charge_automatically invoices use it). */
async function adoptMandate(event: EventEnvelope<PaymentObject>, tx: Tx): Promise<void> {
  const { id, customer } = event.data.object;
  if (!id || !customer) return;
  const at = new Date(event.created_at);
  const [row] = await tx.query<CustomerRow>(
    `update invoicing.customers set default_mandate = $1, updated_at = $5
      where id = $2 and account_id = $3 and livemode = $4 and default_mandate is null returning *`,
    [id, customer, event.account, event.livemode, at],
  );
  if (!row) return;
  await emitEvent(tx, TOPICS.invoicingEvents, {
    type: 'customer.updated',
    account: row.account_id,
    livemode: row.livemode,
    object: serializeCustomer(row),
    previous_attributes: { default_mandate: null },
    at,
  });
}

export async function recordPaymentFact(event: EventEnvelope<PaymentObject>, tx: Tx): Promise<void> {
  if (!event.type.startsWith('payment.') && !event.type.startsWith('refund.')) return;
  const object = event.data.object;
  await tx.query(
    `insert into invoicing.payment_facts (event_id, account_id, livemode, type, object_id, invoice_id, customer_id, amount, currency, occurred_at, payment_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict (event_id) do nothing`,
    [
      event.id,
      event.account,
      event.livemode,
      event.type,
      object.id ?? '',
      object.invoice ?? null,
      object.customer ?? null,
      object.amount ?? null,
      object.currency ?? null,
      event.created_at,
      event.type.startsWith('refund.') ? (object.transaction ?? null) : null,
    ],
  );
}
