// Subscriptions: the API actions (create, change with proration and its preview, cancel,
// pause, resume, read). Everything time does to them is the billing engine's; an action that
// makes something due at once (the first invoice at creation) runs the engine's step inline,
// in the action's own transaction. A subscription on a test clock lives at the clock's time.
// A change and its preview are change-subscription.ts.

import { rememberAccountName } from '../account/account.service';
import {
  ApiError,
  type Database,
  findOwned,
  lockOwned,
  newId,
  paginate,
  rangeClauses,
  type Tx,
  type Tenant,
} from '@paygrid/platform';
import { addDays, isValidTimeZone, periodContaining } from './billing-cycle';
import { emitSubscriptionEvent } from './subscription-events';
import type { SubscriptionEngine } from './subscription-engine';
import type { InvoicesInternal } from '../invoices/invoices.internal';
import { SubscriptionChanges } from './change-subscription';
import { normalizeItems } from './subscription-items';
import { assertTransition } from './subscription-states';
import { itemsTotal, type SubscriptionRow } from './subscription.model';
import type {
  CreateSubscriptionDto,
  ListSubscriptionsQuery,
  UpdateSubscriptionDto,
} from './subscriptions.dto';

interface CustomerRef {
  id: string;
  currency: string | null;
  test_clock: string | null;
  deleted_at: Date | null;
}

export class SubscriptionsService {
  private readonly changes: SubscriptionChanges;

  constructor(
    private readonly db: Database,
    private readonly engine: SubscriptionEngine,
    invoices: InvoicesInternal,
  ) {
    this.changes = new SubscriptionChanges(db, engine, invoices);
  }

  /** The time of a test clock (frozen), or the service's clock. */
  private async nowFor(tx: Tx, testClock: string | null): Promise<Date> {
    return this.engine.nowFor(tx, testClock);
  }

  /**
   * `accountName`: the gateway's name for the account, the seller's name when its profile has
   * none. `tx` (here and in the actions below): the idempotent request's transaction
   * (docs/adr/0015).
   */
  async create(
    tenant: Tenant,
    body: CreateSubscriptionDto,
    accountName?: string,
    tx?: Tx,
  ): Promise<SubscriptionRow> {
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
    return this.db.transaction(
      async (t) => {
        const customer = await findOwned<CustomerRef>(
          t,
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
        const now = await this.nowFor(t, customer.test_clock);
        // The engine's invoices are made without a request: they name the seller by this.
        if (accountName) await rememberAccountName(t, tenant.account, accountName, now);
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
        const [row] = await t.query<SubscriptionRow>(
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
        await emitSubscriptionEvent(t, 'subscription.created', row, now);
        // Without a trial the first period is due now: bill it in this transaction.
        let current = row;
        if (billsNow) {
          current = await this.engine.billPeriod(t, row, now);
          const [paid] = await t.query(
            `select 1 from invoicing.subscription_periods where subscription_id = $1 and payment_status = 'paid'`,
            [row.id],
          );
          // A zero first invoice is paid at finalization: nothing left to wait for.
          if (paid && current.status === 'incomplete')
            current = await this.engine.transition(t, current, 'active', now);
        }
        return this.engine.stepInTx(t, current, now);
      },
      { in: tx },
    );
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
   * What a change bills, without writing anything (change-subscription.ts): the proration
   * lines, the invoice `always_invoice` would create now, and the next renewal invoice.
   */
  preview(tenant: Tenant, id: string, body: UpdateSubscriptionDto, tx?: Tx) {
    return this.changes.preview(tenant, id, body, tx);
  }

  /** A change of items or settings, prorated as asked (change-subscription.ts). */
  update(tenant: Tenant, id: string, body: UpdateSubscriptionDto, tx?: Tx): Promise<SubscriptionRow> {
    return this.changes.update(tenant, id, body, tx);
  }

  async cancel(tenant: Tenant, id: string, at: 'now' | 'period_end', tx?: Tx): Promise<SubscriptionRow> {
    return this.db.transaction(
      async (t) => {
        const row = await this.lock(t, tenant, id);
        const now = await this.nowFor(t, row.test_clock);
        if (at === 'now') {
          const updated = await this.engine.transition(t, row, 'canceled', now);
          return this.engine.saveNextAction(t, updated);
        }
        assertTransition(row.status, 'canceled', row.id);
        if (row.cancel_at_period_end) return row;
        const [updated] = await t.query<SubscriptionRow>(
          'update invoicing.subscriptions set cancel_at_period_end = true, updated_at = $2 where id = $1 returning *',
          [row.id, now],
        );
        await emitSubscriptionEvent(t, 'subscription.updated', updated, now, { cancel_at_period_end: false });
        return updated;
      },
      { in: tx },
    );
  }

  /** active -> paused: periods keep passing (recorded as paused), nothing is invoiced. */
  async pause(tenant: Tenant, id: string, tx?: Tx): Promise<SubscriptionRow> {
    return this.db.transaction(
      async (t) => {
        const row = await this.lock(t, tenant, id);
        const now = await this.nowFor(t, row.test_clock);
        return this.engine.saveNextAction(t, await this.engine.transition(t, row, 'paused', now));
      },
      { in: tx },
    );
  }

  /** paused -> active: billing resumes at the next period start. */
  async resume(tenant: Tenant, id: string, tx?: Tx): Promise<SubscriptionRow> {
    return this.db.transaction(
      async (t) => {
        const row = await this.lock(t, tenant, id);
        if (row.status !== 'paused') {
          throw new ApiError(
            'invalid_state_transition',
            `Subscription '${id}' is ${row.status}, not paused.`,
          );
        }
        const now = await this.nowFor(t, row.test_clock);
        return this.engine.saveNextAction(t, await this.engine.transition(t, row, 'active', now));
      },
      { in: tx },
    );
  }

  /** Sum of the items per period (for tests and summaries). */
  static amountPerPeriod(row: SubscriptionRow): bigint {
    return itemsTotal(row.items);
  }
}
