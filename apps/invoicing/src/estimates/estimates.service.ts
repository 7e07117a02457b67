// Over 400 lines (567): one use case per file for invoicing is issue 14 item 3, not done yet.
// Estimates and quotes: drafts with server-computed totals (invoices/totals.ts), the gapless
// number per account, mode and kind taken at the first send, the state machine's actions
// (estimate-state.ts), the e-mail with the customer's page link and the PDF, the expiry job,
// and /convert, which creates the invoice through the invoices module's in-transaction API
// so the invoice, its events and the estimate's `invoiced` state commit together.

import { sellerNameInTx } from '../account/account.service';
import { randomBytes } from 'node:crypto';
import { TOPICS, type InvoicingEventType } from '@paygrid/contracts';
import {
  ApiError,
  type Clock,
  type Database,
  emitRowEvent,
  findOwned,
  lockOwned,
  newId,
  notFound,
  paginate,
  type Tenant,
  toMinor,
  type Tx,
  updateColumns,
} from '@paygrid/platform';
import type { CustomerRow } from '../customers/customers.service';
import { checkDiscount, customerSnapshot, documentViewParts, pricedLines } from '../documents/document-parts';
import { escapeHtml, mailHtml } from '../documents/mail-templates';
import type { LogoLoader } from '../documents/invoice-documents';
import { renderInvoicePdf, type InvoiceDocumentView } from '../documents/invoice-pdf';
import { quoteMessages } from './quote-page';
import type { InvoicesInternal } from '../invoices/invoices.internal';
import type { DiscountInput, LineInput } from '../invoices/totals';
import type { MailService } from '../mail/mail.service';
import {
  ENTERED_AT,
  NUMBER_PREFIX,
  transition,
  type EstimateAction,
  type EstimateKind,
  type EstimateStatus,
} from './estimate-state';
import { serializeEstimate, type EstimateRow } from './estimate.serializer';
import type {
  ConvertEstimateDto,
  CreateEstimateDto,
  EstimateDraftFieldsDto,
  ListEstimatesQuery,
} from './estimates.dto';

export interface EstimateSettings {
  publicBaseUrl: string;
  /** The account's current logo for the PDF (account/account.service.ts currentLogo). */
  logos: LogoLoader;
}

const invalid = (message: string, param: string) => new ApiError('parameter_invalid', message, param);

/** How often the expiry job looks for sent estimates past `expires_at`. */
export const EXPIRY_SWEEP_MS = 60_000;
const EXPIRY_BATCH = 100;

const KIND_TITLE: Record<EstimateKind, string> = { estimate: 'Estimate', quote: 'Quote' };

/** `Quote-Q-0001.pdf`, `Estimate-EST-0002.pdf` (the id while a draft has no number). */
export const estimatePdfFilename = (row: Pick<EstimateRow, 'kind' | 'number' | 'id'>) =>
  `${KIND_TITLE[row.kind]}-${(row.number ?? row.id).replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;

interface DraftFields {
  lines: LineInput[];
  discount: DiscountInput | null;
}

/** Validates a draft's lines and discount and computes its totals (as on invoices). */
function priced(fields: DraftFields) {
  checkDiscount(fields.discount);
  return pricedLines(fields.lines, fields.discount, 'estimate');
}

function futureExpiry(value: string | null | undefined, now: Date): Date | null {
  if (value === undefined || value === null) return null;
  const at = new Date(value);
  if (at.getTime() <= now.getTime()) throw invalid('expires_at must be in the future.', 'expires_at');
  return at;
}

const EVENT_OF: Partial<Record<EstimateAction, InvoicingEventType>> = {
  send: 'estimate.sent',
  accept: 'estimate.accepted',
  decline: 'estimate.declined',
  expire: 'estimate.expired',
  convert: 'estimate.invoiced',
};

/** The customer's decision on the quote page: what happened to this submission. */
/**
 * An estimate as its public page shows it: `expired` when `expires_at` has passed on the
 * customer's time (its test clock's frozen time when it has one, as for the API and the
 * expiry job), whatever the status says yet.
 */
export interface PageEstimate {
  estimate: EstimateRow;
  expired: boolean;
}

export type PageDecision = PageEstimate & { outcome: 'decided' | 'replayed' | 'not_allowed' };

export class EstimatesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly settings: EstimateSettings,
    private readonly invoices: InvoicesInternal,
    private readonly mail: MailService,
  ) {
    mail.registerAttachment('estimate_pdf', async (ref, owner) => ({
      content: await this.pdf(await this.get(owner, ref)),
      contentType: 'application/pdf',
    }));
  }

  serialize(row: EstimateRow) {
    return serializeEstimate(row, this.settings.publicBaseUrl);
  }

  // ---- HTTP-facing operations (each its own transaction, or the request's) ----

  async create(tenant: Tenant, sellerName: string, body: CreateEstimateDto): Promise<EstimateRow> {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const customer = await this.customer(tx, tenant, body.customer);
      if (customer.deleted_at) throw invalid(`Customer '${customer.id}' is archived.`, 'customer');
      const currency = body.currency ?? customer.currency;
      if (!currency) {
        throw new ApiError(
          'parameter_missing',
          'currency is required when the customer has none.',
          'currency',
        );
      }
      if (customer.currency && currency !== customer.currency) {
        throw invalid(`The customer is billed in ${customer.currency}.`, 'currency');
      }
      const discount = (body.discount ?? null) as DiscountInput | null;
      const { totals, lines } = priced({ lines: body.lines ?? [], discount });
      const [row] = await tx.query<EstimateRow>(
        `insert into invoicing.estimates (id, account_id, livemode, kind, customer_id, status, currency, description,
           lines, discount, subtotal, discount_total, tax_total, total, expires_at, page_token, seller_name,
           metadata, created_at, updated_at)
         values ($1, $2, $3, $4, $5, 'draft', $6, $7, $8::jsonb, $9::jsonb, $10, $11, $12, $13, $14, $15, $16,
           $17::jsonb, $18, $18)
         returning *`,
        [
          newId('est'),
          tenant.account,
          tenant.livemode,
          body.kind ?? 'estimate',
          customer.id,
          currency,
          body.description ?? null,
          JSON.stringify(lines),
          discount ? JSON.stringify(discount) : null,
          totals.subtotal.toString(),
          totals.discount_total.toString(),
          totals.tax_total.toString(),
          totals.total.toString(),
          // Expiry is on the customer's time: its test clock's frozen time, if any.
          futureExpiry(body.expires_at, await this.customerTime(tx, tenant, body.customer, now)),
          // 32 random bytes: the customer's page address is the credential, as for invoices.
          randomBytes(32).toString('base64url'),
          sellerName,
          JSON.stringify(body.metadata ?? {}),
          now,
        ],
      );
      await this.emit(tx, 'estimate.created', row, now);
      return row;
    });
  }

  async update(tenant: Tenant, id: string, body: EstimateDraftFieldsDto): Promise<EstimateRow> {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, tenant, id);
      transition(current.id, current.status, 'edit');
      const now = this.clock.now();
      const changes: Record<string, unknown> = {};
      if (body.currency !== undefined && body.currency !== current.currency) {
        const customer = await this.customer(tx, tenant, current.customer_id);
        if (customer.currency && body.currency !== customer.currency) {
          throw invalid(`The customer is billed in ${customer.currency}.`, 'currency');
        }
        changes.currency = body.currency;
      }
      if (body.lines !== undefined || body.discount !== undefined) {
        const discount = (
          body.discount === undefined ? current.discount : body.discount
        ) as DiscountInput | null;
        const { totals, lines } = priced({ lines: body.lines ?? current.lines, discount });
        Object.assign(changes, {
          lines: JSON.stringify(lines),
          discount: discount ? JSON.stringify(discount) : null,
          subtotal: totals.subtotal.toString(),
          discount_total: totals.discount_total.toString(),
          tax_total: totals.tax_total.toString(),
          total: totals.total.toString(),
        });
      }
      if (body.expires_at !== undefined) {
        const customerNow = await this.customerTime(tx, tenant, current.customer_id, now);
        changes.expires_at = futureExpiry(body.expires_at, customerNow);
      }
      if (body.description !== undefined) changes.description = body.description;
      if (body.metadata !== undefined)
        changes.metadata = JSON.stringify({ ...current.metadata, ...body.metadata });
      if (!Object.keys(changes).length) return current;
      return this.patch(tx, current, changes, now);
    });
  }

  async get(tenant: Tenant, id: string): Promise<EstimateRow> {
    return findOwned<EstimateRow>(this.db, 'invoicing.estimates', tenant, id, 'estimate');
  }

  list(tenant: Tenant, query: ListEstimatesQuery) {
    const where = ['account_id = $1', 'livemode = $2'];
    const params: unknown[] = [tenant.account, tenant.livemode];
    for (const [column, value] of [
      ['status', query.status],
      ['customer_id', query.customer],
      ['kind', query.kind],
    ] as const) {
      if (value === undefined) continue;
      params.push(value);
      where.push(`${column} = $${params.length}`);
    }
    return paginate<EstimateRow>(this.db, {
      table: 'invoicing.estimates',
      where,
      params,
      list: query,
      url: '/v1/estimates',
    });
  }

  /**
   * draft|sent -> sent: takes the number at the first send, snapshots seller and customer,
   * queues the e-mail (page link + PDF) in this transaction and emits estimate.sent.
   */
  async send(tenant: Tenant, id: string, sellerName: string): Promise<EstimateRow> {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, tenant, id);
      transition(current.id, current.status, 'send');
      const now = this.clock.now();
      if (this.pastExpiry(current, await this.customerTime(tx, tenant, current.customer_id, now))) {
        throw invalid('expires_at has passed; set a later one before sending.', 'expires_at');
      }
      if (!current.lines.length)
        throw new ApiError('parameter_missing', 'An estimate needs lines to be sent.', 'lines');
      const customer = await this.customer(tx, tenant, current.customer_id);
      if (customer.deleted_at) throw invalid(`Customer '${customer.id}' is archived.`, 'customer');
      if (!customer.email) {
        throw invalid(`Customer '${customer.id}' has no email address to send the estimate to.`, 'customer');
      }
      const sendCount = current.send_count + 1;
      const changes: Record<string, unknown> = {
        send_count: sendCount,
        // The name customers know the seller by (the business profile), as of this send.
        seller_name: (await sellerNameInTx(tx, tenant.account, sellerName)) ?? sellerName,
        customer_snapshot: JSON.stringify(customerSnapshot(customer)),
      };
      if (!current.number) changes.number = await this.nextNumber(tx, current);
      const row = await this.move(tx, current, 'send', now, changes);
      await this.queueMail(tx, row, customer.email, `${row.id}:send:${sendCount}`, now);
      return row;
    });
  }

  accept(tenant: Tenant, id: string): Promise<EstimateRow> {
    return this.decide(tenant, id, 'accept');
  }

  decline(tenant: Tenant, id: string): Promise<EstimateRow> {
    return this.decide(tenant, id, 'decline');
  }

  async cancel(tenant: Tenant, id: string): Promise<EstimateRow> {
    return this.db.transaction(async (tx) =>
      this.move(tx, await this.lock(tx, tenant, id), 'cancel', this.clock.now(), {}),
    );
  }

  /**
   * accepted -> invoiced: creates the invoice (a draft, or finalized and e-mailed with
   * `send: true`) through the invoices module in this very transaction.
   */
  async convert(
    tenant: Tenant,
    id: string,
    sellerName: string,
    body: ConvertEstimateDto,
  ): Promise<EstimateRow> {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, tenant, id);
      transition(current.id, current.status, 'convert');
      const now = this.clock.now();
      // The invoice lives on its customer's test clock, if any (its dates follow the clock).
      const invoiceNow = await this.customerTime(tx, tenant, current.customer_id, now);
      const invoice = await this.invoices.createInTx(tx, tenant, {
        customer: current.customer_id,
        currency: current.currency,
        lines: current.lines.map((line) => ({
          description: line.description,
          quantity: line.quantity,
          unit_amount: line.unit_amount,
          tax_rate_bps: line.tax_rate_bps,
          tax_category: line.tax_category ?? null,
          tax_exemption_reason: line.tax_exemption_reason ?? null,
        })),
        discount: current.discount as DiscountInput | null,
        estimate: current.id,
        seller_name: sellerName,
        description: current.description ?? `${KIND_TITLE[current.kind]} ${current.number ?? current.id}`,
        ...(body.days_until_due !== undefined ? { days_until_due: body.days_until_due } : {}),
        now: invoiceNow,
      });
      if (body.send) {
        await this.invoices.finalizeInTx(tx, tenant, invoice.id, invoiceNow);
        await this.invoices.collectInTx(tx, tenant, invoice.id, 1, invoiceNow);
      }
      return this.move(tx, current, 'convert', now, { invoice_id: invoice.id });
    });
  }

  // ---- the customer's page ----

  async findByPageToken(token: string): Promise<PageEstimate | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const [found] = await this.db.query<EstimateRow & { clock_time: Date | null }>(
      `select e.*, t.frozen_time as clock_time from invoicing.estimates e
         join invoicing.customers c on c.id = e.customer_id
         left join invoicing.test_clocks t on t.id = c.test_clock
        where e.page_token = $1 and e.status <> 'draft'`,
      [token],
    );
    if (!found) return undefined;
    const { clock_time: clockTime, ...estimate } = found;
    return {
      estimate,
      expired: this.pastExpiry(estimate, clockTime ? new Date(clockTime) : this.clock.now()),
    };
  }

  /**
   * The customer accepts or declines on the page. The form token's hash is recorded in the
   * same transaction as the decision: a double click (or a replayed form) finds it and gets
   * the first decision's result instead of a second decision.
   */
  async decideFromPage(
    estimateId: string,
    action: 'accept' | 'decline',
    tokenHash: string,
  ): Promise<PageDecision> {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const [claimed] = await tx.query<{ token_hash: string }>(
        `insert into invoicing.quote_page_submissions (token_hash, estimate_id, action, created_at)
         values ($1, $2, $3, $4) on conflict (token_hash) do nothing returning token_hash`,
        [tokenHash, estimateId, action, now],
      );
      const [current] = await tx.query<EstimateRow>(
        'select * from invoicing.estimates where id = $1 for update',
        [estimateId],
      );
      if (!current) throw notFound('estimate', estimateId);
      const tenant = { account: current.account_id, livemode: current.livemode };
      const expired = this.pastExpiry(current, await this.customerTime(tx, tenant, current.customer_id, now));
      if (!claimed) return { outcome: 'replayed', estimate: current, expired };
      if (current.status !== 'sent' || expired) return { outcome: 'not_allowed', estimate: current, expired };
      const estimate = await this.move(tx, current, action, now, { decided_via: 'page' });
      return { outcome: 'decided', estimate, expired };
    });
  }

  pastExpiry(row: Pick<EstimateRow, 'expires_at'>, now = this.clock.now()): boolean {
    return row.expires_at !== null && new Date(row.expires_at).getTime() <= now.getTime();
  }

  /** The estimate or quote as a PDF (the invoice renderer, titled by kind, with the account's logo). */
  async pdf(row: EstimateRow): Promise<Buffer> {
    return renderInvoicePdf({ ...this.documentView(row), logo: await this.settings.logos(row.account_id) });
  }

  documentView(row: EstimateRow): InvoiceDocumentView {
    const messages = quoteMessages(row);
    return {
      messages,
      title: messages.t(`pdf.${row.kind}`),
      number: row.number,
      status: row.status,
      currency: row.currency,
      issue_date: new Date(row.sent_at ?? row.created_at),
      valid_until: row.expires_at ? new Date(row.expires_at) : null,
      seller: { name: row.seller_name },
      ...documentViewParts({ ...row, customer: row.customer_snapshot }),
      link_url: row.status === 'sent' ? `${this.settings.publicBaseUrl}/q/${row.page_token}` : null,
      link_label: messages.t(`pdf.review_online.${row.kind}`),
      memo: row.description,
    };
  }

  // ---- the expiry job (run every EXPIRY_SWEEP_MS by the app, see invoicing.ts) ----

  /**
   * sent -> expired for every estimate whose expires_at has passed (estimate.expired, once
   * each). Batches are claimed with `for update skip locked`, so instances share the work.
   * Time is per customer: without `test_clock` only estimates of customers on the real clock
   * (the periodic job); with it, only those of that test clock's customers, at its frozen
   * time (each step of a test clock advance).
   */
  async runExpiry(now: Date, scope: { test_clock?: string } = {}): Promise<number> {
    let total = 0;
    for (;;) {
      const expired = await this.db.transaction(async (tx) => {
        const due = await tx.query<EstimateRow>(
          `select e.* from invoicing.estimates e join invoicing.customers c on c.id = e.customer_id
            where e.status = 'sent' and e.expires_at is not null and e.expires_at <= $1
              and c.test_clock is not distinct from $3::text
            order by e.expires_at limit $2 for update of e skip locked`,
          [now, EXPIRY_BATCH, scope.test_clock ?? null],
        );
        for (const row of due) await this.move(tx, row, 'expire', now, {});
        return due.length;
      });
      total += expired;
      if (expired < EXPIRY_BATCH) return total;
    }
  }

  /** The earliest expires_at, at or before `to`, of a sent estimate of this test clock's customers. */
  async nextExpiry(testClock: string, to: Date): Promise<Date | null> {
    const [row] = await this.db.query<{ at: Date | null }>(
      `select min(e.expires_at) as at from invoicing.estimates e join invoicing.customers c on c.id = e.customer_id
        where c.test_clock = $1 and e.status = 'sent' and e.expires_at <= $2`,
      [testClock, to],
    );
    return row?.at ? new Date(row.at) : null;
  }

  // ---- internals ----

  private async decide(tenant: Tenant, id: string, action: 'accept' | 'decline'): Promise<EstimateRow> {
    return this.db.transaction(async (tx) => {
      const current = await this.lock(tx, tenant, id);
      const now = this.clock.now();
      const customerNow = await this.customerTime(tx, tenant, current.customer_id, now);
      if (current.status === 'sent' && this.pastExpiry(current, customerNow)) {
        throw new ApiError(
          'invalid_state_transition',
          `Estimate '${id}' expired at ${new Date(current.expires_at as Date).toISOString()}.`,
        );
      }
      return this.move(tx, current, action, now, { decided_via: 'api' });
    });
  }

  /** The next number of this account, mode and kind (the counter row is locked until commit). */
  private async nextNumber(tx: Tx, row: EstimateRow): Promise<string> {
    const [counter] = await tx.query<{ last_number: string }>(
      `insert into invoicing.estimate_number_counters (account_id, livemode, kind, last_number) values ($1, $2, $3, 1)
       on conflict (account_id, livemode, kind) do update set last_number = estimate_number_counters.last_number + 1
       returning last_number`,
      [row.account_id, row.livemode, row.kind],
    );
    return `${NUMBER_PREFIX[row.kind]}-${counter.last_number.toString().padStart(4, '0')}`;
  }

  private async queueMail(tx: Tx, row: EstimateRow, to: string, sendKey: string, now: Date): Promise<void> {
    const m = quoteMessages(row);
    const title = m.t(`quote.title.${row.kind}`, { number: row.number ?? '' }).trim();
    const seller = row.seller_name ?? m.t('mail.your_supplier');
    const name = row.customer_snapshot?.name;
    const url = `${this.settings.publicBaseUrl}/q/${row.page_token}`;
    const amount = m.money(toMinor(row.total), row.currency);
    const sent = m.t(`mail.quote.sent.${row.kind}`, { seller, number: row.number ?? '', amount });
    const validity = row.expires_at
      ? ` ${m.t('mail.quote.valid_until', { date: m.date(row.expires_at) })}`
      : '';
    const paragraphs = [name ? m.t('mail.hello_name', { name }) : m.t('mail.hello'), `${sent}${validity}`];
    const attached = m.t(`mail.quote.attached.${row.kind}`);
    const text = [...paragraphs, m.t('mail.quote.review', { url }), attached, `- ${seller}`].join('\n\n');
    const html = mailHtml(
      title,
      [
        ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
        `<p><a href="${escapeHtml(url)}">${escapeHtml(m.t('mail.quote.review_link', { title }))}</a></p>`,
        `<p>${escapeHtml(attached)}</p>`,
        `<p>${escapeHtml(seller)}</p>`,
      ],
      m.locale,
    );
    await this.mail.enqueue(tx, {
      account: row.account_id,
      livemode: row.livemode,
      send_key: sendKey,
      to: [to],
      subject: m.t('quote.page_title', { title, seller }),
      text,
      html,
      attachments: [{ kind: 'estimate_pdf', ref: row.id, filename: estimatePdfFilename(row) }],
      at: now,
    });
  }

  /** Applies a state-machine action: new status, its timestamp, its event. */
  private async move(
    tx: Tx,
    current: EstimateRow,
    action: EstimateAction,
    now: Date,
    changes: Record<string, unknown>,
  ): Promise<EstimateRow> {
    const status: EstimateStatus = transition(current.id, current.status, action);
    const all: Record<string, unknown> = { ...changes, status };
    const enteredAt = ENTERED_AT[status];
    if (enteredAt) all[enteredAt] = now;
    const row = await this.patch(tx, current, all, now);
    const type = EVENT_OF[action];
    if (type) await this.emit(tx, type, row, now);
    return row;
  }

  /** Updates columns of one estimate (names are this file's constants, never input). */
  private patch(
    tx: Tx,
    current: EstimateRow,
    changes: Record<string, unknown>,
    now: Date,
  ): Promise<EstimateRow> {
    return updateColumns<EstimateRow>(tx, 'invoicing.estimates', current.id, changes, now);
  }

  private async lock(tx: Tx, tenant: Tenant, id: string): Promise<EstimateRow> {
    return lockOwned<EstimateRow>(tx, 'invoicing.estimates', tenant, id, 'estimate');
  }

  /** The frozen time of the customer's test clock, else `now`. */
  private async customerTime(tx: Tx, tenant: Tenant, customerId: string, now: Date): Promise<Date> {
    const [clock] = await tx.query<{ frozen_time: Date }>(
      `select t.frozen_time from invoicing.customers c join invoicing.test_clocks t on t.id = c.test_clock
        where c.id = $1 and c.account_id = $2 and c.livemode = $3`,
      [customerId, tenant.account, tenant.livemode],
    );
    return clock ? new Date(clock.frozen_time) : now;
  }

  private async customer(tx: Tx, tenant: Tenant, id: string): Promise<CustomerRow> {
    return findOwned<CustomerRow>(tx, 'invoicing.customers', tenant, id, 'customer', 'customer');
  }

  private async emit(tx: Tx, type: InvoicingEventType, row: EstimateRow, at: Date): Promise<void> {
    await emitRowEvent(tx, TOPICS.invoicingEvents, row, {
      type,
      object: this.serialize(row),
      at,
    });
  }
}
