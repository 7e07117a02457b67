// Dunning: what a payment outcome does to a subscription's period (paid, or the next retry
// scheduled; past_due, then the dunning end state after the last), and the retries
// themselves, each a new collection attempt of the period's invoice.

import type { Tx } from '@paygrid/platform';
import type { InvoicesInternal, PaymentOutcome } from '../invoices/invoices.internal';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine';
import { retryTime, type SubscriptionRow } from '../subscriptions/subscription.model';

/** The earliest due dunning retry of `row`: the next collection attempt of that invoice. */
export async function retryCollection(
  invoices: InvoicesInternal,
  tx: Tx,
  row: SubscriptionRow,
  now: Date,
): Promise<SubscriptionRow> {
  const [period] = await tx.query<{ period_index: number; invoice_id: string; attempts: number }>(
    `select period_index, invoice_id, attempts from invoicing.subscription_periods
      where subscription_id = $1 and next_retry_at is not null order by next_retry_at limit 1 for update`,
    [row.id],
  );
  if (!period) return row;
  const tenant = { account: row.account_id, livemode: row.livemode };
  const attempt = period.attempts + 1;
  const collected = await invoices.collectInTx(tx, tenant, period.invoice_id, attempt, now);
  const charging = collected.action === 'charge_requested';
  const settled = collected.invoice.status !== 'open';
  await tx.query(
    `update invoicing.subscription_periods
        set attempts = $3, next_retry_at = null, awaiting_outcome = $4,
            payment_status = case when $5 then 'paid' else payment_status end
      where subscription_id = $1 and period_index = $2`,
    [
      row.id,
      period.period_index,
      charging ? attempt : period.attempts,
      charging,
      settled && collected.invoice.status === 'paid',
    ],
  );
  return row;
}

/**
 * The invoices module calls this in the settlement transaction of every payment outcome.
 * Success: the period is paid and a past_due/unpaid/incomplete subscription is active again
 * once nothing else is owed. Failure: the next retry is scheduled (+1, +3, +5, +7 days after
 * the first attempt); past_due on the first failure; after the last, dunning_end_state.
 */
export async function applyPaymentOutcome(
  engine: SubscriptionEngine,
  tx: Tx,
  outcome: PaymentOutcome,
): Promise<void> {
  // Lock in the engine's order (subscription, then its period row), so an outcome and a
  // retry of the same subscription cannot deadlock.
  const [owner] = await tx.query<{ subscription_id: string }>(
    'select subscription_id from invoicing.subscription_periods where invoice_id = $1',
    [outcome.invoice.id],
  );
  if (!owner) return;
  await tx.query('select 1 from invoicing.subscriptions where id = $1 for update', [owner.subscription_id]);
  const [period] = await tx.query<{
    subscription_id: string;
    period_index: number;
    attempts: number;
    first_attempt_at: Date | null;
    payment_status: string | null;
  }>(
    `select subscription_id, period_index, attempts, first_attempt_at, payment_status
       from invoicing.subscription_periods where invoice_id = $1 for update`,
    [outcome.invoice.id],
  );
  if (!period) return;
  // A late outcome of an earlier attempt changes nothing (the later attempt decides).
  const attempt = Number(outcome.reference?.split(':')[1] ?? period.attempts);
  if (outcome.outcome === 'failed' && attempt < period.attempts) return;
  // A failure reported for an invoice that got paid meanwhile (another payment) changes nothing.
  if (outcome.outcome === 'failed' && outcome.invoice.status !== 'open') return;
  const [sub] = await tx.query<SubscriptionRow>(
    'select * from invoicing.subscriptions where id = $1 for update',
    [period.subscription_id],
  );
  if (!sub) return;
  const now = await engine.nowFor(tx, sub.test_clock);
  let row = sub;
  if (outcome.outcome === 'succeeded') {
    await tx.query(
      `update invoicing.subscription_periods set payment_status = 'paid', awaiting_outcome = false, next_retry_at = null
        where subscription_id = $1 and period_index = $2`,
      [period.subscription_id, period.period_index],
    );
    const [owed] = await tx.query<{ n: string }>(
      `select count(*) as n from invoicing.subscription_periods
        where subscription_id = $1 and payment_status in ('failed', 'exhausted')`,
      [sub.id],
    );
    if (Number(owed?.n ?? 0) === 0 && ['past_due', 'unpaid', 'incomplete'].includes(row.status)) {
      row = await engine.transition(tx, row, 'active', now);
    }
  } else {
    const failedAttempts = Math.max(period.attempts, 1);
    const firstAttempt = period.first_attempt_at ? new Date(period.first_attempt_at) : now;
    // No dunning for the first invoice of an incomplete subscription: it expires instead.
    const retryAt = row.status === 'incomplete' ? null : retryTime(firstAttempt, failedAttempts);
    await tx.query(
      `update invoicing.subscription_periods
          set payment_status = $3, awaiting_outcome = false, next_retry_at = $4
        where subscription_id = $1 and period_index = $2`,
      [period.subscription_id, period.period_index, retryAt ? 'failed' : 'exhausted', retryAt],
    );
    if (row.status === 'active') row = await engine.transition(tx, row, 'past_due', now);
    if (!retryAt && row.status === 'past_due') {
      row = await engine.transition(tx, row, row.dunning_end_state, now);
    }
  }
  await engine.saveNextAction(tx, row);
}
