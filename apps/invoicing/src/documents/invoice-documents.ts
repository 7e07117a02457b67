// The documents module's side of the invoices port (invoices/invoice-mailer.ts): the invoice
// as a PDF (from its public JSON) and the invoice e-mail, queued in the caller's transaction
// with the PDF named as an `invoice_pdf` attachment that the mail worker renders at send time
// from the invoice's current data (through the loader the invoices module registers).

import { formatMinor, toMinor, type Tenant, type Tx } from '@paygrid/platform';
import type { InvoiceDocuments, InvoiceMail } from '../invoices/invoice-mailer';
import { invoicePdfFilename, type SerializedInvoice } from '../invoices/invoice.serializer';
import type { MailService } from '../mail/mail.service';
import { documentViewParts } from './document-parts';
import { renderFacturX } from './facturx';
import { escapeHtml, mailHtml } from './mail-templates';
import { formatDate, renderInvoicePdf, type DocumentParty, type InvoiceDocumentView } from './invoice-pdf';
import { taxIdLine } from './seller-lines';

export type InvoiceLoader = (owner: Tenant, id: string) => Promise<SerializedInvoice>;
/** The account's current logo (PNG or JPEG bytes) for its PDFs, or null. */
export type LogoLoader = (account: string) => Promise<Buffer | null>;

const big = (value: number | string | null | undefined) => toMinor(value ?? 0);

/** The PDF view of an invoice's public JSON. */
export function invoiceView(invoice: SerializedInvoice): InvoiceDocumentView {
  return {
    title: 'Invoice',
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
    link_label: 'Pay online',
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
    return renderFacturX(invoice, { ...invoiceView(invoice), logo: await this.logos(account) });
  }

  async enqueueInvoiceMail(tx: Tx, mail: InvoiceMail, now: Date): Promise<void> {
    const invoice = mail.invoice;
    const seller = invoice.seller?.name ?? 'Your supplier';
    const name = invoice.customer_details?.name;
    const amountDue = formatMinor(big(invoice.amount_due), invoice.currency);
    const title = `Invoice ${invoice.number ?? ''}`.trim();
    const due = invoice.due_date ? `, due ${formatDate(new Date(invoice.due_date))}` : '';
    const paragraphs = [
      `${name ? `Hello ${name},` : 'Hello,'}`,
      `${seller} has sent you invoice ${invoice.number ?? ''} for ${amountDue}${due}.`.replace(/\s+/g, ' '),
    ];
    const link = invoice.hosted_url;
    const text = [
      ...paragraphs,
      ...(link ? [`View and pay it online: ${link}`] : []),
      'The invoice is attached as a PDF.',
      `- ${seller}`,
    ].join('\n\n');
    const html = mailHtml(title, [
      ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
      ...(link
        ? [
            `<p><a href="${escapeHtml(link)}">View and pay invoice ${escapeHtml(invoice.number ?? '')}</a></p>`,
          ]
        : []),
      '<p>The invoice is attached as a PDF.</p>',
      `<p>${escapeHtml(seller)}</p>`,
    ]);
    await this.mail.enqueue(tx, {
      account: mail.account,
      livemode: mail.livemode,
      send_key: mail.sendKey,
      to: [mail.to],
      subject: `${title} from ${seller}`,
      text,
      html,
      attachments: [{ kind: 'invoice_pdf', ref: invoice.id, filename: invoicePdfFilename(invoice) }],
      at: now,
    });
  }
}
