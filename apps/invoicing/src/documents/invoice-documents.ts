// The documents module's side of the invoices port (invoices/invoice-mailer.ts): the invoice
// as a PDF (from its public JSON) and the invoice e-mail, queued in the caller's transaction
// with the PDF named as an `invoice_pdf` attachment that the mail worker renders at send time
// from the invoice's current data (through the loader the invoices module registers).

import { ApiError, type Clock, messagesFor, toMinor, type Tenant, type Tx } from '@paygrid/platform';
import { PORTAL_MAIL_LINK_TTL_S, portalLink } from '../portal/portal-token';
import type { InvoiceDocuments, InvoiceMail } from '../invoices/invoice-mailer';
import { invoicePdfFilename, type SerializedInvoice } from '../invoices/invoice.serializer';
import type { MailService } from '../mail/mail.service';
import { documentViewParts } from './document-view-parts';
import { renderFacturX } from './facturx';
import { invoiceToUbl, missingForEInvoice } from './ubl';
import { escapeHtml, mailHtml } from './mail-templates';
import type { DocumentParty, InvoiceDocumentView } from './invoice-pdf';
import { renderInvoicePdf } from './pdf-rendering';
import { taxIdLine } from '../account/seller-lines';

export type InvoiceLoader = (owner: Tenant, id: string) => Promise<SerializedInvoice>;
/** The account's current logo (PNG or JPEG bytes) for its PDFs, or null. */
export type LogoLoader = (account: string) => Promise<Buffer | null>;

/** What the "manage" link of a subscription's invoice mail needs (the customer portal). */
export interface PortalLinkSettings {
  secret: string;
  publicBaseUrl: string;
  clock: Clock;
}

/** The invoice, or 409 invoice_incomplete naming what an e-invoice needs and it lacks. */
function eInvoiceReady(invoice: SerializedInvoice): SerializedInvoice {
  const missing = missingForEInvoice(invoice);
  if (missing.length) {
    throw new ApiError('invoice_incomplete', `An e-invoice needs ${missing.join(', ')}.`);
  }
  return invoice;
}

const big = (value: number | string | null | undefined) => toMinor(value ?? 0);

/** The PDF view of an invoice's public JSON. */
export function invoiceView(invoice: SerializedInvoice): InvoiceDocumentView {
  const messages = messagesFor(invoice.customer_details?.preferred_locales);
  return {
    messages,
    title: messages.t('pdf.invoice'),
    number: invoice.number,
    status: invoice.status,
    currency: invoice.currency,
    issue_date: new Date(invoice.status_transitions.finalized_at ?? invoice.created_at ?? Date.now()),
    due_date: invoice.due_date ? new Date(invoice.due_date) : null,
    seller: sellerParty(invoice.seller),
    ...documentViewParts({ ...invoice, customer: invoice.customer_details }),
    amount_paid: big(invoice.amount_paid),
    amount_due: big(invoice.amount_due),
    link_url: invoice.status === 'open' || invoice.status === 'uncollectible' ? invoice.hosted_url : null,
    link_label: messages.t('pdf.pay_online'),
    memo: [invoice.description, ...vatNotes(invoice)].filter(Boolean).join('\n') || null,
    footer: invoice.seller?.footer ?? null,
  };
}

const VAT_NOTE_LABELS: Record<string, string> = {
  AE: 'Reverse charge',
  K: 'Intra-community supply',
  G: 'Export outside the EU',
};

/** What the law asks an invoice to say when it charges no VAT: one note per exempt or reverse-charge category. */
function vatNotes(invoice: SerializedInvoice): string[] {
  const notes = new Map<string, string>();
  for (const line of invoice.lines) {
    if (!line.tax_exemption_reason) continue;
    const label = VAT_NOTE_LABELS[line.tax_category] ?? 'VAT exempt';
    notes.set(line.tax_category, `${label}: ${line.tax_exemption_reason}`);
  }
  return [...notes.values()];
}

/** The seller block of the PDF, from the invoice's snapshot of the business profile. */
function sellerParty(seller: SerializedInvoice['seller']): DocumentParty {
  if (!seller) return { name: null };
  return {
    name: seller.name,
    address: seller.address,
    email: seller.email,
    phone: seller.phone,
    notes: [
      ...(seller.legal_name && seller.legal_name !== seller.name ? [seller.legal_name] : []),
      ...seller.tax_ids.map(taxIdLine),
      ...(seller.website ? [seller.website] : []),
    ],
  };
}

export class InvoiceDocumentsService implements InvoiceDocuments {
  private loader?: InvoiceLoader;

  constructor(
    private readonly mail: MailService,
    private readonly logos: LogoLoader,
    private readonly portal?: PortalLinkSettings,
  ) {
    mail.registerAttachment('invoice_pdf', async (ref, owner) => {
      if (!this.loader) throw new Error('no invoice loader registered yet');
      return {
        content: await this.renderInvoicePdf(await this.loader(owner, ref), owner.account),
        contentType: 'application/pdf',
      };
    });
  }

  /** The invoices module tells the mail worker how to read an invoice when it builds the PDF. */
  useInvoiceLoader(loader: InvoiceLoader): void {
    this.loader = loader;
  }

  async renderInvoicePdf(invoice: SerializedInvoice, account: string): Promise<Buffer> {
    return renderInvoicePdf({ ...invoiceView(invoice), logo: await this.logos(account) });
  }

  async renderFacturX(invoice: SerializedInvoice, account: string): Promise<Buffer> {
    const ready = eInvoiceReady(invoice);
    return renderFacturX(ready, { ...invoiceView(ready), logo: await this.logos(account) });
  }

  renderUbl(invoice: SerializedInvoice): string {
    return invoiceToUbl(eInvoiceReady(invoice));
  }

  /**
   * A subscription's invoice mail carries a "manage" link to the customer portal (cancel,
   * replace the card), valid for PORTAL_MAIL_LINK_TTL_S.
   */
  private manageLink(mail: InvoiceMail, now: Date): string | null {
    const invoice = mail.invoice;
    if (!this.portal || !invoice.subscription || !invoice.customer) return null;
    return portalLink(
      this.portal.secret,
      this.portal.publicBaseUrl,
      {
        account: mail.account,
        livemode: mail.livemode,
        customer: invoice.customer,
        return_url: null,
        locale: null,
      },
      now,
      PORTAL_MAIL_LINK_TTL_S,
    ).url;
  }

  async enqueueInvoiceMail(tx: Tx, mail: InvoiceMail, now: Date): Promise<void> {
    const invoice = mail.invoice;
    const m = messagesFor(invoice.customer_details?.preferred_locales);
    const seller = invoice.seller?.name ?? m.t('mail.your_supplier');
    const name = invoice.customer_details?.name;
    const number = invoice.number ?? '';
    const amount = m.money(big(invoice.amount_due), invoice.currency);
    const title = m.t('invoice_page.title', { number }).trim();
    const paragraphs = [
      name ? m.t('mail.hello_name', { name }) : m.t('mail.hello'),
      invoice.due_date
        ? m.t('mail.invoice.sent_due', { seller, number, amount, date: m.date(invoice.due_date) })
        : m.t('mail.invoice.sent', { seller, number, amount }),
    ];
    const link = invoice.hosted_url;
    const manage = this.manageLink(mail, now);
    const text = [
      ...paragraphs,
      ...(link ? [m.t('mail.invoice.view_and_pay', { url: link })] : []),
      m.t('mail.invoice.attached'),
      ...(manage ? [m.t('mail.invoice.manage', { url: manage })] : []),
      `- ${seller}`,
    ].join('\n\n');
    const html = mailHtml(
      title,
      [
        ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
        ...(link
          ? [
              `<p><a href="${escapeHtml(link)}">${escapeHtml(m.t('mail.invoice.view_and_pay_link', { number }))}</a></p>`,
            ]
          : []),
        `<p>${escapeHtml(m.t('mail.invoice.attached'))}</p>`,
        ...(manage
          ? [`<p><a href="${escapeHtml(manage)}">${escapeHtml(m.t('mail.invoice.manage_link'))}</a></p>`]
          : []),
        `<p>${escapeHtml(seller)}</p>`,
      ],
      m.locale,
    );
    await this.mail.enqueue(tx, {
      account: mail.account,
      livemode: mail.livemode,
      send_key: mail.sendKey,
      to: [mail.to],
      subject: m.t('mail.invoice.subject', { number, seller }),
      text,
      html,
      attachments: [{ kind: 'invoice_pdf', ref: invoice.id, filename: invoicePdfFilename(invoice) }],
      at: now,
    });
  }
}
