// Changing a subscription (POST /v1/subscriptions/:id) and its preview: new items prorated
// over the current period (create_prorations, always_invoice, none), the settings, the
// subscription.updated event and the engine's step, in one transaction. The preview runs the
// same functions and writes nothing, so a change with its proration_date bills exactly that.

import type { SubscriptionPreview } from '@paygrid/contracts';
import { ApiError, type Database, iso, lockOwned, newId, type Tx, type Tenant } from '@paygrid/platform';
import type { InvoicesInternal } from '../invoices/invoices.internal';
import { periodContaining, periodStart } from './billing-cycle';
import type { SubscriptionEngine } from './subscription-engine';
import { emitSubscriptionEvent } from './subscription-events';
import { subscriptionInvoice } from './subscription-invoice';
import { normalizeItems } from './subscription-items';
import {
  composeInvoice,
  cycleOf,
  periodLines,
  prorationLines,
  type ProrationLine,
  type SubscriptionRow,
} from './subscription.model';
import type { UpdateSubscriptionDto } from './subscriptions.dto';

export class SubscriptionChanges {
  constructor(
    private readonly db: Database,
    private readonly engine: SubscriptionEngine,
    private readonly invoices: InvoicesInternal,
  ) {}

  private lock(tx: Tx, tenant: Tenant, id: string): Promise<SubscriptionRow> {
    return lockOwned<SubscriptionRow>(tx, 'invoicing.subscriptions', tenant, id, 'subscription');
  }

  private nowFor(tx: Tx, testClock: string | null): Promise<Date> {
    return this.engine.nowFor(tx, testClock);
  }

  /**
   * What a change bills, without writing anything: the proration lines, the invoice
   * `always_invoice` would create now, and the next renewal invoice. The same functions
   * compute the change itself, so with the returned proration_date the change bills exactly this.
   */
  async preview(
    tenant: Tenant,
    id: string,
    body: UpdateSubscriptionDto,
    tx?: Tx,
  ): Promise<SubscriptionPreview> {
    return this.db.transaction(
      async (t) => {
        const row = await this.lock(t, tenant, id);
        const now = await this.nowFor(t, row.test_clock);
        const plan = await this.plan(t, row, body, now);
        const pending = await this.pendingProrations(t, row.id);
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
      },
      { in: tx },
    );
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

  async update(tenant: Tenant, id: string, body: UpdateSubscriptionDto, tx?: Tx): Promise<SubscriptionRow> {
    return this.db.transaction(
      async (t) => {
        const row = await this.lock(t, tenant, id);
        if (row.status === 'canceled' || row.status === 'incomplete_expired') {
          throw new ApiError(
            'invalid_state_transition',
            `Subscription '${id}' is ${row.status} and cannot change.`,
          );
        }
        const now = await this.nowFor(t, row.test_clock);
        const plan = await this.plan(t, row, body, now);
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
        let [updated] = await t.query<SubscriptionRow>(
          `update invoicing.subscriptions set ${sets.join(', ')}, updated_at = $2 where id = $1 returning *`,
          params,
        );
        if (plan.prorations.length && behavior !== 'none') {
          for (const p of plan.prorations) {
            await t.query(
              `insert into invoicing.subscription_prorations (id, subscription_id, description, amount, period_start, period_end, created_at)
             values ($1, $2, $3, $4, $5, $6, $7)`,
              [newId('ii'), row.id, p.description, p.amount, p.period_start, p.period_end, now],
            );
          }
          if (behavior === 'always_invoice') updated = await this.invoiceProrationsNow(t, updated, now);
        }
        await emitSubscriptionEvent(t, 'subscription.updated', updated, now, previous);
        return this.engine.stepInTx(t, updated, now);
      },
      { in: tx },
    );
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
    const description = `Subscription ${row.id}: change of ${now.toISOString().slice(0, 10)}`;
    const { invoice } = await this.invoices.createAndCollectInTx(
      tx,
      tenant,
      subscriptionInvoice(row, composed, description, now),
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
}
