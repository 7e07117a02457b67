// Over 400 lines (527): one use case per file for invoicing is issue 14 item 3, not done yet.
// Subscriptions: the API actions (create, change with proration and its preview, cancel,
// pause, resume, read). Everything time does to them is the billing engine's; an action that
// makes something due at once (the first invoice at creation) runs the engine's step inline,
// in the action's own transaction. A subscription on a test clock lives at the clock's time.

import { rememberAccountName } from '../account/account.service';
import {
  ApiError,
  type Database,
  findOwned,
  iso,
  lockOwned,
  minorToJson,
  newId,
  paginate,
  rangeClauses,
  type Tx,
  type Tenant,
} from '@paygrid/platform';
import { addDays, isValidTimeZone, periodContaining, periodStart } from './billing-cycle';
import { emitSubscriptionEvent } from './subscription-events';
import type { SubscriptionEngine } from './subscription-engine';
import type { InvoicesInternal } from '../invoices/invoices.internal';
import { assertTransition } from './subscription-states';
import {
  composeInvoice,
  cycleOf,
  itemsTotal,
  periodLines,
  prorationLines,
  type ProrationLine,
  type SubscriptionItem,
  type SubscriptionRow,
} from './subscription.model';
import type {
  CreateSubscriptionDto,
  ListSubscriptionsQuery,
  SubscriptionItemDto,
  UpdateSubscriptionDto,
} from './subscriptions.dto';

interface CustomerRef {
  id: string;
  currency: string | null;
  test_clock: string | null;
  deleted_at: Date | null;
}

/** One cycle and one currency per subscription (as Stripe): checked here, 400 otherwise. */
function normalizeItems(items: SubscriptionItemDto[]) {
  const [first] = items;
  const interval = first.interval;
  const intervalCount = first.interval_count ?? 1;
  items.forEach((item, i) => {
    if (item.currency !== first.currency) {
      throw new ApiError(
        'parameter_invalid',
        'Every item of a subscription must have the same currency.',
        `items[${i}].currency`,
      );
    }
    if (item.interval !== interval || (item.interval_count ?? 1) !== intervalCount) {
      throw new ApiError(
        'parameter_invalid',
        'Every item of a subscription must have the same interval and interval_count (one billing cycle per subscription).',
        `items[${i}].interval`,
      );
    }
  });
  return {
    currency: first.currency,
    interval,
    intervalCount,
    items: items.map<SubscriptionItem>((i) => ({
      description: i.description,
      unit_amount: i.unit_amount,
      quantity: i.quantity ?? 1,
    })),
  };
}

export class SubscriptionsService {
  constructor(
    private readonly db: Database,
    private readonly engine: SubscriptionEngine,
    private readonly invoices: InvoicesInternal,
  ) {}

  /** The time of a test clock (frozen), or the service's clock. */
  private async nowFor(tx: Tx, testClock: string | null): Promise<Date> {
    return this.engine.nowFor(tx, testClock);
  }

  /** `accountName`: the gateway's name for the account, the seller's name when its profile has none. */
  async create(tenant: Tenant, body: CreateSubscriptionDto, accountName?: string): Promise<SubscriptionRow> {
    const { currency, interval, intervalCount, items } = normalizeItems(body.items);
    const timeZone = body.time_zone ?? 'UTC';
    if (!isValidTimeZone(timeZone))
      throw new ApiError(
        'parameter_invalid',
        'time_zone must be an IANA time zone, e.g. Europe/Paris.',
        'time_zone',
      );
    if (body.trial_end && body.trial_period_days) {
      throw new ApiError(
        'parameter_invalid',
        'Pass trial_end or trial_period_days, not both.',
        'trial_period_days',
      );
    }
    if (body.days_until_due !== undefined && body.collection_method !== 'send_invoice') {
      throw new ApiError(
        'parameter_invalid',
        'days_until_due applies to collection_method send_invoice only.',
        'days_until_due',
      );
    }
    return this.db.transaction(async (tx) => {
      const customer = await findOwned<CustomerRef>(
        tx,
        'invoicing.customers',
        tenant,
        body.customer,
        'customer',
        'customer',
      );
      if (customer.deleted_at)
        throw new ApiError('parameter_invalid', `Customer '${customer.id}' is archived.`, 'customer');
      // Invoices are in the customer's currency when it has one (the invoices module's rule).
      if (customer.currency && customer.currency !== currency) {
        throw new ApiError(
          'parameter_invalid',
          `The customer is billed in ${customer.currency}.`,
          'items[0].currency',
        );
      }
      const now = await this.nowFor(tx, customer.test_clock);
      // The engine's invoices are made without a request: they name the seller by this.
      if (accountName) await rememberAccountName(tx, tenant.account, accountName, now);
      if (body.trial_end && body.trial_end.getTime() <= now.getTime()) {
        throw new ApiError('parameter_invalid', 'trial_end must be in the future.', 'trial_end');
      }
      const trialEnd =
        body.trial_end ?? (body.trial_period_days ? addDays(now, body.trial_period_days, timeZone) : null);
      const billFrom = trialEnd ?? now;
      const anchor = body.billing_cycle_anchor ?? billFrom;
      const cycle = { interval, intervalCount, anchor, timeZone };
      const first = periodContaining(cycle, billFrom);
      // The stub before a later anchor is billed pro rata unless proration_behavior is none.
      const onBoundary = first.start.getTime() === billFrom.getTime();
      const firstIndex = onBoundary || body.proration_behavior !== 'none' ? first.index : first.index + 1;
      const collection = body.collection_method ?? 'charge_automatically';
      const billsNow = !trialEnd && firstIndex === first.index;
      // Charged automatically, the subscription is incomplete until its first invoice is paid.
      const status = trialEnd
        ? 'trialing'
        : billsNow && collection === 'charge_automatically'
          ? 'incomplete'
          : 'active';
      const [row] = await tx.query<SubscriptionRow>(
        `insert into invoicing.subscriptions
           (id, account_id, livemode, customer_id, test_clock, status, currency, interval, interval_count, items,
            time_zone, billing_cycle_anchor, start_date, bill_from, trial_start, trial_end, collection_method,
            days_until_due, dunning_end_state, next_period_index, current_period_start, current_period_end,
            metadata, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                 $21, $22, $23::jsonb, $13, $13)
         returning *`,
        [
          newId('sub'),
          tenant.account,
          tenant.livemode,
          customer.id,
          customer.test_clock,
          status,
          currency,
          interval,
          intervalCount,
          JSON.stringify(items),
          timeZone,
          anchor,
          now,
          billFrom,
          trialEnd ? now : null,
          trialEnd,
          collection,
          collection === 'send_invoice' ? (body.days_until_due ?? 30) : null,
          body.dunning_end_state ?? 'canceled',
          firstIndex,
          trialEnd ? now : null,
          trialEnd,
          JSON.stringify(body.metadata ?? {}),
        ],
      );
      await emitSubscriptionEvent(tx, 'subscription.created', row, now);
      // Without a trial the first period is due now: bill it in this transaction.
      let current = row;
      if (billsNow) {
        current = await this.engine.billPeriod(tx, row, now);
        const [paid] = await tx.query(
          `select 1 from invoicing.subscription_periods where subscription_id = $1 and payment_status = 'paid'`,
          [row.id],
        );
        // A zero first invoice is paid at finalization: nothing left to wait for.
        if (paid && current.status === 'incomplete')
          current = await this.engine.transition(tx, current, 'active', now);
      }
      return this.engine.stepInTx(tx, current, now);
    });
  }

  async get(tenant: Tenant, id: string): Promise<SubscriptionRow> {
    return findOwned<SubscriptionRow>(this.db, 'invoicing.subscriptions', tenant, id, 'subscription');
  }

  list(tenant: Tenant, query: ListSubscriptionsQuery) {
    const where = ['account_id = $1', 'livemode = $2'];
    const params: unknown[] = [tenant.account, tenant.livemode];
    for (const [column, value] of [
      ['status', query.status],
      ['customer_id', query.customer],
      ['test_clock', query.test_clock],
    ] as const) {
      if (value !== undefined) {
        params.push(value);
        where.push(`${column} = $${params.length}`);
      }
    }
    where.push(...rangeClauses('current_period_end', query.current_period_end, params));
    return paginate<SubscriptionRow>(this.db, {
      table: 'invoicing.subscriptions',
      where,
      params,
      list: query,
      url: '/v1/subscriptions',
    });
  }

  private async lock(tx: Tx, tenant: Tenant, id: string): Promise<SubscriptionRow> {
    return lockOwned<SubscriptionRow>(tx, 'invoicing.subscriptions', tenant, id, 'subscription');
  }

  /**
   * What a change bills, without writing anything: the proration lines, the invoice
   * `always_invoice` would create now, and the next renewal invoice. The same functions
   * compute the change itself, so with the returned proration_date the change bills exactly this.
   */
  async preview(tenant: Tenant, id: string, body: UpdateSubscriptionDto) {
    return this.db.transaction(async (tx) => {
      const row = await this.lock(tx, tenant, id);
      const now = await this.nowFor(tx, row.test_clock);
      const plan = await this.plan(tx, row, body, now);
      const pending = await this.pendingProrations(tx, row.id);
      const behavior = body.proration_behavior ?? 'create_prorations';
      const immediate =
        behavior === 'always_invoice' && plan.prorations.length
          ? composeInvoice([], [...pending, ...plan.prorations], BigInt(row.pending_credit))
          : null;
      const items = plan.items ?? row.items;
      const n = row.next_period_index;
      const next = { start: periodStart(cycleOf(row), n), end: periodStart(cycleOf(row), n + 1) };
      const carried = behavior === 'create_prorations' ? [...pending, ...plan.prorations] : pending;
      const nextInvoice = composeInvoice(
        periodLines(
          items,
          next,
          new Date(Math.max(next.start.getTime(), new Date(row.bill_from).getTime())),
          row.time_zone,
        ),
        immediate ? [] : carried,
        immediate ? immediate.creditLeft : BigInt(row.pending_credit),
      );
      const money = (c: ReturnType<typeof composeInvoice>) => ({
        lines: c.lines.map((l) => ({
          description: l.description,
          quantity: Number(l.quantity),
          unit_amount: Number(l.unit_amount),
        })),
        subtotal: Number(c.subtotal),
        discount: Number(c.discount),
        total: Number(c.total),
        credit_left: Number(c.creditLeft),
      });
      return {
        object: 'subscription_preview' as const,
        subscription: row.id,
        currency: row.currency,
        proration_behavior: behavior,
        proration_date: plan.at ? iso(plan.at) : null,
        proration_lines: (behavior === 'none' ? [] : plan.prorations).map((p) => ({
          description: p.description,
          amount: Number(p.amount),
          period_start: iso(p.period_start),
          period_end: iso(p.period_end),
        })),
        invoice_now: immediate ? money(immediate) : null,
        next_invoice: { period_start: iso(next.start), period_end: iso(next.end), ...money(nextInvoice) },
      };
    });
  }

  /** The new items and the proration lines a change would produce at its proration date. */
  private async plan(tx: Tx, row: SubscriptionRow, body: UpdateSubscriptionDto, now: Date) {
    if (!body.items) return { items: undefined, prorations: [] as ProrationLine[], at: null };
    const next = normalizeItems(body.items);
    if (next.currency !== row.currency) {
      throw new ApiError(
        'parameter_invalid',
        `items must stay in the subscription's currency ${row.currency}.`,
        'items[0].currency',
      );
    }
    if (next.interval !== row.interval || next.intervalCount !== row.interval_count) {
      throw new ApiError(
        'parameter_invalid',
        "items must keep the subscription's billing cycle.",
        'items[0].interval',
      );
    }
    const at = body.proration_date ?? now;
    const billed = row.status === 'active' || row.status === 'past_due';
    if (
      !billed ||
      row.current_period_start === null ||
      row.current_period_end === null ||
      body.proration_behavior === 'none'
    ) {
      return { items: next.items, prorations: [] as ProrationLine[], at: billed ? at : null };
    }
    const periodStartAt = new Date(row.current_period_start);
    const periodEnd = new Date(row.current_period_end);
    if (
      at.getTime() < periodStartAt.getTime() ||
      at.getTime() > now.getTime() ||
      at.getTime() >= periodEnd.getTime()
    ) {
      throw new ApiError(
        'parameter_invalid',
        'proration_date must be within the current period and not in the future.',
        'proration_date',
      );
    }
    // Prorate over the whole period (the stub after a trial is part of it), so the credit of
    // unused time never exceeds what the period's invoice charged.
    const full = periodContaining(cycleOf(row), periodStartAt);
    void tx;
    return {
      items: next.items,
      prorations: prorationLines(
        row.items,
        next.items,
        { start: full.start, end: full.end },
        at,
        row.time_zone,
      ),
      at,
    };
  }

  private async pendingProrations(tx: Tx, subscription: string): Promise<ProrationLine[]> {
    const rows = await tx.query<ProrationLine & { amount: string }>(
      `select description, amount, period_start, period_end from invoicing.subscription_prorations
        where subscription_id = $1 and invoice_id is null order by created_at, id`,
      [subscription],
    );
    return rows.map((r) => ({
      ...r,
      amount: BigInt(r.amount),
      period_start: new Date(r.period_start),
      period_end: new Date(r.period_end),
    }));
  }

  async update(tenant: Tenant, id: string, body: UpdateSubscriptionDto): Promise<SubscriptionRow> {
    return this.db.transaction(async (tx) => {
      const row = await this.lock(tx, tenant, id);
      if (row.status === 'canceled' || row.status === 'incomplete_expired') {
        throw new ApiError(
          'invalid_state_transition',
          `Subscription '${id}' is ${row.status} and cannot change.`,
        );
      }
      const now = await this.nowFor(tx, row.test_clock);
      const plan = await this.plan(tx, row, body, now);
      const behavior = body.proration_behavior ?? 'create_prorations';
      const previous: Record<string, unknown> = {};
      const sets: string[] = [];
      const params: unknown[] = [row.id, now];
      const set = (column: string, value: unknown, cast = '') => {
        params.push(value);
        sets.push(`${column} = $${params.length}${cast}`);
      };
      if (plan.items) {
        previous.items = row.items;
        set('items', JSON.stringify(plan.items), '::jsonb');
      }
      for (const field of [
        'collection_method',
        'days_until_due',
        'dunning_end_state',
        'cancel_at_period_end',
      ] as const) {
        if (body[field] !== undefined && body[field] !== row[field]) {
          previous[field] = row[field];
          set(field, body[field]);
        }
      }
      if (body.metadata) {
        previous.metadata = row.metadata;
        set('metadata', JSON.stringify({ ...row.metadata, ...body.metadata }), '::jsonb');
      }
      if (!sets.length) return row;
      let [updated] = await tx.query<SubscriptionRow>(
        `update invoicing.subscriptions set ${sets.join(', ')}, updated_at = $2 where id = $1 returning *`,
        params,
      );
      if (plan.prorations.length && behavior !== 'none') {
        for (const p of plan.prorations) {
          await tx.query(
            `insert into invoicing.subscription_prorations (id, subscription_id, description, amount, period_start, period_end, created_at)
             values ($1, $2, $3, $4, $5, $6, $7)`,
            [newId('ii'), row.id, p.description, p.amount, p.period_start, p.period_end, now],
          );
        }
        if (behavior === 'always_invoice') updated = await this.invoiceProrationsNow(tx, updated, now);
      }
      await emitSubscriptionEvent(tx, 'subscription.updated', updated, now, previous);
      return this.engine.stepInTx(tx, updated, now);
    });
  }

  /** always_invoice: the pending prorations on an invoice of their own, finalized and collected now. */
  private async invoiceProrationsNow(tx: Tx, row: SubscriptionRow, now: Date): Promise<SubscriptionRow> {
    const pending = await tx.query<ProrationLine & { id: string; amount: string }>(
      `select id, description, amount, period_start, period_end from invoicing.subscription_prorations
        where subscription_id = $1 and invoice_id is null order by created_at, id`,
      [row.id],
    );
    const composed = composeInvoice(
      [],
      pending.map((p) => ({ ...p, amount: BigInt(p.amount) })),
      BigInt(row.pending_credit),
    );
    const ids = pending.map((p) => p.id);
    if (!composed.lines.length) {
      // Only credit: nothing to invoice; it is carried to the next invoice.
      await tx.query(
        `update invoicing.subscription_prorations set invoice_id = 'credit' where id = any($1)`,
        [ids],
      );
      const [credited] = await tx.query<SubscriptionRow>(
        'update invoicing.subscriptions set pending_credit = $2 where id = $1 returning *',
        [row.id, composed.creditLeft],
      );
      return credited;
    }
    const tenant = { account: row.account_id, livemode: row.livemode };
    const { invoice } = await this.invoices.createAndCollectInTx(
      tx,
      tenant,
      {
        customer: row.customer_id,
        currency: row.currency,
        lines: composed.lines,
        discount: composed.discount > 0n ? { amount: minorToJson(composed.discount) } : null,
        collection_method: row.collection_method,
        ...(row.days_until_due !== null ? { days_until_due: row.days_until_due } : {}),
        description: `Subscription ${row.id}: change of ${now.toISOString().slice(0, 10)}`,
        subscription: row.id,
        now,
      },
      1,
    );
    await tx.query(`update invoicing.subscription_prorations set invoice_id = $2 where id = any($1)`, [
      ids,
      invoice.id,
    ]);
    const [updated] = await tx.query<SubscriptionRow>(
      'update invoicing.subscriptions set latest_invoice = $2, pending_credit = $3 where id = $1 returning *',
      [row.id, invoice.id, composed.creditLeft],
    );
    return updated;
  }

  async cancel(tenant: Tenant, id: string, at: 'now' | 'period_end'): Promise<SubscriptionRow> {
    return this.db.transaction(async (tx) => {
      const row = await this.lock(tx, tenant, id);
      const now = await this.nowFor(tx, row.test_clock);
      if (at === 'now') {
        const updated = await this.engine.transition(tx, row, 'canceled', now);
        return this.engine.saveNextAction(tx, updated);
      }
      assertTransition(row.status, 'canceled', row.id);
      if (row.cancel_at_period_end) return row;
      const [updated] = await tx.query<SubscriptionRow>(
        'update invoicing.subscriptions set cancel_at_period_end = true, updated_at = $2 where id = $1 returning *',
        [row.id, now],
      );
      await emitSubscriptionEvent(tx, 'subscription.updated', updated, now, { cancel_at_period_end: false });
      return updated;
    });
  }

  /** active -> paused: periods keep passing (recorded as paused), nothing is invoiced. */
  async pause(tenant: Tenant, id: string): Promise<SubscriptionRow> {
    return this.db.transaction(async (tx) => {
      const row = await this.lock(tx, tenant, id);
      const now = await this.nowFor(tx, row.test_clock);
      return this.engine.saveNextAction(tx, await this.engine.transition(tx, row, 'paused', now));
    });
  }

  /** paused -> active: billing resumes at the next period start. */
  async resume(tenant: Tenant, id: string): Promise<SubscriptionRow> {
    return this.db.transaction(async (tx) => {
      const row = await this.lock(tx, tenant, id);
      if (row.status !== 'paused') {
        throw new ApiError('invalid_state_transition', `Subscription '${id}' is ${row.status}, not paused.`);
      }
      const now = await this.nowFor(tx, row.test_clock);
      return this.engine.saveNextAction(tx, await this.engine.transition(tx, row, 'active', now));
    });
  }

  /** Sum of the items per period (for tests and summaries). */
  static amountPerPeriod(row: SubscriptionRow): bigint {
    return itemsTotal(row.items);
  }
}
