// A payment receipt as a PDF (pdfkit, the invoices' Noto Sans embedded, the seller's logo):
// who was paid, the receipt number, when, how (card brand and last four digits), the amount,
// the invoice it paid if any, and what has been refunded since. Pure: the caller passes the
// receipt's view; amounts are bigint minor units formatted with their ISO 4217 exponent. Every
// word comes from the message files in the view's language (libs/platform i18n).

import PDFDocument from 'pdfkit';
import { messagesFor, type Messages } from '@paygrid/platform';
import { drawLogo, pdfFont, pdfFontName } from './pdf-parts';

const BODY = pdfFontName('body');
const BOLD = pdfFontName('bold');

export interface ReceiptView {
  /** The customer's language (English when absent). */
  messages?: Messages;
  number: string;
  seller_name: string | null;
  /** Address, tax ids, contact: printed under the name. */
  seller_lines: string[];
  paid_at: Date;
  amount: bigint;
  amount_refunded: bigint;
  currency: string;
  /** `Visa ending in 4242`, or null. */
  payment_method: string | null;
  invoice_number: string | null;
  email: string | null;
  logo?: Buffer | null;
}

const MARGIN = 50;
const INK = '#1a1a1a';
const MUTED = '#5f6368';
const RULE = '#d0d4d9';
const ACCENT = '#0b57d0';

/** Draws the PDF on this thread; the app renders through pdf-rendering.ts. */
export function drawReceiptPdf(view: ReceiptView): Promise<Buffer> {
  const m = view.messages ?? messagesFor([]);
  const money = (amount: bigint) => m.money(amount, view.currency);
  const doc = new PDFDocument({
    font: pdfFont('body'),
    size: 'A4',
    margin: MARGIN,
    lang: m.locale,
    displayTitle: true,
    info: {
      Title: m.t('receipt.doc_title', { number: view.number }),
      Author: view.seller_name ?? 'Paygrid',
      Creator: 'Paygrid',
      CreationDate: view.paid_at,
    },
  });
  doc.registerFont(BODY, pdfFont('body'));
  doc.registerFont(BOLD, pdfFont('bold'));
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;

  let nameX = left;
  if (view.logo) nameX += drawLogo(doc, view.logo, left, MARGIN);
  doc.font(BOLD).fontSize(18).fillColor(INK);
  doc.text(view.seller_name ?? '', nameX, MARGIN, { width: width * 0.6 - (nameX - left) });
  doc
    .fontSize(26)
    .fillColor(ACCENT)
    .text(m.t('receipt.title').toLocaleUpperCase(m.locale), left, MARGIN - 4, { width, align: 'right' });
  doc.font(BODY).fontSize(10).fillColor(MUTED);
  doc.text(m.t('pdf.number', { number: view.number }), left, MARGIN + 28, { width, align: 'right' });
  let y = MARGIN + 30;
  doc.fontSize(9);
  for (const line of view.seller_lines) {
    doc.text(line, left, y, { width: width * 0.5 });
    y = doc.y;
  }
  y = Math.max(y, MARGIN + 60) + 24;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  y += 16;

  const rows: [string, string][] = [
    [m.t('common.amount_paid'), money(view.amount)],
    [m.t('receipt.date_paid'), m.date(view.paid_at)],
  ];
  if (view.payment_method) rows.push([m.t('receipt.payment_method'), view.payment_method]);
  if (view.invoice_number) rows.push([m.t('receipt.invoice'), view.invoice_number]);
  if (view.amount_refunded > 0n) {
    rows.push([m.t('receipt.refunded'), money(view.amount_refunded)]);
    rows.push([m.t('receipt.net_paid'), money(view.amount - view.amount_refunded)]);
  }
  if (view.email) rows.push([m.t('receipt.sent_to'), view.email]);
  for (const [label, value] of rows) {
    doc.font(BODY).fontSize(10).fillColor(MUTED).text(label, left, y, { width: 150 });
    doc
      .font(BOLD)
      .fillColor(INK)
      .text(value, left + 160, y, { width: width - 160 });
    y = doc.y + 8;
  }
  y += 12;
  doc.font(BODY).fontSize(9).fillColor(MUTED);
  doc.text(m.t('receipt.keep', { seller: view.seller_name ?? m.t('receipt.the_seller') }), left, y, {
    width,
  });
  doc.end();
  return done;
}
