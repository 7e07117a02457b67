// Renewal: the billing engine bills a subscription's period (billing-engine.ts, and a
// subscription's creation through subscriptions.service.ts): the invoice with the period's
// lines and the pending prorations, finalized and collected through the invoices module, then
// the ledger row (its primary key refuses a second bill of the period) with the subscription's
// new period, all in the caller's transaction.

import { isoOrNull, type Tx } from '@paygrid/platform';
import type { CustomerRow } from '../customers/customers.service';
import type { InvoicesInternal } from '../invoices/invoices.internal';
import { periodAt } from '../subscriptions/billing-cycle';
import { emitSubscriptionEvent } from '../subscriptions/subscription-events';
import { subscriptionInvoice } from '../subscriptions/subscription-invoice';
import {
  billingTime,
  composeInvoice,
  cycleOf,
  invoiceDescriptionInWords,
  periodLines,
  type ProrationLine,
  type SubscriptionRow,
} from '../subscriptions/subscription.model';

/** A proration not yet invoiced, as the renewal that takes it reads it (amount as stored). */
export type PendingProration = Omit<ProrationLine, 'amount'> & { id: string; amount: string };

/** The pending prorations of one subscription, oldest first (subscription_prorations_pending). */
export const PENDING_PRORATIONS = `
  select subscription_id, id, description, amount, period_start, period_end
    from invoicing.subscription_prorations
   where subscription_id = any($1) and invoice_id is null
   order by created_at, id`;

/**
 * Thrown when the period was billed already: cannot happen under the subscription's row lock
 * (the last line of defence). The invoice this renewal wrote must not stay, so the renewal
 * fails; the billing engine's guarded step rolls it back and moves the subscription past
 * the period (billing-engine.ts stepGuarded).
 */
export class PeriodAlreadyBilled extends Error {
  constructor(
    readonly subscription: string,
    readonly period: number,
  ) {
    super(`period ${period} of subscription ${subscription} is already billed`);
  }
}

/**
 * Bills period `next_period_index`: the invoice with the period's lines and the pending
 * prorations, created, finalized and collected, then the ledger row, the prorations' invoice
 * and the subscription's new period in one statement, all in the caller's transaction. The
 * ledger's primary key (subscription_id, period_index) refuses a second bill of the period:
 * then the subscription is not updated and PeriodAlreadyBilled undoes the invoice.
 */
export async function billPeriod(
  invoices: InvoicesInternal,
  tx: Tx,
  row: SubscriptionRow,
  now: Date,
  /** What the caller read in this transaction: the customer, the pending prorations (else read here). */
  known: { customer?: CustomerRow; prorations?: readonly PendingProration[] } = {},
): Promise<SubscriptionRow> {
  const n = row.next_period_index;
  const period = periodAt(cycleOf(row), n);
  const from = billingTime(row, n);
  const prorations = known.prorations ?? (await tx.query<PendingProration>(PENDING_PRORATIONS, [[row.id]]));
  const renewal = row.current_period_index !== null;
  const composed = composeInvoice(
    periodLines(row.items, period, from, row.time_zone),
    // eslint-disable-next-line no-restricted-syntax -- prorations are rare (a mid-period change)
    prorations.map((p) => ({ ...p, amount: BigInt(p.amount) })),
    BigInt(row.pending_credit),
  );
  const tenant = { account: row.account_id, livemode: row.livemode };
  // Created, finalized and (when something is due) collected as attempt 1.
  const { invoice, action } = await invoices.createAndCollectInTx(
    tx,
    tenant,
    subscriptionInvoice(
      row,
      composed,
      invoiceDescriptionInWords(row.items, from, period.end, row.time_zone),
      now,
      {
        start: from,
        end: period.end,
      },
    ),
    1,
    known.customer,
  );
  const charged = action === 'charge_requested';
  // The ledger row, the prorations' invoice and the subscription in one round trip; the
  // two updates only when the ledger row was written.
  const [updated] = await tx.query<SubscriptionRow>(
    `with period as (
       insert into invoicing.subscription_periods
         (subscription_id, period_index, account_id, livemode, test_clock, period_start, period_end, billed_from,
          outcome, invoice_id, amount, payment_status, attempts, first_attempt_at, awaiting_outcome, created_at)
       values ($1, $3, $14, $15, $16, $17, $5, $4, 'invoiced', $6, $9, $10, $11, $12, $13, $8)
       on conflict do nothing returning period_index),
     prorated as (
       update invoicing.subscription_prorations set invoice_id = $6
        where id = any($18::text[]) and exists (select from period))
     update invoicing.subscriptions
        set next_period_index = $2, current_period_index = $3, current_period_start = $4, current_period_end = $5,
            latest_invoice = $6, pending_credit = $7, updated_at = $8
      where id = $1 and exists (select from period) returning *`,
    [
      row.id,
      n + 1,
      n,
      from,
      period.end,
      invoice.id,
      composed.creditLeft,
      now,
      invoice.total,
      invoice.status === 'paid' ? 'paid' : 'pending',
      charged ? 1 : 0,
      charged ? now : null,
      charged,
      row.account_id,
      row.livemode,
      row.test_clock,
      period.start,
      prorations.map((p) => p.id),
    ],
  );
  if (!updated) throw new PeriodAlreadyBilled(row.id, n);
  if (renewal) {
    await emitSubscriptionEvent(tx, 'subscription.renewed', updated, now, {
      current_period_start: row.current_period_start
        ? new Date(row.current_period_start).toISOString()
        : null,
      current_period_end: isoOrNull(row.current_period_end),
    });
  }
  return updated;
}
