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

import { Periodic, type Clock, type Database, type Logger, type Tx } from '@paygrid/platform';
import type { InvoicesInternal, PaymentOutcome } from '../invoices/invoices.internal';
import { billPeriod, PeriodAlreadyBilled } from './renew-subscription';
import { readBatch, type Known } from './billing-batch';
import { applyPaymentOutcome, retryCollection } from './dunning';
import type { SubscriptionEngine } from '../subscriptions/subscription-engine';
import type { ClockBilling } from '../test-clocks/test-clocks.service';
import { emitSubscriptionEvent } from '../subscriptions/subscription-events';
import {
  assertTransition,
  eventForStatus,
  type SubscriptionStatus,
} from '../subscriptions/subscription-states';
import { cycleOf, pendingActions, type SubscriptionRow } from '../subscriptions/subscription.model';
import { periodAt } from '../subscriptions/billing-cycle';

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

/** A subscription after its due actions: when it next acts, and whether that differs from the stored time. */
interface NextAction {
  row: SubscriptionRow;
  at: Date | null;
  changed: boolean;
}

/** The next action time of `row` (null: nothing will ever be due without an outside change). */
function nextAction(row: SubscriptionRow, retryAt: Date | null): NextAction {
  const [next] = pendingActions(row, retryAt);
  const at = next?.at ?? null;
  const stored = row.next_action_at ? new Date(row.next_action_at).getTime() : null;
  return { row, at, changed: stored !== (at ? at.getTime() : null) };
}

/** The invoice-number counter a subscription's renewals finalize on: its account and mode. */
const counterOf = (row: SubscriptionRow) => `${row.account_id}:${row.livemode ? 1 : 0}`;

/**
 * A claimed batch in the order its renewals take the accounts' invoice-number counters: by
 * account and mode (stable, so each account's subscriptions keep their due order and their
 * numbers follow it). A finalization locks its account's counter row until the batch commits;
 * two engines whose batches share accounts then always lock those rows in the same order, so
 * one waits for the other instead of both deadlocking (PostgreSQL aborted one of them after
 * deadlock_timeout, and the guarded rerun set subscriptions aside for an hour).
 */
function inCounterOrder(rows: readonly SubscriptionRow[]): SubscriptionRow[] {
  return [...rows].sort((a, b) => {
    const [x, y] = [counterOf(a), counterOf(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/**
 * The counters of a real-time batch this engine takes for the batch's transaction: a
 * transaction advisory lock per counter (its own key space: the two-int4 form, namespace
 * 1651073 'billing'), tried, never waited for. The renewals of a counter another engine holds
 * are left for a later batch, so two engines bill disjoint accounts side by side instead of
 * one waiting at each shared counter until the other's batch commits (bench/README.md
 * finding 44).
 */
const TAKE_COUNTERS = `
  select k from unnest($1::text[]) as k where pg_try_advisory_xact_lock(1651073, hashtext(k))`;

/** Steps one subscription may take in one claim before yielding (a daily cycle after a long outage). */
const MAX_STEPS_PER_CLAIM = 64;

export interface BillingEngineOptions {
  /** Subscriptions claimed per transaction. */
  batchSize?: number;
  /** Real-time timer period, ms. */
  intervalMs?: number;
}

export class BillingEngine implements SubscriptionEngine, ClockBilling {
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
   * Runs every action due at `now` in `scope` until none is left, in real time none left that
   * no other engine is billing (TAKE_COUNTERS: their rows wait for this engine's next run, a
   * second later); returns how many subscriptions it worked on. Safe to run in several
   * engines at once.
   */
  async runDue(now: Date, scope: Scope): Promise<number> {
    let handled = 0;
    for (;;) {
      let batch: { claimed: number; worked: number };
      try {
        batch = await this.runBatch(now, scope, false);
      } catch (error) {
        // A subscription failed and took the batch's transaction with it (nothing committed):
        // the batch again, each subscription under a savepoint, so that one is set aside and
        // the others are billed. Savepoints cost two round trips per subscription, so only
        // a batch that needs them pays for them.
        this.logger.warn({ err: error }, 'billing batch failed; running it again one subscription at a time');
        batch = await this.runBatch(now, scope, true);
      }
      handled += batch.worked;
      // A full batch of which nothing was ours (every counter held by other engines): they are
      // billing those accounts; this run ends rather than claim the same rows again, and the
      // timer's next run picks up what is left.
      if (batch.claimed < this.batchSize || batch.worked === 0) return handled;
    }
  }

  /**
   * One claimed batch in one transaction; `guarded`: each subscription under a savepoint.
   * `worked`: the claimed subscriptions it acted on (a real-time batch leaves those of
   * counters another engine holds, TAKE_COUNTERS).
   */
  private runBatch(now: Date, scope: Scope, guarded: boolean): Promise<{ claimed: number; worked: number }> {
    return this.db.transaction(async (tx) => {
      const params: unknown[] = [now, this.batchSize];
      if (scope.testClock !== null) params.push(scope.testClock);
      const claimed = await tx.query<SubscriptionRow>(CLAIM(scope), params);
      if (!claimed.length) return { claimed: 0, worked: 0 };
      // A test clock's run is one account's and must finish everything due before the clock
      // is ready: it waits at the counter (in order) instead of leaving renewals behind.
      const rows = scope.testClock === null ? await this.ownCounters(tx, claimed) : claimed;
      if (!rows.length) return { claimed: claimed.length, worked: 0 };
      const read = await readBatch(tx, rows);
      const moved: NextAction[] = [];
      for (const row of inCounterOrder(rows)) {
        const { retryAt, known } = read(row);
        const next = guarded
          ? await this.stepGuarded(tx, row, now, scope, retryAt, known)
          : await this.advance(tx, row, now, retryAt, known);
        if (next?.changed) moved.push(next);
      }
      // Every claimed subscription's next action in one statement for the batch (one per
      // subscription before: a tenth of a renewal's statements, bench/README.md finding 41).
      if (moved.length)
        await tx.query(
          `update invoicing.subscriptions s set next_action_at = v.at
             from unnest($1::text[], $2::timestamptz[]) as v(id, at) where s.id = v.id`,
          [moved.map((m) => m.row.id), moved.map((m) => m.at)],
        );
      return { claimed: claimed.length, worked: rows.length };
    });
  }

  /** The claimed subscriptions whose counters this transaction took (TAKE_COUNTERS). */
  private async ownCounters(tx: Tx, claimed: readonly SubscriptionRow[]): Promise<SubscriptionRow[]> {
    const counters = [...new Set(claimed.map(counterOf))];
    const taken = new Set((await tx.query<{ k: string }>(TAKE_COUNTERS, [counters])).map((r) => r.k));
    return taken.size === counters.length ? [...claimed] : claimed.filter((row) => taken.has(counterOf(row)));
  }

  /**
   * One subscription of a claimed batch, under a savepoint: if it fails (say its customer's
   * invoice cannot be created) its work is undone and it is set aside, without taking the
   * batch down or hot-looping: real time retries it in an hour, a test clock stops acting on
   * it. Everything else in the batch commits.
   */
  private async stepGuarded(
    tx: Tx,
    row: SubscriptionRow,
    now: Date,
    scope: Scope,
    retryAt: Date | null,
    known: Known,
  ): Promise<NextAction | undefined> {
    // Tx.savepoint: a step that fails after publishing (invoice.created, say) leaves no event.
    const step = await tx.savepoint('billing_step');
    try {
      const next = await this.advance(tx, row, now, retryAt, known);
      await step.release();
      return next;
    } catch (error) {
      await step.rollback();
      if (error instanceof PeriodAlreadyBilled) {
        // The last line of defence (renew-subscription.ts): the period keeps its one bill,
        // the subscription moves past it, and the next run bills what follows.
        this.logger.error(
          { subscription: row.id, period: error.period },
          'period already billed; skipping to the next',
        );
        const [skipped] = await tx.query<SubscriptionRow>(
          'update invoicing.subscriptions set next_period_index = $2 where id = $1 returning *',
          [row.id, error.period + 1],
        );
        return nextAction(skipped, retryAt);
      }
      this.logger.error({ err: error, subscription: row.id }, 'billing step failed; subscription set aside');
      const retry = scope.testClock === null ? new Date(now.getTime() + 3_600_000) : null;
      await tx.query('update invoicing.subscriptions set next_action_at = $2 where id = $1', [row.id, retry]);
    }
  }

  /**
   * Performs the actions of `sub` (locked by the caller) due at `now`, earliest first, and
   * stores its next action time. Returns the row as it ends up. `knownRetryAt`: its earliest
   * dunning retry when the caller already read it under the row's lock (runBatch), else read here.
   */
  async stepInTx(
    tx: Tx,
    sub: SubscriptionRow,
    now: Date,
    knownRetryAt?: Date | null,
  ): Promise<SubscriptionRow> {
    return this.save(tx, await this.advance(tx, sub, now, knownRetryAt));
  }

  /**
   * The actions of `sub` due at `now`, performed; returns the row as they left it and its next
   * action time, which the caller stores (stepInTx at once, runBatch for the whole batch).
   * `known`: what the caller read of the subscription in this transaction (runBatch).
   */
  private async advance(
    tx: Tx,
    sub: SubscriptionRow,
    now: Date,
    knownRetryAt?: Date | null,
    known?: Known,
  ): Promise<NextAction> {
    let row = sub;
    // Only a retry changes the retry schedule here (outcomes arrive in other transactions).
    let retryAt = knownRetryAt === undefined ? await this.retryAt(tx, row.id) : knownRetryAt;
    for (let step = 0; step < MAX_STEPS_PER_CLAIM; step++) {
      const [next] = pendingActions(row, retryAt);
      if (!next || next.at.getTime() > now.getTime()) break;
      row = await this.perform(tx, row, next.kind, now, known);
      if (next.kind === 'retry') retryAt = await this.retryAt(tx, row.id);
    }
    return nextAction(row, retryAt);
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
    return this.save(tx, nextAction(row, retryAt));
  }

  /** Stores one subscription's next action time when it changed; returns the row as stored. */
  private async save(tx: Tx, next: NextAction): Promise<SubscriptionRow> {
    if (!next.changed) return next.row;
    const [saved] = await tx.query<SubscriptionRow>(
      'update invoicing.subscriptions set next_action_at = $2 where id = $1 returning *',
      [next.row.id, next.at],
    );
    return saved;
  }

  private async perform(
    tx: Tx,
    row: SubscriptionRow,
    kind: string,
    now: Date,
    known?: Known,
  ): Promise<SubscriptionRow> {
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
        return this.periodStarts(tx, row, now, known);
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
  private async periodStarts(
    tx: Tx,
    row: SubscriptionRow,
    now: Date,
    known?: Known,
  ): Promise<SubscriptionRow> {
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
    const billed = await this.billPeriod(tx, row, now, known);
    // This period's invoice took the prorations: a later period of the same claim has none.
    if (known) known.prorations = [];
    return billed;
  }

  /**
   * Bills period `next_period_index`: the invoice, then the ledger row (whose primary key
   * refuses a second bill of the period), all in the caller's transaction (renew-subscription.ts).
   */
  billPeriod(tx: Tx, row: SubscriptionRow, now: Date, known?: Known): Promise<SubscriptionRow> {
    return billPeriod(this.invoices, tx, row, now, known);
  }

  /** The earliest due dunning retry of `row` (dunning.ts). */
  private retry(tx: Tx, row: SubscriptionRow, now: Date): Promise<SubscriptionRow> {
    return retryCollection(this.invoices, tx, row, now);
  }

  /** Called by the invoices module in the settlement transaction of every payment outcome (dunning.ts). */
  onPaymentOutcome(tx: Tx, outcome: PaymentOutcome): Promise<void> {
    return applyPaymentOutcome(this, tx, outcome);
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
