// Estimates and quotes: drafts with server-computed totals (invoices/totals.ts), the gapless
// number per account, mode and kind taken at the first send, the state machine's actions
// (estimate-state.ts), the e-mail with the customer's page link and the PDF, the expiry job,
// and /convert, which creates the invoice through the invoices module's in-transaction API
// so the invoice, its events and the estimate's `invoiced` state commit together.
//
// This class is what the controllers and the app hold: it opens the transaction and hands it
// to one use case per file (create-estimate.ts, send-estimate.ts, convert-estimate.ts,
// estimate-expiry.ts) over estimate.sql.ts; the decisions (API and page) stay here.

import {
  ApiError,
  type Clock,
  type Database,
  findOwned,
  notFound,
  paginate,
  type Tenant,
  type Tx,
} from '@paygrid/platform';
import type { InvoiceDocumentView } from '../documents/invoice-pdf';
import { renderInvoicePdf } from '../documents/pdf-rendering';
import type { InvoicesInternal } from '../invoices/invoices.internal';
import type { MailService } from '../mail/mail.service';
import { convertEstimate } from './convert-estimate';
import { createEstimate, updateEstimate } from './create-estimate';
import { estimateDocumentView } from './estimate-document';
import { nextExpiry, runExpiry } from './estimate-expiry';
import type { EstimateRow } from './estimate.serializer';
import { type EstimateSettings, EstimateStore, pastExpiry } from './estimate.sql';
import type {
  ConvertEstimateDto,
  CreateEstimateDto,
  EstimateDraftFieldsDto,
  ListEstimatesQuery,
} from './estimates.dto';
import { sendEstimate } from './send-estimate';

export type { EstimateSettings } from './estimate.sql';
export { estimatePdfFilename } from './estimate-document';
export { EXPIRY_SWEEP_MS } from './estimate-expiry';

/**
 * An estimate as its public page shows it: `expired` when `expires_at` has passed on the
 * customer's time (its test clock's frozen time when it has one, as for the API and the
 * expiry job), whatever the status says yet.
 */
export interface PageEstimate {
  estimate: EstimateRow;
  expired: boolean;
}

/** The customer's decision on the quote page: what happened to this submission. */
export type PageDecision = PageEstimate & { outcome: 'decided' | 'replayed' | 'not_allowed' };

export class EstimatesService {
  private readonly store: EstimateStore;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly settings: EstimateSettings,
    private readonly invoices: InvoicesInternal,
    private readonly mail: MailService,
  ) {
    this.store = new EstimateStore(clock, settings);
    mail.registerAttachment('estimate_pdf', async (ref, owner) => ({
      content: await this.pdf(await this.get(owner, ref)),
      contentType: 'application/pdf',
    }));
  }

  serialize(row: EstimateRow) {
    return this.store.serialize(row);
  }

  // ---- HTTP-facing operations (each its own transaction, or the request's) ----

  /** `tx` (here and in the actions below): the idempotent request's transaction (docs/adr/0015). */
  create(tenant: Tenant, sellerName: string, body: CreateEstimateDto, tx?: Tx): Promise<EstimateRow> {
    return this.db.transaction((t) => createEstimate(this.store, t, tenant, sellerName, body), { in: tx });
  }

  update(tenant: Tenant, id: string, body: EstimateDraftFieldsDto, tx?: Tx): Promise<EstimateRow> {
    return this.db.transaction((t) => updateEstimate(this.store, t, tenant, id, body), { in: tx });
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
  send(tenant: Tenant, id: string, sellerName: string, tx?: Tx): Promise<EstimateRow> {
    return this.db.transaction((t) => sendEstimate(this.store, this.mail, t, tenant, id, sellerName), {
      in: tx,
    });
  }

  accept(tenant: Tenant, id: string, tx?: Tx): Promise<EstimateRow> {
    return this.decide(tenant, id, 'accept', tx);
  }

  decline(tenant: Tenant, id: string, tx?: Tx): Promise<EstimateRow> {
    return this.decide(tenant, id, 'decline', tx);
  }

  async cancel(tenant: Tenant, id: string, tx?: Tx): Promise<EstimateRow> {
    return this.db.transaction(
      async (t) => this.store.move(t, await this.store.lock(t, tenant, id), 'cancel', this.clock.now(), {}),
      { in: tx },
    );
  }

  /**
   * accepted -> invoiced: creates the invoice (a draft, or finalized and e-mailed with
   * `send: true`) through the invoices module in this very transaction.
   */
  convert(
    tenant: Tenant,
    id: string,
    sellerName: string,
    body: ConvertEstimateDto,
    tx?: Tx,
  ): Promise<EstimateRow> {
    return this.db.transaction(
      (t) => convertEstimate(this.store, this.invoices, t, tenant, id, sellerName, body),
      { in: tx },
    );
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
      const expired = this.pastExpiry(
        current,
        await this.store.customerTime(tx, tenant, current.customer_id, now),
      );
      if (!claimed) return { outcome: 'replayed', estimate: current, expired };
      if (current.status !== 'sent' || expired) return { outcome: 'not_allowed', estimate: current, expired };
      const estimate = await this.store.move(tx, current, action, now, { decided_via: 'page' });
      return { outcome: 'decided', estimate, expired };
    });
  }

  pastExpiry(row: Pick<EstimateRow, 'expires_at'>, now = this.clock.now()): boolean {
    return pastExpiry(row, now);
  }

  /** The estimate or quote as a PDF (the invoice renderer, titled by kind, with the account's logo). */
  async pdf(row: EstimateRow): Promise<Buffer> {
    return renderInvoicePdf({ ...this.documentView(row), logo: await this.settings.logos(row.account_id) });
  }

  documentView(row: EstimateRow): InvoiceDocumentView {
    return estimateDocumentView(row, this.settings.publicBaseUrl);
  }

  // ---- the expiry job (estimate-expiry.ts) ----

  runExpiry(now: Date, scope: { test_clock?: string } = {}): Promise<number> {
    return runExpiry(this.db, this.store, now, scope);
  }

  nextExpiry(testClock: string, to: Date): Promise<Date | null> {
    return nextExpiry(this.db, testClock, to);
  }

  private async decide(
    tenant: Tenant,
    id: string,
    action: 'accept' | 'decline',
    tx?: Tx,
  ): Promise<EstimateRow> {
    return this.db.transaction(
      async (t) => {
        const current = await this.store.lock(t, tenant, id);
        const now = this.clock.now();
        const customerNow = await this.store.customerTime(t, tenant, current.customer_id, now);
        if (current.status === 'sent' && this.pastExpiry(current, customerNow)) {
          throw new ApiError(
            'invalid_state_transition',
            `Estimate '${id}' expired at ${new Date(current.expires_at as Date).toISOString()}.`,
          );
        }
        return this.store.move(t, current, action, now, { decided_via: 'api' });
      },
      { in: tx },
    );
  }
}
