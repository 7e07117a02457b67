// The invoices table as the invoice use cases (create-invoice.ts, finalize-invoice.ts,
// collect-invoice.ts, pay-invoice.ts, settle-invoice.ts) read and write it: every statement
// runs in the transaction it is given, and every state change goes through `move`, so the
// status, its status_transitions time and its event are written in one place.

import { type InvoicingEventType, TOPICS } from '@paygrid/contracts';
import {
  type Clock,
  type Database,
  emitRowEvent,
  findOwned,
  lockOwned,
  toMinor,
  type Tx,
  updateColumns,
  type Tenant,
} from '@paygrid/platform';
import type { CustomerRow } from '../customers/customers.service';
import { ENTERED_AT, transition, type InvoiceAction } from './invoice-state';
import { type InvoiceRow, serializeInvoice } from './invoice.serializer';
import type { InvoiceStatus } from './invoices.internal';

export interface InvoiceSettings {
  /** Where customers reach the gateway (hosted pages are `${publicBaseUrl}/i/...`). */
  publicBaseUrl: string;
  /** Invoice numbers are `${numberPrefix}-0001`, `-0002`, ... per account and mode. */
  numberPrefix: string;
}

/** The event of entering each status (an action that keeps the status emits none here). */
const EVENT_ON_ENTERING: Partial<Record<InvoiceStatus, InvoicingEventType>> = {
  open: 'invoice.finalized',
  paid: 'invoice.paid',
  void: 'invoice.voided',
  uncollectible: 'invoice.marked_uncollectible',
};

export class InvoiceStore {
  constructor(
    private readonly clock: Clock,
    readonly settings: InvoiceSettings,
  ) {}

  serialize(row: InvoiceRow) {
    return serializeInvoice(row, this.settings.publicBaseUrl);
  }

  lock(tx: Tx, tenant: Tenant, id: string): Promise<InvoiceRow> {
    return lockOwned<InvoiceRow>(tx, 'invoicing.invoices', tenant, id, 'invoice');
  }

  find(db: Database | Tx, tenant: Tenant, id: string): Promise<InvoiceRow> {
    return findOwned<InvoiceRow>(db, 'invoicing.invoices', tenant, id, 'invoice');
  }

  customer(tx: Tx, tenant: Tenant, id: string, param = 'id'): Promise<CustomerRow> {
    return findOwned<CustomerRow>(tx, 'invoicing.customers', tenant, id, 'customer', param);
  }

  /** The seller as the account is named now (finalization snapshots it). */
  async nameSeller(tx: Tx, id: string, sellerName: string): Promise<InvoiceRow> {
    const [row] = await tx.query<InvoiceRow>(
      'update invoicing.invoices set seller_name = $2 where id = $1 returning *',
      [id, sellerName],
    );
    return row;
  }

  /**
   * Finalizes `current` (draft → open, invoice.finalized) with the tenant's next gapless
   * number, taken in the same statement: the counter row is locked until this transaction
   * ends, so concurrent finalizations of one account and mode queue here, and a rollback
   * returns the number. No gap, no duplicate. The number reads `<prefix>-0042`: at least
   * four digits, more as the counter grows (lpad to the longer of 4 and its length).
   */
  async finalizeNumbered(
    tx: Tx,
    tenant: Tenant,
    current: InvoiceRow,
    now: Date,
    changes: Record<string, unknown>,
  ): Promise<InvoiceRow> {
    const { status, all } = this.moved(current, 'finalize', now, changes);
    const names = Object.keys(all);
    const sets = names.map((name, i) => `${name} = $${i + 5}`);
    const [row] = await tx.query<InvoiceRow>(
      `with counter as (
         insert into invoicing.invoice_number_counters (account_id, livemode, last_number) values ($2, $3, 1)
         on conflict (account_id, livemode) do update set last_number = invoice_number_counters.last_number + 1
         returning last_number::text as n)
       update invoicing.invoices
          set number = $4::text || '-' || lpad(counter.n, greatest(4, length(counter.n)), '0'),
              ${[...sets, `updated_at = $${names.length + 5}`].join(', ')}
         from counter
        where invoices.id = $1
       returning invoices.*`,
      [
        current.id,
        tenant.account,
        tenant.livemode,
        this.settings.numberPrefix,
        ...names.map((n) => all[n]),
        now,
      ],
    );
    await this.emitEntering(tx, current, status, row, now);
    return row;
  }

  /** Applies a state-machine action: new status, its status_transitions time, its event. */
  async move(
    tx: Tx,
    current: InvoiceRow,
    action: InvoiceAction,
    now: Date,
    changes: Record<string, unknown>,
  ): Promise<InvoiceRow> {
    const { status, all } = this.moved(current, action, now, changes);
    const row = await this.patch(tx, current, all, now);
    await this.emitEntering(tx, current, status, row, now);
    return row;
  }

  /** The columns an action writes: `changes`, the new status, its time, a payment's amounts. */
  private moved(current: InvoiceRow, action: InvoiceAction, now: Date, changes: Record<string, unknown>) {
    const status = transition(current.id, current.status, action);
    const enteredAt = ENTERED_AT[status];
    const all: Record<string, unknown> = Object.assign({}, changes, { status });
    if (enteredAt && status !== current.status) all[enteredAt] = now;
    if (status === 'paid' && changes.amount_due === undefined) {
      all.amount_paid = (toMinor(current.amount_paid) + toMinor(current.amount_due)).toString();
      all.amount_due = '0';
    }
    return { status, all };
  }

  /** The event of entering `status` (none when the action kept the status). */
  private async emitEntering(tx: Tx, current: InvoiceRow, status: InvoiceStatus, row: InvoiceRow, now: Date) {
    const type = status !== current.status ? EVENT_ON_ENTERING[status] : undefined;
    if (type) await this.emit(tx, type, row, now);
  }

  /** Updates columns of one invoice (names are the use cases' constants, never input). */
  patch(tx: Tx, current: InvoiceRow, changes: Record<string, unknown>, now: Date): Promise<InvoiceRow> {
    return updateColumns<InvoiceRow>(tx, 'invoicing.invoices', current.id, changes, now);
  }

  /**
   * The time of an API action: the test clock's frozen time for invoices of a customer on a
   * test clock (so due dates and overdue follow the clock), else the service clock.
   */
  async nowFor(tx: Tx, testClock: string | null): Promise<Date> {
    if (!testClock) return this.clock.now();
    const [clock] = await tx.query<{ frozen_time: Date }>(
      'select frozen_time from invoicing.test_clocks where id = $1',
      [testClock],
    );
    return clock ? new Date(clock.frozen_time) : this.clock.now();
  }

  async emit(tx: Tx, type: InvoicingEventType, row: InvoiceRow, at: Date): Promise<void> {
    await emitRowEvent(tx, TOPICS.invoicingEvents, row, {
      type,
      object: this.serialize(row),
      at,
    });
  }
}
