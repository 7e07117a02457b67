// Over 300 lines (380) on purpose for now: the row types and the serializers (serializeCustomer,
// serializeBillingHistoryItem, about 130 lines) stay beside the service until issue 14 item 4
// types them from the contract's schema; the service itself is about 220 lines.
// Customers of the invoicing grouping. Every change emits customer.created|updated|deleted
// through the outbox, in the same transaction as the change. DELETE archives (soft delete):
// the customer stays readable, is left out of lists by default and can no longer change.

import { TOPICS, type BillingHistoryItem, type Customer } from '@paygrid/contracts';
import {
  ApiError,
  type Clock,
  type Database,
  emitRowEvent,
  findOwned,
  isoOrNull,
  type ListQuery,
  lockOwned,
  minorToJson,
  newId,
  paginate,
  toMinor,
  type Tx,
  type Tenant,
  iso,
  listOf,
} from '@paygrid/platform';
import type { AddressDto, CustomerDetailsDto, ListCustomersQuery } from './customers.dto';

export interface Address {
  line1: string | null;
  line2: string | null;
  city: string | null;
  postal_code: string | null;
  state: string | null;
  country: string | null;
}

export interface CustomerRow {
  id: string;
  account_id: string;
  livemode: boolean;
  name: string | null;
  email: string | null;
  phone: string | null;
  address: Address | null;
  tax_id: string | null;
  currency: string | null;
  external_id: string | null;
  default_mandate: string | null;
  preferred_locales: string[];
  test_clock: string | null;
  metadata: Record<string, string>;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface BillingSummary {
  total_invoiced: number;
  total_paid: number;
  balance_due: number;
  currency: string | null;
  invoice_count: number;
}

export interface BillingHistoryRow {
  id: string;
  kind: 'payment' | 'refund' | 'invoice';
  status: string;
  amount: string | number | null;
  currency: string | null;
  occurred_at: Date;
  updated_at: Date;
}

function fullAddress(address: AddressDto | Address): Address {
  return {
    line1: address.line1 ?? null,
    line2: address.line2 ?? null,
    city: address.city ?? null,
    postal_code: address.postal_code ?? null,
    state: address.state ?? null,
    country: address.country ?? null,
  };
}

export function serializeCustomer(c: CustomerRow, summary?: BillingSummary): Customer {
  return {
    id: c.id,
    object: 'customer' as const,
    livemode: c.livemode,
    name: c.name,
    email: c.email,
    phone: c.phone,
    address: c.address ? fullAddress(c.address) : null,
    tax_id: c.tax_id,
    currency: c.currency,
    external_id: c.external_id,
    default_mandate: c.default_mandate,
    preferred_locales: c.preferred_locales ?? [],
    test_clock: c.test_clock,
    metadata: c.metadata,
    deleted: c.deleted_at !== null,
    deleted_at: isoOrNull(c.deleted_at),
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
    ...(summary ? { billing_summary: summary } : {}),
  };
}

export function serializeBillingHistoryItem(row: BillingHistoryRow): BillingHistoryItem {
  return {
    object: 'billing_history_item' as const,
    type: row.kind,
    id: row.id,
    status: row.status,
    amount: row.amount === null ? null : Number(row.amount),
    currency: row.currency,
    occurred_at: iso(row.occurred_at),
    updated_at: iso(row.updated_at),
  };
}

const PLAIN_FIELDS = ['name', 'email', 'phone', 'tax_id', 'currency', 'external_id'] as const;

const externalIdTaken = (externalId: string) =>
  new ApiError(
    'resource_conflict',
    `A customer with external_id '${externalId}' already exists.`,
    'external_id',
  );

/**
 * The customer's payments (facts naming it) and the refunds of those payments, one row per
 * payment or refund: its latest status, first and latest event times; and its invoices
 * (finalized ones: a draft is not billed yet), dated by finalization. `$1` account, `$2`
 * mode, `$3` customer.
 */
const HISTORY = `
  select id, kind, status, amount, currency, occurred_at, updated_at from (
  with facts as (
    select f.* from invoicing.payment_facts f
     where f.account_id = $1 and f.livemode = $2
       and (f.customer_id = $3
            or f.payment_id in (select p.object_id from invoicing.payment_facts p
                                 where p.account_id = $1 and p.livemode = $2 and p.customer_id = $3))
  )
  select distinct on (object_id)
         object_id as id,
         split_part(type, '.', 1) as kind,
         split_part(type, '.', 2) as status,
         amount,
         currency,
         min(occurred_at) over (partition by object_id) as occurred_at,
         occurred_at as updated_at
    from facts
   order by object_id, occurred_at desc, recorded_at desc) payments
  union all
  select id, 'invoice', status, total, currency, finalized_at, updated_at
    from invoicing.invoices
   where account_id = $1 and livemode = $2 and customer_id = $3 and status <> 'draft'`;

export class CustomersService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** `tx` (create, update, get): the idempotent request's transaction (docs/adr/0015). */
  async create(
    tenant: Tenant,
    details: CustomerDetailsDto & { test_clock?: string },
    tx?: Tx,
  ): Promise<CustomerRow> {
    return this.db.transaction(
      async (t) => {
        const now = this.clock.now();
        // A test clock of this account and mode (so never with a live key), not deleted.
        if (details.test_clock !== undefined) {
          const clock = await findOwned<{ deleted_at: Date | null }>(
            t,
            'invoicing.test_clocks',
            tenant,
            details.test_clock,
            'test clock',
            'test_clock',
          );
          if (clock.deleted_at)
            throw new ApiError('parameter_invalid', 'The test clock is deleted.', 'test_clock');
        }
        // `on conflict do nothing` rather than a unique violation: the request's transaction
        // stays usable for the idempotency record of the 409.
        const [row] = await t.query<CustomerRow>(
          `insert into invoicing.customers (id, account_id, livemode, ${PLAIN_FIELDS.join(', ')}, address, metadata, created_at, updated_at, test_clock, preferred_locales)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12, $12, $13, $14::jsonb)
         on conflict (account_id, livemode, external_id) where external_id is not null and deleted_at is null
         do nothing returning *`,
          [
            newId('cus'),
            tenant.account,
            tenant.livemode,
            ...PLAIN_FIELDS.map((f) => details[f] ?? null),
            details.address ? JSON.stringify(fullAddress(details.address)) : null,
            JSON.stringify(details.metadata ?? {}),
            now,
            details.test_clock ?? null,
            JSON.stringify(details.preferred_locales ?? []),
          ],
        );
        if (!row) throw externalIdTaken(details.external_id ?? '');
        await this.emit(t, 'customer.created', row, now);
        return row;
      },
      { in: tx },
    );
  }

  async update(tenant: Tenant, id: string, details: CustomerDetailsDto, tx?: Tx): Promise<CustomerRow> {
    return this.db.transaction(
      async (t) => {
        const current = await this.lock(t, tenant, id);
        if (current.deleted_at) {
          throw new ApiError(
            'invalid_state_transition',
            `Customer '${id}' is archived and cannot be updated.`,
          );
        }
        const now = this.clock.now();
        const sets: string[] = [];
        const params: unknown[] = [current.id];
        const previous: Record<string, unknown> = {};
        for (const field of PLAIN_FIELDS) {
          const value = details[field];
          if (value !== undefined && value !== current[field]) {
            params.push(value);
            sets.push(`${field} = $${params.length}`);
            previous[field] = current[field];
          }
        }
        if (details.address !== undefined) {
          const address = fullAddress(details.address);
          if (
            JSON.stringify(address) !== JSON.stringify(current.address ? fullAddress(current.address) : null)
          ) {
            params.push(JSON.stringify(address));
            sets.push(`address = $${params.length}::jsonb`);
            previous.address = current.address ? fullAddress(current.address) : null;
          }
        }
        if (
          details.preferred_locales !== undefined &&
          JSON.stringify(details.preferred_locales) !== JSON.stringify(current.preferred_locales)
        ) {
          params.push(JSON.stringify(details.preferred_locales));
          sets.push(`preferred_locales = $${params.length}::jsonb`);
          previous.preferred_locales = current.preferred_locales;
        }
        if (details.metadata !== undefined) {
          const changed = Object.keys(details.metadata).filter(
            (key) => current.metadata[key] !== details.metadata?.[key],
          );
          if (changed.length) {
            params.push(JSON.stringify(details.metadata));
            sets.push(`metadata = metadata || $${params.length}::jsonb`);
            previous.metadata = Object.fromEntries(
              changed.map((key) => [key, current.metadata[key] ?? null]),
            );
          }
        }
        if (!sets.length) return current;
        if (previous.external_id !== undefined && details.external_id) {
          const [taken] = await t.query<{ id: string }>(
            `select id from invoicing.customers where account_id = $1 and livemode = $2 and external_id = $3
             and deleted_at is null and id <> $4`,
            [tenant.account, tenant.livemode, details.external_id, current.id],
          );
          if (taken) throw externalIdTaken(details.external_id);
        }
        params.push(now);
        const [row] = await t.query<CustomerRow>(
          `update invoicing.customers set ${sets.join(', ')}, updated_at = $${params.length} where id = $1 returning *`,
          params,
        );
        await this.emit(t, 'customer.updated', row, now, previous);
        return row;
      },
      { in: tx },
    );
  }

  /** Archives the customer; archiving an archived customer changes nothing. */
  async archive(tenant: Tenant, id: string): Promise<CustomerRow> {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, tenant, id);
      if (current.deleted_at) return current;
      const now = this.clock.now();
      const [row] = await tx.query<CustomerRow>(
        'update invoicing.customers set deleted_at = $2, updated_at = $2 where id = $1 returning *',
        [current.id, now],
      );
      await this.emit(tx, 'customer.deleted', row, now);
      return row;
    });
  }

  async get(tenant: Tenant, id: string, tx?: Tx): Promise<CustomerRow> {
    return findOwned<CustomerRow>(tx ?? this.db, 'invoicing.customers', tenant, id, 'customer');
  }

  /**
   * From the customer's invoices in its currency (finalized and not void: open, paid,
   * uncollectible) and its succeeded payments in that currency, as learned from the payments
   * feed. Sums are bigint in SQL and exact as JSON numbers (each <= 99,999,999,999 x rows).
   */
  async billingSummary(customer: CustomerRow): Promise<BillingSummary> {
    if (!customer.currency) {
      return { total_invoiced: 0, total_paid: 0, balance_due: 0, currency: null, invoice_count: 0 };
    }
    const params = [customer.account_id, customer.livemode, customer.id, customer.currency];
    const [payments] = await this.db.query<{ total: string | null }>(
      `select sum(amount) as total from invoicing.payment_facts
        where account_id = $1 and livemode = $2 and customer_id = $3 and currency = $4
          and type = 'payment.succeeded'`,
      params,
    );
    const [invoices] = await this.db.query<{ invoiced: string | null; due: string | null; count: string }>(
      `select sum(total) as invoiced, sum(amount_due) filter (where status = 'open') as due, count(*) as count
         from invoicing.invoices
        where account_id = $1 and livemode = $2 and customer_id = $3 and currency = $4
          and status in ('open', 'paid', 'uncollectible')`,
      params,
    );
    return {
      total_invoiced: minorToJson(toMinor(invoices?.invoiced ?? '0')),
      total_paid: minorToJson(toMinor(payments?.total ?? '0')),
      balance_due: minorToJson(toMinor(invoices?.due ?? '0')),
      currency: customer.currency,
      invoice_count: Number(invoices?.count ?? 0),
    };
  }

  list(tenant: Tenant, query: ListCustomersQuery) {
    const where = ['account_id = $1', 'livemode = $2'];
    const params: unknown[] = [tenant.account, tenant.livemode];
    if (query.include_archived !== 'true') where.push('deleted_at is null');
    if (query.email !== undefined) {
      params.push(query.email);
      where.push(`lower(email) = lower($${params.length})`);
    }
    if (query.external_id !== undefined) {
      params.push(query.external_id);
      where.push(`external_id = $${params.length}`);
    }
    return paginate<CustomerRow>(this.db, {
      table: 'invoicing.customers',
      where,
      params,
      list: query,
      url: '/v1/customers',
    });
  }

  /** Payments and refunds of the customer, newest first by (occurred_at, id), keyset-paginated. */
  async billingHistory(tenant: Tenant, id: string, list: ListQuery) {
    const customer = await this.get(tenant, id);
    // HISTORY scopes itself to the account, mode ($1, $2) and customer ($3).
    const page = await paginate<BillingHistoryRow>(this.db, {
      table: `(${HISTORY}) h`,
      where: [],
      params: [tenant.account, tenant.livemode, customer.id],
      sortColumn: 'occurred_at',
      list,
      url: `/v1/customers/${customer.id}/billing-history`,
    });
    return listOf(page, serializeBillingHistoryItem);
  }

  private async lock(tx: Tx, tenant: Tenant, id: string): Promise<CustomerRow> {
    return lockOwned<CustomerRow>(tx, 'invoicing.customers', tenant, id, 'customer');
  }

  private async emit(
    tx: Tx,
    type: 'customer.created' | 'customer.updated' | 'customer.deleted',
    row: CustomerRow,
    now: Date,
    previous?: Record<string, unknown>,
  ): Promise<void> {
    await emitRowEvent(tx, TOPICS.invoicingEvents, row, {
      type,
      object: serializeCustomer(row),
      previous_attributes: previous,
      at: now,
    });
  }
}
