// Over 400 lines (795): one use case per file for invoicing (create, finalize, send, pay, void,
// settle) is issue 14 item 3, not done yet; the seller snapshot (issue 17) added to it.
// Invoices: drafts, the gapless number, the state machine's actions, collection (a charge
// command to the payments service or an e-mail) and settlement from payments.events.v1.
// Every change and its events (and commands, and mails) commit in one transaction; the
// network is never called inside it (mails are queued, commands go through the outbox).

import { randomBytes } from 'node:crypto';
import { lastValueFrom } from 'rxjs';
import {
  type ChargeMandateCommand,
  type CommandEnvelope,
  type EventEnvelope,
  type InvoicingEventType,
  TOPICS,
} from '@paygrid/contracts';
import {
  ApiError,
  type Clock,
  type Database,
  emitRowEvent,
  findOwned,
  lockOwned,
  minorToJson,
  newId,
  newSortableId,
  OutboxClient,
  paginate,
  rangeClauses,
  toMinor,
  type Tx,
  updateColumns,
  type Tenant,
} from '@paygrid/platform';
import { profileOf, sellerSnapshot } from '../account/account-profile';
import { profileInTx } from '../account/account.service';
import { invoiceToUbl, missingForEInvoice } from '../documents/ubl';
import type { CustomerRow } from '../customers/customers.service';
import { checkDiscount, customerSnapshot, pricedLines } from '../documents/document-parts';
import type { InvoiceDocuments } from './invoice-mailer';
import { ENTERED_AT, transition, type InvoiceAction } from './invoice-state';
import { type InvoiceRow, type LastPayment, serializeInvoice, toInvoice } from './invoice.serializer';
import type { InvoiceDraftFieldsDto, ListInvoicesQuery, PayInvoiceDto } from './invoices.dto';
import type {
  CreateInvoiceInput,
  Invoice,
  InvoicesInternal,
  InvoiceStatus,
  PaymentOutcomeListener,
} from './invoices.internal';
import type { DiscountInput, LineInput } from './totals';

export interface InvoiceSettings {
  /** Where customers reach the gateway (hosted pages are `${publicBaseUrl}/i/...`). */
  publicBaseUrl: string;
  /** Invoice numbers are `${numberPrefix}-0001`, `-0002`, ... per account and mode. */
  numberPrefix: string;
}

const DAY_MS = 86_400_000;
const DEFAULT_DAYS_UNTIL_DUE = 30;

/** A payment or refund object of payments.events.v1, as far as invoices read it. */
export interface PaymentEventObject {
  id?: string;
  invoice?: string | null;
  customer?: string | null;
  reference?: string | null;
  amount?: number;
  currency?: string;
  failure_code?: string | null;
  failure_message?: string | null;
}

const invalid = (message: string, param: string) => new ApiError('parameter_invalid', message, param);

/** The draft's fields after validation: what createInTx and update store. */
interface DraftFields {
  currency: string;
  lines: LineInput[];
  discount: DiscountInput | null;
  collection_method: 'send_invoice' | 'charge_automatically';
  days_until_due: number | null;
  due_date: Date | null;
}

function checkDraft(fields: DraftFields, now: Date) {
  checkDiscount(fields.discount);
  if (fields.days_until_due !== null && fields.due_date !== null) {
    throw invalid('Pass days_until_due or due_date, not both.', 'due_date');
  }
  if (
    fields.collection_method === 'charge_automatically' &&
    (fields.days_until_due !== null || fields.due_date)
  ) {
    throw invalid(
      'charge_automatically invoices are charged at once and take no due date.',
      'collection_method',
    );
  }
  if (fields.due_date && fields.due_date.getTime() <= now.getTime()) {
    throw invalid('due_date must be in the future.', 'due_date');
  }
  return pricedLines(fields.lines, fields.discount, 'invoice');
}

/** How often open invoices are checked for being overdue (invoice.overdue). */
/** How often the app runs the overdue sweep (invoicing.ts; every instance, claims do not overlap). */
export const OVERDUE_SWEEP_MS = 60_000;

/** The event of entering each status (an action that keeps the status emits none here). */
const EVENT_ON_ENTERING: Partial<Record<InvoiceStatus, InvoicingEventType>> = {
  open: 'invoice.finalized',
  paid: 'invoice.paid',
  void: 'invoice.voided',
  uncollectible: 'invoice.marked_uncollectible',
};

export class InvoicesService implements InvoicesInternal {
  private readonly listeners: PaymentOutcomeListener[] = [];

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly settings: InvoiceSettings,
    private readonly documents: InvoiceDocuments,
  ) {}

  serialize(row: InvoiceRow) {
    return serializeInvoice(row, this.settings.publicBaseUrl);
  }

  // ---- HTTP-facing operations (each its own transaction, or the request's) ----

  /** POST /v1/invoices: a draft, then (unless `send: false`) finalized and collected. */
  async create(
    tenant: Tenant,
    sellerName: string,
    body: InvoiceDraftFieldsDto & { customer: string; send?: boolean },
  ) {
    return this.db.transaction(async (tx) => {
      const [customer] = await tx.query<{ test_clock: string | null }>(
        'select test_clock from invoicing.customers where id = $1 and account_id = $2 and livemode = $3',
        [body.customer, tenant.account, tenant.livemode],
      );
      const now = await this.nowFor(tx, customer?.test_clock ?? null);
      const input: CreateInvoiceInput = {
        customer: body.customer,
        lines: body.lines ?? [],
        now,
        seller_name: sellerName,
        ...(body.currency ? { currency: body.currency } : {}),
        ...(body.discount ? { discount: body.discount as DiscountInput } : {}),
        ...(body.collection_method ? { collection_method: body.collection_method } : {}),
        ...(body.days_until_due !== undefined ? { days_until_due: body.days_until_due } : {}),
        ...(body.due_date ? { due_date: new Date(body.due_date) } : {}),
        ...(body.description ? { description: body.description } : {}),
        ...(body.metadata ? { metadata: body.metadata } : {}),
      };
      // The rows just written are returned by the statements that wrote them (this
      // transaction holds their locks), so nothing is read back.
      const draft = await this.insertDraft(tx, tenant, input);
      if (body.send === false) return draft.row;
      const open = await this.finalizeLocked(tx, tenant, draft.row, draft.customer, now);
      return (await this.collectLocked(tx, open, draft.customer, 1, now)).row;
    });
  }

  async update(tenant: Tenant, id: string, body: InvoiceDraftFieldsDto) {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, tenant, id);
      transition(id, current.status, 'edit');
      const now = await this.nowFor(tx, current.test_clock);
      const fields: DraftFields = {
        currency: body.currency ?? current.currency,
        lines: body.lines ?? current.lines,
        discount: body.discount === undefined ? current.discount : (body.discount as DiscountInput | null),
        collection_method: body.collection_method ?? current.collection_method,
        days_until_due: body.days_until_due ?? (body.due_date !== undefined ? null : current.days_until_due),
        due_date: body.due_date
          ? new Date(body.due_date)
          : body.days_until_due !== undefined
            ? null
            : current.due_date,
      };
      if (
        body.collection_method === 'charge_automatically' &&
        body.days_until_due === undefined &&
        !body.due_date
      ) {
        fields.days_until_due = null;
        fields.due_date = null;
      }
      const customer = await this.customer(tx, tenant, current.customer_id);
      if (customer.currency && fields.currency !== customer.currency) {
        throw invalid(`The customer is billed in ${customer.currency}.`, 'currency');
      }
      const { totals, lines } = checkDraft(fields, now);
      const [row] = await tx.query<InvoiceRow>(
        `update invoicing.invoices set currency = $2, lines = $3::jsonb, discount = $4::jsonb,
           collection_method = $5, days_until_due = $6, due_date = $7, subtotal = $8, discount_total = $9,
           tax_total = $10, total = $11, amount_due = $11, description = coalesce($12, description),
           metadata = metadata || $13::jsonb, updated_at = $14
         where id = $1 returning *`,
        [
          id,
          fields.currency,
          JSON.stringify(lines),
          fields.discount ? JSON.stringify(fields.discount) : null,
          fields.collection_method,
          fields.days_until_due,
          fields.due_date,
          totals.subtotal.toString(),
          totals.discount_total.toString(),
          totals.tax_total.toString(),
          totals.total.toString(),
          body.description ?? null,
          JSON.stringify(body.metadata ?? {}),
          now,
        ],
      );
      return row;
    });
  }

  async remove(tenant: Tenant, id: string) {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, tenant, id);
      transition(id, current.status, 'delete');
      await tx.query('delete from invoicing.invoices where id = $1', [id]);
      return { id, object: 'invoice' as const, deleted: true as const };
    });
  }

  async finalize(tenant: Tenant, id: string, sellerName: string) {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, tenant, id);
      // The seller as the account is named now (finalizeInTx snapshots it).
      if (current.status === 'draft') {
        await tx.query('update invoicing.invoices set seller_name = $2 where id = $1', [id, sellerName]);
      }
      await this.finalizeInTx(tx, tenant, id, await this.nowFor(tx, current.test_clock));
      return this.row(tx, tenant, id);
    });
  }

  /** POST /:id/send: e-mails the invoice (a draft is finalized first). */
  async send(tenant: Tenant, id: string, sellerName: string) {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, tenant, id);
      const now = await this.nowFor(tx, current.test_clock);
      if (current.status === 'draft') {
        await tx.query('update invoicing.invoices set seller_name = $2 where id = $1', [id, sellerName]);
        await this.finalizeInTx(tx, tenant, id, now);
      }
      await this.sendInTx(tx, await this.lock(tx, tenant, id), now);
      return this.row(tx, tenant, id);
    });
  }

  /** POST /:id/pay: charge the customer's default mandate, or record a payment made elsewhere. */
  async pay(tenant: Tenant, id: string, body: PayInvoiceDto) {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, tenant, id);
      const now = await this.nowFor(tx, current.test_clock);
      if (body.paid_out_of_band) {
        transition(id, current.status, 'pay');
        await this.move(tx, current, 'pay', now, {
          amount_paid: (toMinor(current.amount_paid) + toMinor(current.amount_due)).toString(),
          amount_due: '0',
          paid_out_of_band: true,
        });
        return this.row(tx, tenant, id);
      }
      transition(id, current.status, 'charge');
      if (current.last_payment?.status === 'pending') {
        throw new ApiError(
          'invalid_state_transition',
          `A payment of invoice '${id}' is in progress; wait for its outcome (invoice.paid or invoice.payment_failed).`,
        );
      }
      const customer = await this.customer(tx, tenant, current.customer_id);
      if (!customer.default_mandate) {
        throw invalid(
          `Customer '${customer.id}' has no default_mandate to charge; the customer can pay on the hosted page, or pass paid_out_of_band: true.`,
          'customer',
        );
      }
      await this.chargeInTx(tx, current, customer.default_mandate, current.attempt_count + 1, now);
      return this.row(tx, tenant, id);
    });
  }

  async void(tenant: Tenant, id: string) {
    return this.simpleMove(tenant, id, 'void');
  }

  async markUncollectible(tenant: Tenant, id: string) {
    return this.simpleMove(tenant, id, 'mark_uncollectible');
  }

  async get(tenant: Tenant, id: string): Promise<InvoiceRow> {
    return findOwned<InvoiceRow>(this.db, 'invoicing.invoices', tenant, id, 'invoice');
  }

  /** The finalized invoice behind a hosted-page token (drafts have no page). */
  async findByPageToken(token: string): Promise<InvoiceRow | undefined> {
    return (await this.findForPage(token))?.row;
  }

  /**
   * The invoice of a page token and whether the payment `transaction` (a card-form return)
   * has been credited to it, read in one statement: one snapshot, in which the credit and
   * the invoice's new amounts and status (committed together) are both seen or both not.
   */
  async findForPage(
    token: string,
    transaction?: string,
  ): Promise<{ row: InvoiceRow; credited: boolean } | undefined> {
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return undefined;
    const [found] = await this.db.query<InvoiceRow & { payment_credited: boolean }>(
      `select i.*, exists (select 1 from invoicing.invoice_payments p
                            where p.invoice_id = i.id and p.transaction_id = $2) as payment_credited
         from invoicing.invoices i where i.page_token = $1 and i.status <> 'draft'`,
      [token, transaction ?? null],
    );
    if (!found) return undefined;
    const { payment_credited: credited, ...row } = found;
    return { row, credited };
  }

  async pdf(row: InvoiceRow): Promise<Buffer> {
    return this.documents.renderInvoicePdf(this.serialize(row), row.account_id);
  }

  /** The invoice as a Factur-X PDF/A-3 (EN 16931), or 409 invoice_incomplete naming what it lacks. */
  async facturX(row: InvoiceRow): Promise<Buffer> {
    return this.documents.renderFacturX(this.eInvoiceReady(row), row.account_id);
  }

  /** The invoice as UBL (EN 16931), or 409 invoice_incomplete naming what it lacks. */
  ubl(row: InvoiceRow): string {
    return invoiceToUbl(this.eInvoiceReady(row));
  }

  private eInvoiceReady(row: InvoiceRow) {
    const invoice = this.serialize(row);
    const missing = missingForEInvoice(invoice);
    if (missing.length) {
      throw new ApiError('invoice_incomplete', `An e-invoice needs ${missing.join(', ')}.`);
    }
    return invoice;
  }

  list(tenant: Tenant, query: ListInvoicesQuery) {
    const where = ['account_id = $1', 'livemode = $2'];
    const params: unknown[] = [tenant.account, tenant.livemode];
    const equal: [string, string | undefined][] = [
      ['status', query.status],
      ['customer_id', query.customer],
      ['subscription_id', query.subscription],
    ];
    for (const [column, value] of equal) {
      if (value === undefined) continue;
      params.push(value);
      where.push(`${column} = $${params.length}`);
    }
    where.push(...rangeClauses('due_date', query.due_date, params));
    return paginate<InvoiceRow>(this.db, {
      table: 'invoicing.invoices',
      where,
      params,
      list: query,
      url: '/v1/invoices',
    });
  }

  // ---- InvoicesInternal: inside the caller's transaction ----

  async createInTx(tx: Tx, tenant: Tenant, input: CreateInvoiceInput): Promise<Invoice> {
    return toInvoice((await this.insertDraft(tx, tenant, input)).row);
  }

  async createAndCollectInTx(tx: Tx, tenant: Tenant, input: CreateInvoiceInput, attempt: number) {
    const draft = await this.insertDraft(tx, tenant, input);
    const open = await this.finalizeLocked(tx, tenant, draft.row, draft.customer, input.now);
    const collected = await this.collectLocked(tx, open, draft.customer, attempt, input.now);
    return { invoice: toInvoice(collected.row), action: collected.action };
  }

  /** The draft row (emits invoice.created) and the customer it was checked against. */
  private async insertDraft(
    tx: Tx,
    tenant: Tenant,
    input: CreateInvoiceInput,
  ): Promise<{ row: InvoiceRow; customer: CustomerRow }> {
    const customer = await this.customer(tx, tenant, input.customer, 'customer');
    if (customer.deleted_at) throw invalid(`Customer '${customer.id}' is archived.`, 'customer');
    const currency = input.currency ?? customer.currency;
    if (!currency) {
      throw new ApiError('parameter_missing', 'currency is required when the customer has none.', 'currency');
    }
    if (customer.currency && currency !== customer.currency) {
      throw invalid(`The customer is billed in ${customer.currency}.`, 'currency');
    }
    const fields: DraftFields = {
      currency,
      lines: input.lines,
      discount: input.discount ?? null,
      collection_method: input.collection_method ?? 'send_invoice',
      days_until_due: input.days_until_due ?? null,
      due_date: input.due_date ?? null,
    };
    const { totals, lines } = checkDraft(fields, input.now);
    const [row] = await tx.query<InvoiceRow>(
      `insert into invoicing.invoices (id, account_id, livemode, customer_id, status, currency, collection_method,
         days_until_due, due_date, description, lines, discount, subtotal, discount_total, tax_total, total,
         amount_due, subscription_id, period_start, period_end, estimate_id, test_clock, seller_name, page_token,
         metadata, created_at, updated_at)
       values ($1, $2, $3, $4, 'draft', $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12, $13, $14, $15, $15, $16,
         $17, $18, $19, $20, $21, $22, $23::jsonb, $24, $24)
       returning *`,
      [
        newId('inv'),
        tenant.account,
        tenant.livemode,
        customer.id,
        currency,
        fields.collection_method,
        fields.days_until_due,
        fields.due_date,
        input.description ?? null,
        JSON.stringify(lines),
        fields.discount ? JSON.stringify(fields.discount) : null,
        totals.subtotal.toString(),
        totals.discount_total.toString(),
        totals.tax_total.toString(),
        totals.total.toString(),
        input.subscription ?? null,
        input.period_start ?? null,
        input.period_end ?? null,
        input.estimate ?? null,
        customer.test_clock,
        input.seller_name ?? null,
        // 32 random bytes: the hosted page's unguessable address.
        randomBytes(32).toString('base64url'),
        JSON.stringify(input.metadata ?? {}),
        input.now,
      ],
    );
    await this.emit(tx, 'invoice.created', row, input.now);
    return { row, customer };
  }

  async finalizeInTx(tx: Tx, tenant: Tenant, id: string, now: Date): Promise<Invoice> {
    const current = await this.lock(tx, tenant, id);
    const customer = await this.customer(tx, tenant, current.customer_id);
    return toInvoice(await this.finalizeLocked(tx, tenant, current, customer, now));
  }

  /** finalizeInTx on a row this transaction holds locked, with its customer already read. */
  private async finalizeLocked(
    tx: Tx,
    tenant: Tenant,
    current: InvoiceRow,
    customer: CustomerRow,
    now: Date,
  ): Promise<InvoiceRow> {
    transition(current.id, current.status, 'finalize');
    // The counter row is locked until this transaction ends: concurrent finalizations of one
    // account and mode queue here, and a rollback returns the number. No gap, no duplicate.
    const [counter] = await tx.query<{ last_number: string }>(
      `insert into invoicing.invoice_number_counters (account_id, livemode, last_number) values ($1, $2, 1)
       on conflict (account_id, livemode) do update set last_number = invoice_number_counters.last_number + 1
       returning last_number`,
      [tenant.account, tenant.livemode],
    );
    const number = `${this.settings.numberPrefix}-${counter.last_number.toString().padStart(4, '0')}`;
    // The seller as the profile reads now (docs/adr/0011): kept with the invoice, which never
    // changes its seller again; its payment terms are the default due date.
    const profileRow = await profileInTx(tx, tenant.account);
    const profile = profileOf(profileRow);
    let dueDate = current.due_date;
    let daysUntilDue = current.days_until_due;
    if (current.collection_method === 'send_invoice' && !dueDate) {
      daysUntilDue ??= profile.payment_terms_days ?? DEFAULT_DAYS_UNTIL_DUE;
      dueDate = new Date(now.getTime() + daysUntilDue * DAY_MS);
    }
    const row = await this.move(tx, current, 'finalize', now, {
      number,
      due_date: dueDate,
      days_until_due: daysUntilDue,
      seller: JSON.stringify(
        sellerSnapshot(profile, current.seller_name ?? profileRow?.account_name ?? null),
      ),
      customer_snapshot: JSON.stringify(customerSnapshot(customer)),
    });
    // Nothing to collect: a zero invoice is paid when finalized.
    if (toMinor(row.amount_due) === 0n) return this.move(tx, row, 'settle', now, {});
    return row;
  }

  async collectInTx(tx: Tx, tenant: Tenant, id: string, attempt: number, now: Date) {
    const current = await this.lock(tx, tenant, id);
    const nothingDue = current.status !== 'open' || toMinor(current.amount_due) === 0n;
    const customer = nothingDue ? undefined : await this.customer(tx, tenant, current.customer_id);
    const collected = await this.collectLocked(tx, current, customer, attempt, now);
    return { invoice: toInvoice(collected.row), action: collected.action };
  }

  /** collectInTx on a row this transaction holds locked (`customer` is read when something is due). */
  private async collectLocked(
    tx: Tx,
    current: InvoiceRow,
    customer: CustomerRow | undefined,
    attempt: number,
    now: Date,
  ): Promise<{ row: InvoiceRow; action: 'charge_requested' | 'sent' | 'nothing_due' }> {
    if (current.status !== 'open' || toMinor(current.amount_due) === 0n || !customer) {
      return { row: current, action: 'nothing_due' };
    }
    if (current.collection_method === 'charge_automatically' && customer.default_mandate) {
      const row = await this.chargeInTx(tx, current, customer.default_mandate, attempt, now);
      return { row, action: 'charge_requested' };
    }
    // send_invoice, or no card on file yet: the customer pays on the hosted page.
    const row = await this.sendInTx(tx, current, now);
    return { row, action: 'sent' };
  }

  onPaymentOutcome(listener: PaymentOutcomeListener): void {
    this.listeners.push(listener);
  }

  runOverdue(now: Date, scope: { tenant?: Tenant; test_clock?: string } = {}): Promise<number> {
    return runOverdue(this.db, now, scope, this.settings.publicBaseUrl);
  }

  // ---- Settlement (called by the payments feed, inside its inbox transaction) ----

  /** payment.succeeded|failed naming an invoice: credit it once, or record the failure. */
  async applyPaymentEvent(tx: Tx, event: EventEnvelope<PaymentEventObject>): Promise<void> {
    const payment = event.data.object;
    if (!payment.invoice || !payment.id) return;
    const tenant = { account: event.account, livemode: event.livemode };
    const [current] = await tx.query<InvoiceRow>(
      'select * from invoicing.invoices where id = $1 and account_id = $2 and livemode = $3 for update',
      [payment.invoice, tenant.account, tenant.livemode],
    );
    if (!current) return;
    const at = new Date(event.created_at);
    const succeeded = event.type === 'payment.succeeded';
    const lastPayment: LastPayment = {
      status: succeeded ? 'succeeded' : 'failed',
      transaction: payment.id,
      reference: payment.reference ?? null,
      failure_code: succeeded ? null : (payment.failure_code ?? null),
      failure_message: succeeded ? null : (payment.failure_message ?? null),
      at: at.toISOString(),
    };
    let row = current;
    if (succeeded) {
      const amount = payment.currency === current.currency ? toMinor(payment.amount ?? 0) : 0n;
      const [credited] = await tx.query(
        `insert into invoicing.invoice_payments (transaction_id, invoice_id, amount, currency, reference, paid_at)
         values ($1, $2, $3, $4, $5, $6) on conflict (transaction_id) do nothing returning transaction_id`,
        [
          payment.id,
          current.id,
          amount.toString(),
          payment.currency ?? current.currency,
          payment.reference ?? null,
          at,
        ],
      );
      if (!credited) return;
      const paid = toMinor(current.amount_paid) + amount;
      const due = toMinor(current.total) - paid;
      const changes = {
        amount_paid: paid.toString(),
        amount_due: (due > 0n ? due : 0n).toString(),
        last_payment: JSON.stringify(lastPayment),
      };
      // A payment for a void or paid invoice is recorded (amount_paid) but changes no state:
      // the merchant refunds it through /v1/refunds.
      const settles = due <= 0n && (current.status === 'open' || current.status === 'uncollectible');
      row = settles
        ? await this.move(tx, current, 'settle', at, changes)
        : await this.patch(tx, current, changes, at);
    } else {
      row = await this.patch(tx, current, { last_payment: JSON.stringify(lastPayment) }, at);
      if (current.status === 'open' || current.status === 'uncollectible') {
        await this.emit(tx, 'invoice.payment_failed', row, at);
      }
    }
    for (const listener of this.listeners) {
      await listener(tx, {
        tenant,
        invoice: toInvoice(row),
        outcome: succeeded ? 'succeeded' : 'failed',
        transaction: payment.id,
        reference: lastPayment.reference,
        failure_code: lastPayment.failure_code,
        failure_message: lastPayment.failure_message,
        at,
      });
    }
  }

  // ---- internals ----

  private async sendInTx(tx: Tx, current: InvoiceRow, now: Date): Promise<InvoiceRow> {
    transition(current.id, current.status, 'send');
    const email = current.customer_snapshot?.email;
    if (!email) {
      throw invalid(
        `Customer '${current.customer_id}' has no email address to send the invoice to.`,
        'customer',
      );
    }
    const sendCount = current.send_count + 1;
    const row = await this.patch(tx, current, { send_count: sendCount, sent_at: now }, now);
    await this.documents.enqueueInvoiceMail(
      tx,
      {
        account: row.account_id,
        livemode: row.livemode,
        sendKey: `${row.id}:send:${sendCount}`,
        to: email,
        invoice: this.serialize(row),
      },
      now,
    );
    await this.emit(tx, 'invoice.sent', row, now);
    return row;
  }

  private async chargeInTx(tx: Tx, current: InvoiceRow, mandate: string, attempt: number, now: Date) {
    transition(current.id, current.status, 'charge');
    const reference = `${current.id}:${attempt}`;
    const pending: LastPayment = {
      status: 'pending',
      transaction: null,
      reference,
      failure_code: null,
      failure_message: null,
      at: now.toISOString(),
    };
    const row = await this.patch(
      tx,
      current,
      { attempt_count: Math.max(attempt, current.attempt_count), last_payment: JSON.stringify(pending) },
      now,
    );
    const command: CommandEnvelope<ChargeMandateCommand> = {
      id: newSortableId('cmd'),
      type: 'payment.charge_mandate',
      created_at: now.toISOString(),
      livemode: row.livemode,
      account: row.account_id,
      data: {
        mandate,
        amount: minorToJson(toMinor(row.amount_due)),
        currency: row.currency,
        invoice: row.id,
        customer: row.customer_id,
        reference,
        description: `Invoice ${row.number ?? row.id}`,
      },
    };
    // Sent if and only if this transaction commits (the outbox; the relay publishes it).
    await lastValueFrom(new OutboxClient(tx).emit(TOPICS.paymentsCommands, command));
    return row;
  }

  private async simpleMove(tenant: Tenant, id: string, action: 'void' | 'mark_uncollectible') {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, tenant, id);
      return this.move(tx, current, action, await this.nowFor(tx, current.test_clock), {});
    });
  }

  /** Applies a state-machine action: new status, its status_transitions time, its event. */
  private async move(
    tx: Tx,
    current: InvoiceRow,
    action: InvoiceAction,
    now: Date,
    changes: Record<string, unknown>,
  ): Promise<InvoiceRow> {
    const status = transition(current.id, current.status, action);
    const enteredAt = ENTERED_AT[status];
    const all: Record<string, unknown> = { ...changes, status };
    if (enteredAt && status !== current.status) all[enteredAt] = now;
    if (status === 'paid' && changes.amount_due === undefined) {
      all.amount_paid = (toMinor(current.amount_paid) + toMinor(current.amount_due)).toString();
      all.amount_due = '0';
    }
    const row = await this.patch(tx, current, all, now);
    const type = status !== current.status ? EVENT_ON_ENTERING[status] : undefined;
    if (type) await this.emit(tx, type, row, now);
    return row;
  }

  /** Updates columns of one invoice (names are this file's constants, never input). */
  private patch(
    tx: Tx,
    current: InvoiceRow,
    changes: Record<string, unknown>,
    now: Date,
  ): Promise<InvoiceRow> {
    return updateColumns<InvoiceRow>(tx, 'invoicing.invoices', current.id, changes, now);
  }

  /**
   * The time of an API action: the test clock's frozen time for invoices of a customer on a
   * test clock (so due dates and overdue follow the clock), else the service clock.
   */
  private async nowFor(tx: Tx, testClock: string | null): Promise<Date> {
    if (!testClock) return this.clock.now();
    const [clock] = await tx.query<{ frozen_time: Date }>(
      'select frozen_time from invoicing.test_clocks where id = $1',
      [testClock],
    );
    return clock ? new Date(clock.frozen_time) : this.clock.now();
  }

  private async lock(tx: Tx, tenant: Tenant, id: string): Promise<InvoiceRow> {
    return lockOwned<InvoiceRow>(tx, 'invoicing.invoices', tenant, id, 'invoice');
  }

  private async row(tx: Tx, tenant: Tenant, id: string): Promise<InvoiceRow> {
    return findOwned<InvoiceRow>(tx, 'invoicing.invoices', tenant, id, 'invoice');
  }

  private async customer(tx: Tx, tenant: Tenant, id: string, param = 'id'): Promise<CustomerRow> {
    return findOwned<CustomerRow>(tx, 'invoicing.customers', tenant, id, 'customer', param);
  }

  private async emit(tx: Tx, type: InvoicingEventType, row: InvoiceRow, at: Date): Promise<void> {
    await emitRowEvent(tx, TOPICS.invoicingEvents, row, {
      type,
      object: this.serialize(row),
      at,
    });
  }
}

/**
 * Marks open invoices past their due date as overdue, once each (invoice.overdue). Claims
 * batches with `for update skip locked`, so several instances can run it at once. The
 * real-time timer passes no test_clock and leaves test-clock customers' invoices to their
 * clock; a test clock passes its id.
 */
export async function runOverdue(
  db: Database,
  now: Date,
  scope: { tenant?: Tenant; test_clock?: string },
  publicBaseUrl: string,
): Promise<number> {
  const where = [`status = 'open'`, 'overdue_at is null', 'due_date <= $1'];
  const params: unknown[] = [now];
  if (scope.test_clock) {
    params.push(scope.test_clock);
    where.push(`test_clock = $${params.length}`);
  } else {
    where.push('test_clock is null');
  }
  if (scope.tenant) {
    params.push(scope.tenant.account, scope.tenant.livemode);
    where.push(`account_id = $${params.length - 1}`, `livemode = $${params.length}`);
  }
  let marked = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const rows = await tx.query<InvoiceRow>(
        `update invoicing.invoices set overdue_at = $1, updated_at = $1
          where id in (select id from invoicing.invoices where ${where.join(' and ')}
                        order by due_date limit 100 for update skip locked)
          returning *`,
        params,
      );
      for (const row of rows) {
        await emitRowEvent(tx, TOPICS.invoicingEvents, row, {
          type: 'invoice.overdue',
          object: serializeInvoice(row, publicBaseUrl),
          at: now,
        });
      }
      return rows.length;
    });
    marked += batch;
    if (batch < 100) return marked;
  }
}
