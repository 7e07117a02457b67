// Test clocks (sandbox only): a frozen time that the customers created on it, and their
// subscriptions and invoices, live at. Advancing a clock runs, in time order, every action
// due for its customers up to the new time (renewals with their invoices and charges,
// dunning retries, trial_will_end, trial ends, overdue invoices) and answers once the clock
// is `ready` again. Between two steps it waits (bounded) for the outcomes of the charges the
// step requested to come back from the payments service, so a retry or a past_due is decided
// on the real outcome, as in live billing.

import {
  ApiError,
  type Clock,
  type Database,
  findOwned,
  isoOrNull,
  type ListQuery,
  lockOwned,
  type Logger,
  newId,
  paginateOwned,
  type Tenant,
  type Tx,
  iso,
} from '@paygrid/platform';
import type { InvoicesInternal } from '../invoices/invoices.internal';
import type { TestClock } from '@paygrid/contracts';

/**
 * What an advance asks of the billing engine (billing/billing-engine.ts implements it;
 * billing/billing.module.ts passes it in, so test clocks never import billing/).
 */
export interface ClockBilling {
  /** Runs the steps due at `now` of the subscriptions on test clock `scope.testClock`. */
  runDue(now: Date, scope: { testClock: string }): Promise<number>;
  /** How many charges of this clock's invoices still await their outcome. */
  awaitingOutcomes(testClock: string): Promise<number>;
}

export interface TestClockRow {
  id: string;
  account_id: string;
  /** Always false: test clocks exist only in test mode (create refuses a live key). */
  livemode: false;
  name: string | null;
  frozen_time: Date;
  status: 'ready' | 'advancing';
  advancing_to: Date | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function serializeTestClock(c: TestClockRow): TestClock {
  return {
    id: c.id,
    object: 'test_clock' as const,
    livemode: c.livemode,
    name: c.name,
    frozen_time: iso(c.frozen_time),
    status: c.status,
    advancing_to: isoOrNull(c.advancing_to),
    deleted: c.deleted_at !== null,
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
  };
}

/** The estimate expiry sweep, run at each step for the clock's customers (EstimatesService). */
export interface ClockEstimateExpiry {
  runExpiry(now: Date, scope: { test_clock: string }): Promise<number>;
  nextExpiry(testClock: string, to: Date): Promise<Date | null>;
}

export interface TestClockOptions {
  /** How long one step waits for the payment outcomes it caused (ms). */
  outcomeWaitMs?: number;
  /** Expires the estimates of the clock's customers at its frozen time. */
  estimates?: ClockEstimateExpiry;
}

export const testModeOnly = () =>
  new ApiError('test_mode_only', 'Test clocks exist in test mode only: use a test key (sk_test_/rk_test_).');

export class TestClocksService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly engine: ClockBilling,
    private readonly invoices: InvoicesInternal,
    private readonly logger: Logger,
    private readonly options: TestClockOptions = {},
  ) {}

  /** `tx`: the idempotent request's transaction (docs/adr/0015). */
  async create(tenant: Tenant, body: { frozen_time: Date; name?: string }, tx?: Tx): Promise<TestClockRow> {
    if (tenant.livemode) throw testModeOnly();
    const now = this.clock.now();
    const [row] = await (tx ?? this.db).query<TestClockRow>(
      `insert into invoicing.test_clocks (id, account_id, livemode, name, frozen_time, status, created_at, updated_at)
       values ($1, $2, false, $3, $4, 'ready', $5, $5) returning *`,
      [newId('clock'), tenant.account, body.name ?? null, body.frozen_time, now],
    );
    return row;
  }

  async get(tenant: Tenant, id: string): Promise<TestClockRow> {
    return findOwned<TestClockRow>(this.db, 'invoicing.test_clocks', tenant, id, 'test clock');
  }

  list(tenant: Tenant, query: ListQuery) {
    return paginateOwned<TestClockRow>(this.db, tenant, {
      table: 'invoicing.test_clocks',
      where: ['deleted_at is null'],
      list: query,
      url: '/v1/test-clocks',
    });
  }

  /**
   * Deletes the clock and ends its customers' subscriptions (canceled, no events: test data
   * going away). A clock that is advancing cannot be deleted (409).
   */
  async remove(tenant: Tenant, id: string): Promise<TestClockRow> {
    return this.db.transaction(async (tx) => {
      const row = await lockOwned<TestClockRow>(tx, 'invoicing.test_clocks', tenant, id, 'test clock');
      if (row.deleted_at) return row;
      if (row.status === 'advancing') {
        throw new ApiError(
          'invalid_state_transition',
          `Test clock '${id}' is advancing; delete it once it is ready.`,
        );
      }
      await tx.query(
        `update invoicing.subscriptions set status = 'canceled', canceled_at = coalesce(canceled_at, $2),
                ended_at = coalesce(ended_at, $2), next_action_at = null
          where test_clock = $1 and status not in ('canceled', 'incomplete_expired')`,
        [id, row.frozen_time],
      );
      const [deleted] = await tx.query<TestClockRow>(
        'update invoicing.test_clocks set deleted_at = $2, updated_at = $2 where id = $1 returning *',
        [id, this.clock.now()],
      );
      return deleted;
    });
  }

  /**
   * Moves the clock forward to `to`, step by step: each step jumps to the earliest instant
   * something is due (a subscription action, an invoice's due date or a sent estimate's
   * expires_at, for the clock's customers), runs everything due then, and waits for the payment outcomes it requested. Answers the clock, `ready`.
   */
  async advance(tenant: Tenant, id: string, to: Date): Promise<TestClockRow> {
    if (tenant.livemode) throw new ApiError('resource_missing', `No such test clock: '${id}'`, 'id');
    const current = await this.get(tenant, id);
    if (current.deleted_at) throw new ApiError('invalid_state_transition', `Test clock '${id}' is deleted.`);
    if (to.getTime() <= new Date(current.frozen_time).getTime()) {
      throw new ApiError(
        'parameter_invalid',
        "frozen_time must be after the clock's current frozen_time.",
        'frozen_time',
      );
    }
    await this.checkAdvanceBound(id, new Date(current.frozen_time), to);
    // One advance at a time: the conditional update is the lock (409 while another runs; an
    // advance without a heartbeat for 5 minutes died with its process and is taken over).
    const [claimed] = await this.db.query<TestClockRow>(
      `update invoicing.test_clocks set status = 'advancing', advancing_to = $2, updated_at = $3
        where id = $1 and deleted_at is null
          and (status = 'ready' or updated_at < $3::timestamptz - interval '5 minutes') returning *`,
      [id, to, this.clock.now()],
    );
    if (!claimed) throw new ApiError('invalid_state_transition', `Test clock '${id}' is already advancing.`);
    try {
      await this.run(id, to);
    } catch (error) {
      this.logger.error(
        { err: error, clock: id },
        'test clock advance failed; the clock stays where it got to',
      );
      await this.db.query(
        `update invoicing.test_clocks set status = 'ready', advancing_to = null, updated_at = $2 where id = $1`,
        [id, this.clock.now()],
      );
      throw error;
    }
    const [ready] = await this.db.query<TestClockRow>(
      `update invoicing.test_clocks set status = 'ready', frozen_time = $2, advancing_to = null, updated_at = $3
        where id = $1 returning *`,
      [id, to, this.clock.now()],
    );
    return ready;
  }

  /**
   * Stripe's bound: one advance moves the clock at most two intervals of the shortest
   * subscription on it (a clock without subscriptions: at most two years). An unbounded
   * advance ran up to 100,000 steps in one request (365 days of a daily subscription: 12 s,
   * 366 invoices and mails) and doubled other tenants' latency; a larger move is several
   * advances, each a bounded amount of work.
   */
  private async checkAdvanceBound(id: string, from: Date, to: Date): Promise<void> {
    const [bound] = await this.db.query<{ latest: Date }>(
      `select coalesce(
         $2::timestamptz + 2 * (select min(interval_count * case interval when 'day' then interval '1 day'
                                  when 'week' then interval '7 days' when 'month' then interval '1 month'
                                  else interval '1 year' end)
                                from invoicing.subscriptions
                               where test_clock = $1 and status not in ('canceled', 'incomplete_expired')),
         $2::timestamptz + interval '2 years') as latest`,
      [id, from],
    );
    const latest = new Date(bound.latest);
    if (to.getTime() > latest.getTime()) {
      throw new ApiError(
        'parameter_invalid',
        `An advance moves a test clock at most two intervals of its shortest subscription (two years without one): at most to ${latest.toISOString()}. Advance in several steps.`,
        'frozen_time',
      );
    }
  }

  private async run(id: string, to: Date): Promise<void> {
    let last = 0;
    let stalled = 0;
    for (let step = 0; step < 100_000; step++) {
      const [next] = await this.db.query<{ at: Date | null }>(
        `select least(
           (select min(next_action_at) from invoicing.subscriptions where test_clock = $1 and next_action_at <= $2),
           (select min(due_date) from invoicing.invoices where test_clock = $1 and status = 'open'
              and overdue_at is null and due_date <= $2)
         ) as at`,
        [id, to],
      );
      const expiry = await this.options.estimates?.nextExpiry(id, to);
      const due = [next?.at ? new Date(next.at) : null, expiry ?? null].filter((d): d is Date => d !== null);
      if (due.length === 0) return;
      const at = new Date(Math.min(...due.map((d) => d.getTime())));
      // Something due that no run takes away (a bug, or a row another process holds): do not spin.
      stalled = at.getTime() <= last ? stalled + 1 : 0;
      if (stalled > 20) {
        this.logger.error({ clock: id, at }, 'test clock made no progress; stopping the advance here');
        return;
      }
      last = at.getTime();
      // updated_at is the advance's heartbeat: an advance whose process died (no beat for 5
      // minutes) can be taken over by the next advance request.
      await this.db.query(
        'update invoicing.test_clocks set frozen_time = greatest(frozen_time, $2), updated_at = $3 where id = $1',
        [id, at, this.clock.now()],
      );
      await this.engine.runDue(at, { testClock: id });
      await this.invoices.runOverdue(at, { test_clock: id });
      await this.options.estimates?.runExpiry(at, { test_clock: id });
      await this.waitForOutcomes(id);
    }
  }

  /** Waits until the charges requested for this clock's invoices have an outcome (bounded). */
  private async waitForOutcomes(id: string): Promise<void> {
    const deadline = Date.now() + (this.options.outcomeWaitMs ?? 15_000);
    while ((await this.engine.awaitingOutcomes(id)) > 0) {
      if (Date.now() > deadline) {
        // The outcomes still count when they arrive; the clock just stops waiting for them.
        this.logger.warn({ clock: id }, 'payment outcomes did not come back in time; the clock moves on');
        await this.db.query(
          'update invoicing.subscription_periods set awaiting_outcome = false where test_clock = $1 and awaiting_outcome',
          [id],
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
