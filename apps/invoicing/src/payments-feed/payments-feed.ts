// What invoicing learns from the payments service: every payment.* and refund.* event is
// recorded once (inbox + primary key), as the source of customers' billing history; a
// payment naming an invoice settles it (or records the failure) in the same transaction; a
// succeeded payment gets its receipt and a succeeded refund its notice (receipts/); a
// mandate created for a customer becomes its default_mandate when it has none; every mandate
// event of a customer's mandate updates the card the customer portal shows
// (invoicing.customer_cards), and a canceled or failed default mandate hands the default to
// the customer's newest other active card (or none). Consumed by
// PaymentsFeedConsumer (payments-feed.consumer.ts), for the types of PAYMENTS_FEED_TYPES only.

import { PAYMENTS_EVENT_TYPES, TOPICS, type EventEnvelope } from '@paygrid/contracts';
import { emitEvent, type SqlPart, type Tx } from '@paygrid/platform';
import { serializeCustomer, type CustomerRow } from '../customers/customers.service';
import type { InvoicesService, PaymentEventObject } from '../invoices/invoices.service';
import type { ReceiptEventObject, ReceiptsService } from '../receipts/receipts.service';

export const PAYMENTS_FEED_CONSUMER = 'invoicing.payments-feed';

/**
 * The payments events the feed acts on: payment.*, refund.* and mandate.*. The others of the
 * topic (payment links, disputes, onboarding, the account) have no effect here, so the consumer
 * subscribes to these types alone and the others are acknowledged without touching the
 * database. Before, each got an inbox row, in a transaction per fetched batch (bench/README.md
 * finding 51: invoicing's CPU per payment link at 80/s). payments-feed.spec.ts checks that
 * handlePaymentsEvent does nothing for every type left out.
 */
export const PAYMENTS_FEED_TYPES = PAYMENTS_EVENT_TYPES.filter((type) =>
  /^(payment|refund|mandate)\./.test(type),
);

export interface PaymentObject {
  id?: string;
  invoice?: string | null;
  customer?: string | null;
  /** A refund's payment. */
  transaction?: string | null;
  amount?: number;
  currency?: string;
}

export type FeedObject = PaymentObject & PaymentEventObject & ReceiptEventObject;

/**
 * One payments event, inside the inbox transaction that records it as handled. The event's
 * fact rides in the receipt's statement when the event has one (payment.succeeded,
 * refund.succeeded, refund.failed: withRidingWrite), else it is a statement of its own, after
 * the others: nothing the handler runs reads the fact of the event it handles, so where it
 * goes among them does not matter. A checkout's payment.succeeded sent three statements
 * (fact, the seller's profile, receipt) and sends two; the profile is read once per
 * transaction, so once per lot on Kafka (tests/embedded/payments-feed-statements.test.ts).
 */
export async function handlePaymentsEvent(
  event: EventEnvelope<FeedObject>,
  tx: Tx,
  invoices: InvoicesService,
  receipts: ReceiptsService,
): Promise<void> {
  const fact = paymentFactWrite(event);
  let factWritten = false;
  if (event.type === 'payment.succeeded' || event.type === 'payment.failed') {
    await invoices.applyPaymentEvent(tx, event);
  }
  if (event.type.startsWith('mandate.')) await projectCard(event as EventEnvelope<MandateObject>, tx);
  // After the invoice is settled, so a receipt names the invoice it paid (docs/adr/0012).
  if (event.type === 'payment.succeeded') factWritten = await receipts.issue(tx, event, fact);
  if (event.type === 'refund.succeeded') factWritten = await receipts.refunded(tx, event, fact);
  if (event.type === 'refund.failed') factWritten = await receipts.refundReversed(tx, event, fact);
  if (fact && !factWritten) await tx.query(fact.sql, fact.params);
  if (event.type === 'mandate.created') await adoptMandate(event, tx);
  if (event.type === 'mandate.canceled' || event.type === 'mandate.failed') {
    await releaseMandate(event as EventEnvelope<MandateObject>, tx);
  }
}

interface MandateObject {
  id: string;
  customer: string | null;
  status: string;
  type: 'recurring' | 'on_demand';
  payment_method: { brand: string; last4: string; exp_month: number; exp_year: number };
  updated_at: string;
}

/** The portal's copy of a customer's card; an older event never overwrites a newer one. */
async function projectCard(event: EventEnvelope<MandateObject>, tx: Tx): Promise<void> {
  const m = event.data.object;
  if (!m.customer || !m.payment_method) return;
  const pm = m.payment_method;
  await tx.query(
    `insert into invoicing.customer_cards
       (mandate_id, account_id, livemode, customer_id, status, brand, last4, exp_month, exp_year, recurring, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     on conflict (mandate_id) do update set status = excluded.status, brand = excluded.brand,
       last4 = excluded.last4, exp_month = excluded.exp_month, exp_year = excluded.exp_year,
       updated_at = excluded.updated_at
     where invoicing.customer_cards.updated_at <= excluded.updated_at`,
    [
      m.id,
      event.account,
      event.livemode,
      m.customer,
      m.status,
      pm.brand,
      pm.last4,
      pm.exp_month,
      pm.exp_year,
      m.type === 'recurring',
      m.updated_at,
    ],
  );
}

/** A canceled or failed default mandate: the newest other active card becomes the default. */
async function releaseMandate(event: EventEnvelope<MandateObject>, tx: Tx): Promise<void> {
  const { id, customer } = event.data.object;
  if (!customer) return;
  const at = new Date(event.created_at);
  const [row] = await tx.query<CustomerRow>(
    `update invoicing.customers c set default_mandate = (
        select mandate_id from invoicing.customer_cards k
         where k.account_id = c.account_id and k.livemode = c.livemode and k.customer_id = c.id
           and k.status = 'active' and k.mandate_id <> $1
         order by k.updated_at desc, k.mandate_id limit 1), updated_at = $5
      where id = $2 and account_id = $3 and livemode = $4 and default_mandate = $1 returning *`,
    [id, customer, event.account, event.livemode, at],
  );
  if (!row) return;
  await emitEvent(tx, TOPICS.invoicingEvents, {
    type: 'customer.updated',
    account: row.account_id,
    livemode: row.livemode,
    object: serializeCustomer(row),
    previous_attributes: { default_mandate: id },
    at,
  });
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

/** A payment or refund event's row of invoicing.payment_facts; undefined for other types. */
export function paymentFactWrite(event: EventEnvelope<PaymentObject>): SqlPart | undefined {
  if (!event.type.startsWith('payment.') && !event.type.startsWith('refund.')) return undefined;
  const object = event.data.object;
  return {
    sql: `insert into invoicing.payment_facts (event_id, account_id, livemode, type, object_id, invoice_id, customer_id, amount, currency, occurred_at, payment_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict (event_id) do nothing`,
    params: [
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
  };
}

/** The event's fact alone, in `tx` (payment and refund events; others have none). */
export async function recordPaymentFact(event: EventEnvelope<PaymentObject>, tx: Tx): Promise<void> {
  const fact = paymentFactWrite(event);
  if (fact) await tx.query(fact.sql, fact.params);
}
