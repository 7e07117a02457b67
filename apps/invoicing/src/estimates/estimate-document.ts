// An estimate or quote as a document: its PDF view (the invoice renderer, titled by kind) and
// the e-mail of a send (page link, PDF attached and rendered by the mail worker at send time).

import { escapeHtml, toMinor, type Tx } from '@paygrid/platform';
import type { InvoiceDocumentView } from '../documents/invoice-pdf';
import { documentViewParts } from '../documents/document-view-parts';
import { mailHtml } from '../documents/mail-templates';
import type { MailService } from '../mail/mail.service';
import type { EstimateKind } from './estimate-state';
import type { EstimateRow } from './estimate.serializer';
import { quoteMessages } from './quote-page';

export const KIND_TITLE: Record<EstimateKind, string> = { estimate: 'Estimate', quote: 'Quote' };

/** `Quote-Q-0001.pdf`, `Estimate-EST-0002.pdf` (the id while a draft has no number). */
export const estimatePdfFilename = (row: Pick<EstimateRow, 'kind' | 'number' | 'id'>) =>
  `${KIND_TITLE[row.kind]}-${(row.number ?? row.id).replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;

export function estimateDocumentView(row: EstimateRow, publicBaseUrl: string): InvoiceDocumentView {
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
    link_url: row.status === 'sent' ? `${publicBaseUrl}/q/${row.page_token}` : null,
    link_label: messages.t(`pdf.review_online.${row.kind}`),
    memo: row.description,
  };
}

export async function queueEstimateMail(
  mail: MailService,
  publicBaseUrl: string,
  tx: Tx,
  row: EstimateRow,
  to: string,
  sendKey: string,
  now: Date,
): Promise<void> {
  const m = quoteMessages(row);
  const title = m.t(`quote.title.${row.kind}`, { number: row.number ?? '' }).trim();
  const seller = row.seller_name ?? m.t('mail.your_supplier');
  const name = row.customer_snapshot?.name;
  const url = `${publicBaseUrl}/q/${row.page_token}`;
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
  await mail.enqueue(tx, {
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
