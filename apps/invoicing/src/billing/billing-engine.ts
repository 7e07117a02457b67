// Over 400 lines (505): one use case per file for invoicing is issue 14 item 3, not done yet;
// this file grew by the plan-and-period wording of invoice lines (issue 17 item 1).
// The billing engine: everything that happens to subscriptions because time passed or a
// payment came back. It owns the subscription_periods ledger, renewals (invoice created,
// finalized and collected through the invoices module, in the same transaction as the
// ledger row), dunning retries and end states, trial_will_end, trial ends and expiry.
//
// Several engines (invoicing instances) run at once safely: each claims due subscriptions
// with FOR UPDATE SKIP LOCKED (claim.sql below), works on them under that row lock, and the
// ledger's primary key (subscription_id, period_index) makes a second bill of one period
// impossible even if two engines somehow held the same subscription. Periods are walked
// one index at a time from next_period_index, so after downtime every missed period is
// billed, in order, none skipped.
//
// Time is injected: `runDue(now, scope)` takes the instant; a timer calls it with the real
// clock for subscriptions not on a test clock, and test clocks call it with their frozen
// time, step by step.

import { TOPICS } from '@paygrid/contracts';
import {
  emitEvent,
  isoOrNull,
  minorToJson,
  Periodic,
  type Clock,
  type Database,
  type Logger,
  type Tx,
} from '@paygrid/platform';
import type { InvoicesInternal, PaymentOutcome } from '../invoices/invoices.internal';
import {
  assertTransition,
  eventForStatus,
  type SubscriptionStatus,
} from '../subscriptions/subscription-states';
import {
  billingTime,
  composeInvoice,
  cycleOf,
  pendingActions,
  periodLines,
  invoiceDescriptionInWords,
  retryTime,
  serializeSubscription,
  type ProrationLine,
  type SubscriptionRow,
} from '../subscriptions/subscription.model';
import { periodAt } from './billing-cycle';

export type SubscriptionEvent =
  | 'subscription.created'
  | 'subscription.updated'
  | 'subscription.renewed'
  | 'subscription.past_due'
  | 'subscription.paused'
  | 'subscription.resumed'
  | 'subscription.canceled'
  | 'subscription.trial_will_end';

/** Which subscriptions a run looks at: those on no test clock, or those of one clock. */
export type Scope = { testClock: null } | { testClock: string };

/**
 * Claims due subscriptions of one scope, oldest due first. SKIP LOCKED: a row another engine
 * holds is skipped, not waited for, so engines split the work instead of queueing behind
 * each other; the partial indexes subscriptions_due / subscriptions_clock_due serve it.
 */
const CLAIM = (scope: Scope) => `
  select * from invoicing.subscriptions
   where next_action_at <= $1 and ${scope.testClock === null ? 'test_clock is null' : 'test_clock = $3'}
   order by next_action_at
   limit $2
   for update skip locked`;

/** Steps one subscription may take in one claim before yielding (a daily cycle after a long outage). */
const MAX_STEPS_PER_CLAIM = 64;

export interface BillingEngineOptions {
  /** Subscriptions claimed per transaction. */
  batchSize?: number;
  /** Real-time timer period, ms. */
  intervalMs?: number;
}

export async function emitSubscriptionEvent(
  tx: Tx,
  type: SubscriptionEvent,
  row: SubscriptionRow,
  at: Date,
  previous?: Record<string, unknown>,
): Promise<void> {
  await emitEvent(tx, TOPICS.invoicingEvents, {
    type,
    account: row.account_id,
    livemode: row.livemode,
    object: serializeSubscription(row),
    ...(previous ? { previous_attributes: previous } : {}),
    at,
  });
}

export class BillingEngine {
  private readonly timer: Periodic;
  /** Told how long each real-time run took, in seconds (the service's metrics). */
  onRun?: (seconds: number) => void;
  private readonly batchSize: number;

  constructor(
    private readonly db: Database,
    private readonly invoices: InvoicesInternal,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: BillingEngineOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 50;
    this.timer = new Periodic(
      'billing run',
      options.intervalMs ?? 1000,
      async () => {
        const started = performance.now();
        await this.runDue(this.clock.now(), { testClock: null });
        this.onRun?.((performance.now() - started) / 1000);
      },
      logger,
    );
    invoices.onPaymentOutcome((tx, outcome) => this.onPaymentOutcome(tx, outcome));
  }

  /** Starts the real-time timer (subscriptions on no test clock). */
  start(): void {
    this.timer.start();
  }

  async stop(): Promise<void> {
    await this.timer.stop();
  }

  /**
   * Runs every action due at `now` in `scope` until none is left; returns how many
   * subscriptions it worked on. Safe to run in several engines at once.
   */
  async runDue(now: Date, scope: Scope): Promise<number> {
    let handled = 0;
    for (;;) {
      const claimed = await this.db.transaction(async (tx) => {
        const params: unknown[] = [now, this.batchSize];
        if (scope.testClock !== null) params.push(scope.testClock);
        const rows = await tx.query<SubscriptionRow>(CLAIM(scope), params);
        for (const row of rows) await this.stepGuarded(tx, row, now, scope);
        return rows.length;
      });
      handled += claimed;
      if (claimed < this.batchSize) return handled;
    }
  }

  /**
   * One subscription of a claimed batch, under a savepoint: if it fails (say its customer's
   * invoice cannot be created) its work is undone and it is set aside, without taking the
   * batch down or hot-looping: real time retries it in an hour, a test clock stops acting on
   * it. Everything else in the batch commits.
   */
  private async stepGuarded(tx: Tx, row: SubscriptionRow, now: Date, scope: Scope): Promise<void> {
    await tx.query('savepoint billing_step');
    try {
      await this.stepInTx(tx, row, now);
      await tx.query('release savepoint billing_step');
    } catch (error) {
      await tx.query('rollback to savepoint billing_step');
      this.logger.error({ err: error, subscription: row.id }, 'billing step failed; subscription set aside');
      const retry = scope.testClock === null ? new Date(now.getTime() + 3_600_000) : null;
      await tx.query('update invoicing.subscriptions set next_action_at = $2 where id = $1', [row.id, retry]);
    }
  }

  /**
   * Performs the actions of `sub` (locked by the caller) due at `now`, earliest first, and
   * stores its next action time. Returns the row as it ends up.
   */
  async stepInTx(tx: Tx, sub: SubscriptionRow, now: Date): Promise<SubscriptionRow> {
    let row = sub;
    // Only a retry changes the retry schedule here (outcomes arrive in other transactions).
    let retryAt = await this.retryAt(tx, row.id);
    for (let step = 0; step < MAX_STEPS_PER_CLAIM; step++) {
      const [next] = pendingActions(row, retryAt);
      if (!next || next.at.getTime() > now.getTime()) break;
      row = await this.perform(tx, row, next.kind, now);
      if (next.kind === 'retry') retryAt = await this.retryAt(tx, row.id);
    }
    return this.saveNextAction(tx, row, retryAt);
  }

  private async retryAt(tx: Tx, subscription: string): Promise<Date | null> {
    const [r] = await tx.query<{ at: Date | null }>(
      `select min(next_retry_at) as at from invoicing.subscription_periods
        where subscription_id = $1 and next_retry_at is not null`,
      [subscription],
    );
    return r?.at ? new Date(r.at) : null;
  }

  /** Recomputes next_action_at (null: nothing will ever be due without an outside change). */
  async saveNextAction(tx: Tx, row: SubscriptionRow, knownRetryAt?: Date | null): Promise<SubscriptionRow> {
    const retryAt = knownRetryAt === undefined ? await this.retryAt(tx, row.id) : knownRetryAt;
    const [next] = pendingActions(row, retryAt);
    const at = next?.at ?? null;
    if ((row.next_action_at ? new Date(row.next_action_at).getTime() : null) === (at ? at.getTime() : null))
      return row;
    const [saved] = await tx.query<SubscriptionRow>(
      'update invoicing.subscriptions set next_action_at = $2 where id = $1 returning *',
      [row.id, at],
    );
    return saved;
  }

  private async perform(tx: Tx, row: SubscriptionRow, kind: string, now: Date): Promise<SubscriptionRow> {
    switch (kind) {
      case 'trial_will_end': {
        const [updated] = await tx.query<SubscriptionRow>(
          'update invoicing.subscriptions set trial_will_end_sent = true where id = $1 returning *',
          [row.id],
        );
        await emitSubscriptionEvent(tx, 'subscription.trial_will_end', updated, now);
        return updated;
      }
      case 'trial_end':
        if (row.cancel_at_period_end)
          return this.transition(tx, row, 'canceled', now, { ended_at: row.trial_end });
        return this.transition(tx, row, 'active', now);
      case 'incomplete_expiry':
        return this.transition(tx, row, 'incomplete_expired', now, { ended_at: now });
      case 'period':
        return this.periodStarts(tx, row, now);
      case 'retry':
        return this.retry(tx, row, now);
      default:
        throw new Error(`unknown billing action ${kind}`);
    }
  }

  /** Moves `row` to `to` (checked against the transition table) and emits the event. */
  async transition(
    tx: Tx,
    row: SubscriptionRow,
    to: SubscriptionStatus,
    now: Date,
    extra: { ended_at?: Date | null; paused_at?: Date | null } = {},
  ): Promise<SubscriptionRow> {
    assertTransition(row.status, to, row.id);
    const [updated] = await tx.query<SubscriptionRow>(
      `update invoicing.subscriptions
          set status = $2, updated_at = $3,
              canceled_at = case when $2 = 'canceled' then $3 else canceled_at end,
              ended_at = case when $2 in ('canceled', 'incomplete_expired') then coalesce($4, $3) else ended_at end,
              paused_at = case when $2 = 'paused' then $3 when $2 = 'active' then null else paused_at end
        where id = $1 returning *`,
      [row.id, to, now, extra.ended_at ?? null],
    );
    await emitSubscriptionEvent(tx, eventForStatus(to, row.status), updated, now, { status: row.status });
    return updated;
  }

  /** Period `next_period_index` starts: cancel at period end, record a paused period, or bill it. */
  private async periodStarts(tx: Tx, row: SubscriptionRow, now: Date): Promise<SubscriptionRow> {
    const n = row.next_period_index;
    const period = periodAt(cycleOf(row), n);
    if (row.cancel_at_period_end)
      return this.transition(tx, row, 'canceled', now, { ended_at: period.start });
    if (row.status === 'paused') {
      await tx.query(
        `insert into invoicing.subscription_periods
           (subscription_id, period_index, account_id, livemode, test_clock, period_start, period_end, billed_from, outcome, amount, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $6, 'paused', 0, $8) on conflict do nothing`,
        [row.id, n, row.account_id, row.livemode, row.test_clock, period.start, period.end, now],
      );
      const [updated] = await tx.query<SubscriptionRow>(
        `update invoicing.subscriptions set next_period_index = $2, current_period_index = $3,
                current_period_start = $4, current_period_end = $5 where id = $1 returning *`,
        [row.id, n + 1, n, period.start, period.end],
      );
      return updated;
    }
    return this.billPeriod(tx, row, now);
  }

  /**
   * Bills period `next_period_index`: ledger row first (the primary key refuses a second bill
   * of the period), then the invoice with the period's lines and the pending prorations,
   * finalized and collected, all in the caller's transaction.
   */
  async billPeriod(tx: Tx, row: SubscriptionRow, now: Date): Promise<SubscriptionRow> {
    const n = row.next_period_index;
    const period = periodAt(cycleOf(row), n);
    const from = billingTime(row, n);
    const claimed = await tx.query(
      `insert into invoicing.subscription_periods
         (subscription_id, period_index, account_id, livemode, test_clock, period_start, period_end, billed_from, outcome, amount, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, 'invoiced', 0, $9) on conflict do nothing returning period_index`,
      [row.id, n, row.account_id, row.livemode, row.test_clock, period.start, period.end, from, now],
    );
    const renewal = row.current_period_index !== null;
    if (!claimed.length) {
      // Already billed (cannot happen under the row lock; kept as the last line of defence).
      this.logger.error({ subscription: row.id, period: n }, 'period already billed; skipping to the next');
      const [skipped] = await tx.query<SubscriptionRow>(
        'update invoicing.subscriptions set next_period_index = $2 where id = $1 returning *',
        [row.id, n + 1],
      );
      return skipped;
    }
    const prorations = await tx.query<ProrationLine & { id: string }>(
      `select id, description, amount, period_start, period_end from invoicing.subscription_prorations
        where subscription_id = $1 and invoice_id is null order by created_at, id`,
      [row.id],
    );
    const composed = composeInvoice(
      periodLines(row.items, period, from, row.time_zone),
      prorations.map((p) => ({ ...p, amount: BigInt(p.amount) })),
      BigInt(row.pending_credit),
    );
    const tenant = { account: row.account_id, livemode: row.livemode };
    // Created, finalized and (when something is due) collected as attempt 1.
    const { invoice, action } = await this.invoices.createAndCollectInTx(
      tx,
      tenant,
      {
        customer: row.customer_id,
        currency: row.currency,
        lines: composed.lines,
        discount: composed.discount > 0n ? { amount: minorToJson(composed.discount) } : null,
        collection_method: row.collection_method,
        ...(row.days_until_due !== null ? { days_until_due: row.days_until_due } : {}),
        description: invoiceDescriptionInWords(row.items, from, period.end, row.time_zone),
        subscription: row.id,
        period_start: from,
        period_end: period.end,
        now,
      },
      1,
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

  /** The earliest due dunning retry of `row`: the next collection attempt of that invoice. */
  private async retry(tx: Tx, row: SubscriptionRow, now: Date): Promise<SubscriptionRow> {
    const [period] = await tx.query<{ period_index: number; invoice_id: string; attempts: number }>(
      `select period_index, invoice_id, attempts from invoicing.subscription_periods
        where subscription_id = $1 and next_retry_at is not null order by next_retry_at limit 1 for update`,
      [row.id],
    );
    if (!period) return row;
    const tenant = { account: row.account_id, livemode: row.livemode };
    const attempt = period.attempts + 1;
    const collected = await this.invoices.collectInTx(tx, tenant, period.invoice_id, attempt, now);
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
  async onPaymentOutcome(tx: Tx, outcome: PaymentOutcome): Promise<void> {
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
    const now = await this.nowFor(tx, sub.test_clock);
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
        row = await this.transition(tx, row, 'active', now);
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
      if (row.status === 'active') row = await this.transition(tx, row, 'past_due', now);
      if (!retryAt && row.status === 'past_due') {
        row = await this.transition(tx, row, row.dunning_end_state, now);
      }
    }
    await this.saveNextAction(tx, row);
  }

  /** The time of a subscription: its test clock's frozen time, or the engine's clock. */
  async nowFor(tx: Tx, testClock: string | null): Promise<Date> {
    if (!testClock) return this.clock.now();
    const [c] = await tx.query<{ frozen_time: Date }>(
      'select frozen_time from invoicing.test_clocks where id = $1',
      [testClock],
    );
    return c ? new Date(c.frozen_time) : this.clock.now();
  }

  /** Collection attempts of a test clock's subscriptions still waiting for their payment outcome. */
  async awaitingOutcomes(testClock: string): Promise<number> {
    const [r] = await this.db.query<{ n: string }>(
      `select count(*) as n from invoicing.subscription_periods where test_clock = $1 and awaiting_outcome`,
      [testClock],
    );
    return Number(r?.n ?? 0);
  }
}
