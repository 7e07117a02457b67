// Payment links (docs/api.md §5): a reusable URL of the hosted checkout page. Every change
// emits its event through the outbox in the same transaction. The checkout itself is
// card-payments/pay-by-card.ts, with the link's form tokens in checkout-form-token.ts.

import { TOPICS } from '@paygrid/contracts';
import {
  ApiError,
  type Clock,
  type Database,
  emitRowEvent,
  findOwned,
  type ListQuery,
  lockOwned,
  newId,
  notFound,
  paginateOwned,
  type SqlPart,
  type Tx,
  type Tenant,
} from '@paygrid/platform';
import { ensureDefaultMerchant } from '../merchants/default-merchant';
import type { CreatePaymentLinkDto, UpdatePaymentLinkDto } from './payment-links.dto';
import { effectiveStatus, serializePaymentLink, type PaymentLinkRow, type PublicLink } from './payment-link';
import { completionLimit, lineItemsTotal } from './totals';

export class PaymentLinksService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    readonly publicBaseUrl: string,
  ) {}

  serialize(link: PaymentLinkRow) {
    return serializePaymentLink(link, this.publicBaseUrl, this.clock.now());
  }

  /**
   * `accountName` names the account's default merchant if this link creates it. `tx`: the
   * idempotent request's transaction (docs/adr/0015).
   */
  async create(
    tenant: Tenant,
    input: CreatePaymentLinkDto,
    accountName?: string,
    tx?: Tx,
  ): Promise<PaymentLinkRow> {
    const now = this.clock.now();
    const type = input.type ?? 'one_time';
    if (input.amount !== undefined && input.line_items !== undefined) {
      throw new ApiError('parameter_invalid', 'Give either amount or line_items, not both.', 'line_items');
    }
    let total: bigint;
    if (input.line_items !== undefined) {
      const sum = lineItemsTotal(input.line_items);
      if (sum === undefined) {
        throw new ApiError('parameter_invalid', 'The line items total more than 99999999999.', 'line_items');
      }
      total = sum;
    } else if (input.amount !== undefined) {
      total = BigInt(input.amount);
    } else {
      throw new ApiError('parameter_missing', 'amount or line_items is required.', 'amount');
    }
    if (type === 'recurring' && !input.recurring) {
      throw new ApiError('parameter_missing', 'A recurring link needs recurring.interval.', 'recurring');
    }
    if (type === 'one_time' && input.recurring) {
      throw new ApiError('parameter_invalid', 'recurring is only for links of type recurring.', 'recurring');
    }
    const expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at);
    if (expiresAt && expiresAt <= now) {
      throw new ApiError('parameter_invalid', 'expires_at must be in the future.', 'expires_at');
    }
    return this.db.transaction(
      async (tx) => {
        const merchant = await this.resolveMerchant(tx, tenant, input.merchant, accountName, now);
        const [row] = await tx.query<PaymentLinkRow>(
          `insert into payments.payment_links (id, account_id, livemode, merchant_id, type, amount, currency, line_items,
           amount_total, recurring, description, max_completions, expires_at, after_completion_redirect_url,
           client_reference_id, metadata, status, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6::bigint, $7, $8::jsonb, $9::bigint, $10::jsonb, $11, $12, $13, $14, $15, $16::jsonb,
           'active', $17, $17)
         returning *`,
          [
            newId('plink'),
            tenant.account,
            tenant.livemode,
            merchant,
            type,
            input.amount === undefined ? null : String(input.amount),
            input.currency,
            input.line_items
              ? JSON.stringify(
                  input.line_items.map((i) => ({
                    description: i.description,
                    quantity: i.quantity,
                    unit_amount: i.unit_amount,
                  })),
                )
              : null,
            total.toString(),
            input.recurring
              ? JSON.stringify({
                  interval: input.recurring.interval,
                  interval_count: input.recurring.interval_count ?? 1,
                })
              : null,
            input.description ?? null,
            input.max_completions ?? null,
            expiresAt,
            input.after_completion?.redirect_url ?? null,
            input.client_reference_id ?? null,
            JSON.stringify(input.metadata ?? {}),
            now,
          ],
        );
        await this.emit(tx, row, 'payment_link.created', now);
        return row;
      },
      { in: tx },
    );
  }

  async update(tenant: Tenant, id: string, input: UpdatePaymentLinkDto, tx?: Tx): Promise<PaymentLinkRow> {
    return this.db.transaction(
      async (tx) => {
        const current = await lockOwned<PaymentLinkRow>(
          tx,
          'payments.payment_links',
          tenant,
          id,
          'payment link',
        );
        const now = this.clock.now();
        const status = effectiveStatus(current, now);
        const sets: string[] = [];
        const params: unknown[] = [current.id];
        const previous: Record<string, unknown> = {};
        if (input.description !== undefined && input.description !== current.description) {
          params.push(input.description);
          sets.push(`description = $${params.length}`);
          previous.description = current.description;
        }
        if (input.metadata !== undefined) {
          params.push(JSON.stringify(input.metadata));
          sets.push(`metadata = metadata || $${params.length}::jsonb`);
          previous.metadata = current.metadata;
        }
        if (input.active !== undefined) {
          const wanted = input.active ? 'active' : 'inactive';
          if (status === 'completed' || status === 'expired') {
            throw new ApiError(
              'invalid_state_transition',
              `A payment link that is ${status} cannot become ${wanted}.`,
              'active',
            );
          }
          if (status !== wanted) {
            params.push(wanted);
            sets.push(`status = $${params.length}`);
            previous.status = status;
          }
        }
        if (!sets.length) return current;
        params.push(now);
        const [row] = await tx.query<PaymentLinkRow>(
          `update payments.payment_links set ${sets.join(', ')}, updated_at = $${params.length} where id = $1 returning *`,
          params,
        );
        await this.emit(tx, row, 'payment_link.updated', now, previous);
        return row;
      },
      { in: tx },
    );
  }

  async get(tenant: Tenant, id: string): Promise<PaymentLinkRow> {
    return findOwned<PaymentLinkRow>(this.db, 'payments.payment_links', tenant, id, 'payment link');
  }

  list(tenant: Tenant, query: ListQuery) {
    return paginateOwned<PaymentLinkRow>(this.db, tenant, {
      table: 'payments.payment_links',
      list: query,
      url: '/v1/payment-links',
    });
  }

  /** The link as the public checkout page sees it (no tenant: the id is the capability). */
  async findPublic(id: string): Promise<PublicLink | undefined> {
    if (!/^plink_[0-9A-Za-z]{8,64}$/.test(id)) return undefined;
    const [row] = await this.db.query<PublicLink>(
      `select l.*, m.business_name, m.is_default as merchant_is_default,
              case when p.account_id is null then null else json_build_object('name', p.name, 'logo_url', p.logo_url,
                'brand_color', p.brand_color, 'support_email', p.support_email, 'support_phone', p.support_phone,
                'receipts_payments', coalesce(p.receipts_payments, true)) end as seller
         from payments.payment_links l
         left join payments.merchants m on m.id = l.merchant_id
         left join payments.account_profiles p on p.account_id = l.account_id
        where l.id = $1`,
      [id],
    );
    return row;
  }

  /**
   * A payment's completion of its link, counted in the statement that records the payment
   * succeeded (IntentSaga: a write over `moved`, RecordEffects.withSuccess), at the payment's
   * time: the link's row as counted, for completeAtLimit. The saga answers it as JSON
   * (linkOfJson).
   */
  readonly completionWithPayment: SqlPart = {
    sql: `update payments.payment_links l set completions_count = l.completions_count + 1, updated_at = moved.updated_at
            from moved where l.id = moved.payment_link returning l.*`,
    params: [],
  };

  /** Counts a successful payment in its tx2; completes the link at its limit (payment_link.completed). */
  async recordCompletion(tx: Tx, linkId: string): Promise<PaymentLinkRow> {
    const [row] = await tx.query<PaymentLinkRow>(
      `update payments.payment_links set completions_count = completions_count + 1, updated_at = $2
        where id = $1 returning *`,
      [linkId, this.clock.now()],
    );
    return this.completeAtLimit(tx, row);
  }

  /**
   * A link whose completion was just counted (`counted`, its row locked by that update until
   * the commit): at its limit it becomes completed (payment_link.completed). Its status is
   * written with the commit (Tx.writeAtCommit): nothing in the transaction reads it, and the
   * row the event carries is the counted one with that status, as no one else can write it
   * meanwhile.
   */
  async completeAtLimit(tx: Tx, counted: PaymentLinkRow): Promise<PaymentLinkRow> {
    const limit = completionLimit(counted);
    if (limit === null || counted.completions_count < limit || counted.status === 'completed') return counted;
    const now = new Date(counted.updated_at);
    tx.writeAtCommit(
      `update payments.payment_links set status = 'completed', updated_at = $2 where id = $1`,
      [counted.id, now],
    );
    const completed: PaymentLinkRow = Object.assign({}, counted, {
      status: 'completed' as const,
      updated_at: now,
    });
    await this.emit(tx, completed, 'payment_link.completed', now, { status: counted.status });
    return completed;
  }

  /**
   * Expires the active links whose expires_at has passed (payment_link.expired). Claims with
   * SKIP LOCKED and a guarded update, so several instances running it expire each link once.
   */
  async expireDue(limit = 200): Promise<number> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<PaymentLinkRow>(
        `update payments.payment_links set status = 'expired', updated_at = $1
          where id in (select id from payments.payment_links
                        where status = 'active' and expires_at is not null and expires_at <= $1
                        order by expires_at limit $2 for update skip locked)
            and status = 'active'
          returning *`,
        [now, limit],
      );
      for (const row of rows) await this.emit(tx, row, 'payment_link.expired', now, { status: 'active' });
      return rows.length;
    });
  }

  /** Forgets checkout form submissions older than `olderThanMs` (their tokens expired long ago). */
  async pruneSubmissions(olderThanMs: number): Promise<void> {
    const cutoff = new Date(this.clock.now().getTime() - olderThanMs);
    await this.db.query('delete from payments.checkout_submissions where created_at < $1', [cutoff]);
    await this.db.query(
      'delete from payments.invoice_payment_submissions where created_at < $1 and not succeeded',
      [cutoff],
    );
  }

  private async emit(
    tx: Tx,
    row: PaymentLinkRow,
    type: 'payment_link.created' | 'payment_link.updated' | 'payment_link.completed' | 'payment_link.expired',
    now: Date,
    previous?: Record<string, unknown>,
  ): Promise<void> {
    await emitRowEvent(tx, TOPICS.paymentsEvents, row, {
      type,
      object: serializePaymentLink(row, this.publicBaseUrl, now),
      previous_attributes: previous,
      at: now,
    });
  }

  /** The merchant given, else the account's default merchant (created on first need). */
  private async resolveMerchant(
    tx: Tx,
    tenant: Tenant,
    merchant: string | undefined,
    accountName: string | undefined,
    now: Date,
  ): Promise<string | null> {
    if (!merchant) return (await ensureDefaultMerchant(tx, tenant, accountName, now)).id;
    const [row] = await tx.query<{ id: string }>(
      'select id from payments.merchants where account_id = $1 and livemode = $2 and id = $3',
      [tenant.account, tenant.livemode, merchant],
    );
    if (!row) throw notFound('merchant', merchant, 'merchant');
    return row.id;
  }
}
