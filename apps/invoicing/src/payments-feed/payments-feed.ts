// What invoicing learns from the payments service: every payment.* and refund.* event is
// recorded once (inbox + primary key), as the source of customers' billing history and of
// invoice settlement.

import { TOPICS, type EventEnvelope } from '@paygrid/contracts';
import type { InboxConsumer, Tx } from '@paygrid/platform';

export const PAYMENTS_FEED_CONSUMER = 'invoicing.payments-feed';

interface PaymentObject {
  id?: string;
  invoice?: string | null;
  customer?: string | null;
  /** A refund's payment. */
  transaction?: string | null;
  amount?: number;
  currency?: string;
}

export async function startPaymentsFeed(consumer: InboxConsumer): Promise<void> {
  await consumer.subscribe<EventEnvelope<PaymentObject>>(
    PAYMENTS_FEED_CONSUMER,
    [TOPICS.paymentsEvents],
    recordPaymentFact,
  );
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
