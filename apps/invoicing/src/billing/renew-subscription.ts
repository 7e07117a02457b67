// Renewal: the billing engine bills a subscription's period (billing-engine.ts stepInTx, and
// a subscription's creation through subscriptions.service.ts). The ledger row comes first
// (its primary key refuses a second bill of the period), then the invoice with the period's
// lines and the pending prorations, finalized and collected through the invoices module, all
// in the caller's transaction.

import { isoOrNull, type Logger, type Tx } from '@paygrid/platform';
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

/**
 * Bills period `next_period_index`: ledger row first (the primary key refuses a second bill
 * of the period), then the invoice with the period's lines and the pending prorations,
 * finalized and collected, all in the caller's transaction.
 */
export async function billPeriod(
  invoices: InvoicesInternal,
  logger: Logger,
  tx: Tx,
  row: SubscriptionRow,
  now: Date,
  /** The subscription's customer when the caller read it in this transaction (else read here). */
  customer?: CustomerRow,
): Promise<SubscriptionRow> {
  const n = row.next_period_index;
  const period = periodAt(cycleOf(row), n);
  const from = billingTime(row, n);
  // The ledger row and the pending prorations in one round trip: no row when the period was
  // already billed, else one per proration (or one with a null id when there is none).
  const claimed = await tx.query<{ id: string | null } & ProrationLine>(
    `with claimed as (
       insert into invoicing.subscription_periods
         (subscription_id, period_index, account_id, livemode, test_clock, period_start, period_end, billed_from, outcome, amount, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, 'invoiced', 0, $9) on conflict do nothing returning period_index)
     select p.id, p.description, p.amount, p.period_start, p.period_end
       from claimed left join invoicing.subscription_prorations p on p.subscription_id = $1 and p.invoice_id is null
      order by p.created_at, p.id`,
    [row.id, n, row.account_id, row.livemode, row.test_clock, period.start, period.end, from, now],
  );
  const renewal = row.current_period_index !== null;
  if (!claimed.length) {
    // Already billed (cannot happen under the row lock; kept as the last line of defence).
    logger.error({ subscription: row.id, period: n }, 'period already billed; skipping to the next');
    const [skipped] = await tx.query<SubscriptionRow>(
      'update invoicing.subscriptions set next_period_index = $2 where id = $1 returning *',
      [row.id, n + 1],
    );
    return skipped;
  }
  const prorations = claimed.filter((p): p is ProrationLine & { id: string } => p.id !== null);
  const composed = composeInvoice(
    periodLines(row.items, period, from, row.time_zone),
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
    customer,
  );
  const charged = action === 'charge_requested';
  if (prorations.length) {
    await tx.query(`update invoicing.subscription_prorations set invoice_id = $2 where id = any($1)`, [
      prorations.map((p) => p.id),
      invoice.id,
    ]);
  }
  // The ledger row and the subscription in one statement (two tables, one round trip).
  const [updated] = await tx.query<SubscriptionRow>(
    `with period as (
       update invoicing.subscription_periods
          set invoice_id = $6, amount = $9, payment_status = $10, attempts = $11, first_attempt_at = $12,
              awaiting_outcome = $13
        where subscription_id = $1 and period_index = $3)
     update invoicing.subscriptions
        set next_period_index = $2, current_period_index = $3, current_period_start = $4, current_period_end = $5,
            latest_invoice = $6, pending_credit = $7, updated_at = $8
      where id = $1 returning *`,
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
    ],
  );
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
