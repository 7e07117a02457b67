// Invoices: drafts, the gapless number, the state machine's actions, collection (a charge
// command to the payments service or an e-mail) and settlement from payments.events.v1.
// Every change and its events (and commands, and mails) commit in one transaction; the
// network is never called inside it (mails are queued, commands go through the outbox).
//
// This class is what the controllers and the rest of the service hold: it opens the request's
// transaction and hands it to one use case per file (create-invoice.ts, edit-invoice.ts,
// finalize-invoice.ts, collect-invoice.ts, pay-invoice.ts, settle-invoice.ts,
// invoice-overdue.ts) over the statements of invoice.sql.ts.

import type { EventEnvelope } from '@paygrid/contracts';
import {
  type Clock,
  type Database,
  paginate,
  rangeClauses,
  type Tx,
  type Tenant,
  type TextRow,
} from '@paygrid/platform';
import type { CustomerRow } from '../customers/customers.service';
import { collectById, sendRequested } from './collect-invoice';
import { createAndCollect, createRequested, insertDraft } from './create-invoice';
import { deleteDraft, updateDraft } from './edit-invoice';
import { finalizeRequested } from './finalize-invoice';
import { runOverdue } from './invoice-overdue';
import type { InvoiceDocuments } from './invoice-mailer';
import { INVOICE_TEXT_COLUMNS, invoiceJson, type InvoiceRow, toInvoice } from './invoice.serializer';
import { type InvoiceSettings, InvoiceStore } from './invoice.sql';
import type { InvoiceDraftFieldsDto, ListInvoicesQuery, PayInvoiceDto } from './invoices.dto';
import type {
  CreateInvoiceInput,
  Invoice,
  InvoicesInternal,
  PaymentOutcomeListener,
} from './invoices.internal';
import { payRequested } from './pay-invoice';
import { applyPaymentEvent, type PaymentEventObject } from './settle-invoice';

export type { InvoiceSettings } from './invoice.sql';
export type { PaymentEventObject } from './settle-invoice';
export { OVERDUE_SWEEP_MS } from './invoice-overdue';

export class InvoicesService implements InvoicesInternal {
  private readonly listeners: PaymentOutcomeListener[] = [];
  private readonly store: InvoiceStore;

  constructor(
    private readonly db: Database,
    clock: Clock,
    private readonly settings: InvoiceSettings,
    private readonly documents: InvoiceDocuments,
  ) {
    this.store = new InvoiceStore(clock, settings);
  }

  serialize(row: InvoiceRow) {
    return this.store.serialize(row);
  }

  /** serialize's JSON, from a list page's text row (INVOICE_TEXT_COLUMNS). */
  json(row: TextRow): string {
    return invoiceJson(row, this.store.settings.publicBaseUrl);
  }

  // ---- HTTP-facing operations (each its own transaction, or the request's) ----

  /**
   * POST /v1/invoices: a draft, then (unless `send: false`) finalized and collected. `tx`
   * (here and in the actions below): the idempotent request's transaction (docs/adr/0015).
   */
  create(
    tenant: Tenant,
    sellerName: string,
    body: InvoiceDraftFieldsDto & { customer: string; send?: boolean },
    tx?: Tx,
  ) {
    return this.db.transaction(
      (t) => createRequested(this.store, this.documents, t, tenant, sellerName, body),
      { in: tx },
    );
  }

  update(tenant: Tenant, id: string, body: InvoiceDraftFieldsDto, tx?: Tx) {
    return this.db.transaction((t) => updateDraft(this.store, t, tenant, id, body), { in: tx });
  }

  remove(tenant: Tenant, id: string) {
    return this.db.transaction((tx) => deleteDraft(this.store, tx, tenant, id));
  }

  finalize(tenant: Tenant, id: string, sellerName: string, tx?: Tx) {
    return this.db.transaction((t) => finalizeRequested(this.store, t, tenant, id, sellerName), { in: tx });
  }

  /** POST /:id/send: e-mails the invoice (a draft is finalized first). */
  send(tenant: Tenant, id: string, sellerName: string, tx?: Tx) {
    return this.db.transaction((t) => sendRequested(this.store, this.documents, t, tenant, id, sellerName), {
      in: tx,
    });
  }

  /** POST /:id/pay: charge the customer's default mandate, or record a payment made elsewhere. */
  pay(tenant: Tenant, id: string, body: PayInvoiceDto, tx?: Tx) {
    return this.db.transaction((t) => payRequested(this.store, t, tenant, id, body), { in: tx });
  }

  void(tenant: Tenant, id: string, tx?: Tx) {
    return this.simpleMove(tenant, id, 'void', tx);
  }

  markUncollectible(tenant: Tenant, id: string, tx?: Tx) {
    return this.simpleMove(tenant, id, 'mark_uncollectible', tx);
  }

  private simpleMove(tenant: Tenant, id: string, action: 'void' | 'mark_uncollectible', tx?: Tx) {
    return this.db.transaction(
      async (t) => {
        const current = await this.store.lock(t, tenant, id);
        return this.store.move(t, current, action, await this.store.nowFor(t, current.test_clock), {});
      },
      { in: tx },
    );
  }

  get(tenant: Tenant, id: string): Promise<InvoiceRow> {
    return this.store.find(this.db, tenant, id);
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
    return this.documents.renderFacturX(this.serialize(row), row.account_id);
  }

  /** The invoice as UBL (EN 16931), or 409 invoice_incomplete naming what it lacks. */
  ubl(row: InvoiceRow): string {
    return this.documents.renderUbl(this.serialize(row));
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
    // The rows stay text, and the controller writes their JSON (invoiceJson; finding 59).
    return paginate<TextRow>(this.db, {
      table: 'invoicing.invoices',
      where,
      params,
      list: query,
      url: '/v1/invoices',
      columns: INVOICE_TEXT_COLUMNS,
      textRows: true,
    });
  }

  // ---- InvoicesInternal: inside the caller's transaction ----

  async createInTx(tx: Tx, tenant: Tenant, input: CreateInvoiceInput): Promise<Invoice> {
    return toInvoice((await insertDraft(this.store, tx, tenant, input)).row);
  }

  async createAndCollectInTx(
    tx: Tx,
    tenant: Tenant,
    input: CreateInvoiceInput,
    attempt: number,
    customer?: CustomerRow,
  ) {
    const collected = await createAndCollect(
      this.store,
      this.documents,
      tx,
      tenant,
      input,
      attempt,
      customer,
    );
    return { invoice: toInvoice(collected.row), action: collected.action };
  }

  async collectInTx(tx: Tx, tenant: Tenant, id: string, attempt: number, now: Date) {
    const collected = await collectById(this.store, this.documents, tx, tenant, id, attempt, now);
    return { invoice: toInvoice(collected.row), action: collected.action };
  }

  onPaymentOutcome(listener: PaymentOutcomeListener): void {
    this.listeners.push(listener);
  }

  runOverdue(now: Date, scope: { tenant?: Tenant; test_clock?: string } = {}): Promise<number> {
    return runOverdue(this.db, now, scope, this.settings.publicBaseUrl);
  }

  // ---- Settlement (called by the payments feed, inside its inbox transaction) ----

  /** payment.succeeded|failed naming an invoice: credit it once, or record the failure. */
  applyPaymentEvent(tx: Tx, event: EventEnvelope<PaymentEventObject>): Promise<void> {
    return applyPaymentEvent(this.store, this.listeners, tx, event);
  }
}
