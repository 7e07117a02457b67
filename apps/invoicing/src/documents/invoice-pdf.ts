// Over 300 lines (394) on purpose: one pdfkit layout drawn top to bottom, whose sections share
// the cursor, the page breaks and the repeated table header; the view types and the helpers
// (pdf-parts.ts) are already apart. Split it by section if it grows again.
// Renders invoices, quotes and estimates as PDF (pdfkit): header with the document title and
// number, seller and bill-to blocks, the lines table (repeated header on every page), a
// totals box with the tax broken down by rate, the amount due and the payment link, and a
// footer with page numbers. Pure: the caller passes a view of the document's current data;
// amounts are bigint minor units, and words, money and dates come from the customer's
// language (view.messages, libs/platform i18n; money with its ISO 4217 exponent).
//
// Text is set in Noto Sans, embedded (pdfkit subsets it to the glyphs used): the standard PDF
// font Helvetica covers WinAnsi only, so "Zoë Łukasiewicz Ltd" came out as "Zoë V¶6–Pwicz Ltd".
// Noto Sans covers every European script (Latin with all its diacritics, Greek, Cyrillic), and
// an embedded TrueType font keeps every character extractable (copy, search, screen readers).

import PDFDocument from 'pdfkit';
import { messagesFor, type Messages } from '@paygrid/platform';
import { attachArchive, drawLogo, pdfFont, pdfFontName, xmpSafe, type PdfArchive } from './pdf-parts';
import { formatRate } from './format-rate';

export type { PdfArchive } from './pdf-parts';

export interface DocumentAddress {
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  postal_code?: string | null;
  state?: string | null;
  country?: string | null;
}

export interface DocumentParty {
  name: string | null;
  email?: string | null;
  phone?: string | null;
  tax_id?: string | null;
  address?: DocumentAddress | null;
  /** Further lines printed as given: the seller's legal name, tax ids, website. */
  notes?: string[];
}

export interface DocumentLine {
  description: string;
  quantity: bigint | number;
  unit_amount: bigint;
  /** Basis points: 2000 = 20 %. */
  tax_rate_bps: bigint | number;
  /** quantity x unit_amount (before discount and tax). */
  amount: bigint;
  /** The line's tax (after its share of the discount); used for the tax breakdown. */
  tax_amount?: bigint;
  /** The line's taxable amount (amount minus its discount share); for the breakdown. */
  taxable_amount?: bigint;
}

export interface InvoiceDocumentView {
  /** `Invoice` (default), `Quote`, `Estimate`. */
  title?: string;
  /** The document's language (BCP 47), for readers and screen readers; default `en`. */
  lang?: string;
  /** Null for a draft (no number yet). */
  number: string | null;
  /** `draft`, `open`, `paid`, `void`, `sent`, ...: drafts and void documents are marked. */
  status?: string;
  currency: string;
  issue_date: Date;
  due_date?: Date | null;
  /** Quotes and estimates: the offer's expiry. */
  valid_until?: Date | null;
  seller: DocumentParty;
  customer: DocumentParty;
  lines: DocumentLine[];
  subtotal: bigint;
  discount_total: bigint;
  /** e.g. `10 %` or `500.00 USD off` (shown next to the discount). */
  discount_label?: string | null;
  tax_total: bigint;
  total: bigint;
  /** Invoices: what has been paid and what is still due. Omitted for quotes. */
  amount_paid?: bigint | null;
  amount_due?: bigint | null;
  /** The hosted invoice page (pay online) or the quote page (accept online). */
  link_url?: string | null;
  /** Default `Pay online`. */
  link_label?: string | null;
  memo?: string | null;
  footer?: string | null;
  /** The seller's logo (PNG or JPEG bytes), drawn at the top left; the name follows it. */
  logo?: Buffer | null;
  /**
   * The words, money and dates in the customer's language (libs/platform i18n); default
   * English with "1,234.56 EUR" amounts. `lang` defaults to its locale.
   */
  messages?: Messages;
}

const PAGE_MARGIN = 50;
const INK = '#1a1a1a';
const MUTED = '#5f6368';
const RULE = '#d0d4d9';
const ACCENT = '#0b57d0';
const SHADE = '#f1f3f4';

function addressLines(party: DocumentParty, m: Messages): string[] {
  const a = party.address;
  const lines: string[] = [];
  if (a) {
    if (a.line1) lines.push(a.line1);
    if (a.line2) lines.push(a.line2);
    const cityLine = [a.postal_code, a.city].filter(Boolean).join(' ');
    const region = [cityLine, a.state].filter(Boolean).join(', ');
    if (region) lines.push(region);
    if (a.country) lines.push(a.country);
  }
  if (party.email) lines.push(party.email);
  if (party.phone) lines.push(party.phone);
  if (party.tax_id) lines.push(m.t('pdf.tax_id', { value: party.tax_id }));
  lines.push(...(party.notes ?? []));
  return lines;
}

/** The tax lines of the totals box: one per rate, on the taxable amount at that rate. */
function taxBreakdown(view: InvoiceDocumentView, m: Messages): { label: string; amount: bigint }[] {
  const byRate = new Map<bigint, { taxable: bigint; tax: bigint }>();
  let complete = true;
  for (const line of view.lines) {
    const rate = BigInt(line.tax_rate_bps);
    if (rate === 0n) continue;
    if (line.tax_amount === undefined) complete = false;
    const entry = byRate.get(rate) ?? { taxable: 0n, tax: 0n };
    entry.taxable += line.taxable_amount ?? line.amount;
    entry.tax += line.tax_amount ?? 0n;
    byRate.set(rate, entry);
  }
  if (!complete || byRate.size === 0) return [{ label: m.t('common.tax'), amount: view.tax_total }];
  return [...byRate.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([rate, { taxable, tax }]) => ({
      label: m.t('pdf.tax_on', { rate: formatRate(rate), amount: m.money(taxable, view.currency) }),
      amount: tax,
    }));
}

const BODY = pdfFontName('body');
const BOLD = pdfFontName('bold');

/** Draws the PDF on this thread; the app renders through pdf-rendering.ts. */
export function drawInvoicePdf(view: InvoiceDocumentView, archive?: PdfArchive): Promise<Buffer> {
  const m = view.messages ?? messagesFor([]);
  const title = view.title ?? m.t('pdf.invoice');
  // The info strings go into the XMP packet of an archival rendering (see xmpSafe).
  const meta = (value: string) => (archive ? xmpSafe(value) : value);
  const money = (amount: bigint) => m.money(amount, view.currency);
  const formatDate = (date: Date) => m.date(date);
  const doc = new PDFDocument({
    // The default font is Noto Sans too: pdfkit would otherwise set up Helvetica, a font that
    // is not embedded, which PDF/A forbids.
    font: pdfFont('body'),
    ...(archive ? { subset: 'PDF/A-3b' as const, pdfVersion: '1.7' as const } : {}),
    size: 'A4',
    margin: PAGE_MARGIN,
    bufferPages: true,
    lang: view.lang ?? m.locale,
    displayTitle: true,
    info: {
      Title: meta(`${title} ${view.number ?? '(draft)'}`),
      Author: meta(view.seller.name ?? 'Paygrid'),
      Subject: meta(`${title} for ${view.customer.name ?? view.customer.email ?? 'customer'}`),
      Creator: 'Paygrid',
      CreationDate: view.issue_date,
    },
  });
  doc.registerFont(BODY, pdfFont('body'));
  doc.registerFont(BOLD, pdfFont('bold'));
  doc.font(BODY);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = PAGE_MARGIN;
  const right = doc.page.width - PAGE_MARGIN;
  const width = right - left;
  const bottomLimit = doc.page.height - PAGE_MARGIN - 40;

  // Header: the logo and seller name (left), title and number (right).
  let nameX = left;
  if (view.logo) nameX += drawLogo(doc, view.logo, left, PAGE_MARGIN);
  doc.fillColor(INK).font(BOLD).fontSize(18);
  doc.text(view.seller.name ?? '', nameX, PAGE_MARGIN, { width: width * 0.6 - (nameX - left) });
  doc.font(BOLD).fontSize(26).fillColor(ACCENT);
  doc.text(title.toUpperCase(), left, PAGE_MARGIN - 4, { width, align: 'right' });
  doc.font(BODY).fontSize(10).fillColor(MUTED);
  const status = view.status?.toLowerCase();
  const marker = status === 'draft' ? 'DRAFT' : status === 'void' ? 'VOID' : null;
  doc.text(
    `${view.number ? m.t('pdf.number', { number: view.number }) : m.t('pdf.draft_no_number')}${marker && view.number ? ` (${marker})` : ''}`,
    left,
    PAGE_MARGIN + 28,
    { width, align: 'right' },
  );

  // Seller details under the name; dates on the right.
  let y = PAGE_MARGIN + 30;
  doc.font(BODY).fontSize(9).fillColor(MUTED);
  for (const line of addressLines(view.seller, m)) {
    doc.text(line, left, y, { width: width * 0.5 });
    y = doc.y;
  }
  const dates: [string, string][] = [[m.t('pdf.issue_date'), formatDate(view.issue_date)]];
  if (view.due_date) dates.push([m.t('pdf.due_date'), formatDate(view.due_date)]);
  if (view.valid_until) dates.push([m.t('pdf.valid_until'), formatDate(view.valid_until)]);
  let dy = PAGE_MARGIN + 50;
  for (const [label, value] of dates) {
    doc
      .font(BODY)
      .fontSize(9)
      .fillColor(MUTED)
      .text(label, right - 200, dy, { width: 90 });
    doc
      .font(BOLD)
      .fillColor(INK)
      .text(value, right - 110, dy, { width: 110, align: 'right' });
    dy += 14;
  }
  y = Math.max(y, dy) + 20;

  // Bill to.
  doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
  y += 12;
  doc.font(BOLD).fontSize(8).fillColor(MUTED).text(m.t('pdf.bill_to').toLocaleUpperCase(m.locale), left, y);
  y = doc.y + 3;
  doc.font(BOLD).fontSize(11).fillColor(INK);
  doc.text(view.customer.name ?? view.customer.email ?? '', left, y, { width: width * 0.6 });
  y = doc.y + 1;
  doc.font(BODY).fontSize(9).fillColor(MUTED);
  for (const line of addressLines(
    {
      ...view.customer,
      email: view.customer.name ? view.customer.email : null,
    },
    m,
  )) {
    doc.text(line, left, y, { width: width * 0.6 });
    y = doc.y;
  }
  y += 22;

  // Lines table.
  const columns = [
    { label: m.t('common.description'), x: left + 6, w: width * 0.42, align: 'left' as const },
    { label: m.t('common.qty'), x: left + width * 0.44, w: width * 0.08, align: 'right' as const },
    { label: m.t('common.unit_price'), x: left + width * 0.53, w: width * 0.17, align: 'right' as const },
    { label: m.t('common.tax'), x: left + width * 0.71, w: width * 0.09, align: 'right' as const },
    { label: m.t('common.amount'), x: left + width * 0.81, w: width * 0.19 - 6, align: 'right' as const },
  ];
  const tableHeader = () => {
    doc.rect(left, y, width, 20).fill(SHADE);
    doc.font(BOLD).fontSize(9).fillColor(INK);
    for (const c of columns) doc.text(c.label, c.x, y + 6, { width: c.w, align: c.align });
    y += 24;
  };
  tableHeader();
  doc.font(BODY).fontSize(9.5);
  for (const line of view.lines) {
    const cells = [
      line.description,
      BigInt(line.quantity).toString(),
      money(line.unit_amount),
      formatRate(line.tax_rate_bps),
      money(line.amount),
    ];
    doc.font(BODY).fontSize(9.5);
    const height = Math.max(...cells.map((text, i) => doc.heightOfString(text, { width: columns[i].w }))) + 8;
    if (y + height > bottomLimit) {
      doc.addPage();
      y = PAGE_MARGIN;
      tableHeader();
      doc.font(BODY).fontSize(9.5);
    }
    doc.fillColor(INK);
    cells.forEach((text, i) =>
      doc.text(text, columns[i].x, y + 2, { width: columns[i].w, align: columns[i].align }),
    );
    y += height;
    doc
      .moveTo(left, y - 3)
      .lineTo(right, y - 3)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
  }

  // Totals box.
  const rows: { label: string; value: string; strong?: boolean }[] = [
    { label: m.t('common.subtotal'), value: money(view.subtotal) },
  ];
  if (view.discount_total > 0n) {
    rows.push({
      label: `${m.t('common.discount')}${view.discount_label ? ` (${view.discount_label})` : ''}`,
      value: money(-view.discount_total),
    });
  }
  for (const tax of taxBreakdown(view, m)) rows.push({ label: tax.label, value: money(tax.amount) });
  rows.push({ label: m.t('common.total'), value: money(view.total), strong: true });
  if (view.amount_paid !== undefined && view.amount_paid !== null) {
    rows.push({ label: m.t('common.amount_paid'), value: money(view.amount_paid) });
  }
  const due = view.amount_due ?? null;
  const boxWidth = 250;
  const boxX = right - boxWidth;
  const boxHeight = rows.length * 16 + (due !== null ? 30 : 0) + 12;
  y += 10;
  if (y + boxHeight > bottomLimit) {
    doc.addPage();
    y = PAGE_MARGIN;
  }
  let ty = y + 6;
  for (const row of rows) {
    doc
      .font(row.strong ? BOLD : BODY)
      .fontSize(row.strong ? 10.5 : 9.5)
      .fillColor(INK);
    doc.text(row.label, boxX + 8, ty, { width: boxWidth * 0.55 - 8 });
    doc.text(row.value, boxX + boxWidth * 0.55, ty, { width: boxWidth * 0.45 - 8, align: 'right' });
    ty += 16;
  }
  if (due !== null) {
    ty += 4;
    doc.rect(boxX, ty - 4, boxWidth, 24).fill(ACCENT);
    doc.font(BOLD).fontSize(11).fillColor('#ffffff');
    doc.text(m.t('common.amount_due'), boxX + 8, ty + 3, { width: boxWidth * 0.5 });
    doc.text(money(due), boxX + boxWidth * 0.45, ty + 3, { width: boxWidth * 0.55 - 8, align: 'right' });
    ty += 26;
  }
  doc
    .rect(boxX, y, boxWidth, ty - y)
    .lineWidth(0.75)
    .strokeColor(RULE)
    .stroke();
  y = ty + 20;

  // Payment (or acceptance) link, memo.
  if (view.link_url) {
    if (y + 40 > bottomLimit) {
      doc.addPage();
      y = PAGE_MARGIN;
    }
    doc
      .font(BOLD)
      .fontSize(10)
      .fillColor(INK)
      .text(view.link_label ?? m.t('pdf.pay_online'), left, y);
    y = doc.y + 2;
    doc.font(BODY).fontSize(9.5).fillColor(ACCENT);
    doc.text(view.link_url, left, y, { width, link: view.link_url, underline: true });
    y = doc.y + 14;
  }
  if (view.memo) {
    doc.font(BODY).fontSize(9.5).fillColor(INK).text(view.memo, left, y, { width });
    y = doc.y + 10;
  }

  // Footer on every page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const footerY = doc.page.height - PAGE_MARGIN - 10;
    // Writing below the bottom margin would add a page; lift the margin for the footer.
    doc.page.margins.bottom = 0;
    doc
      .moveTo(left, footerY - 6)
      .lineTo(right, footerY - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.font(BODY).fontSize(8).fillColor(MUTED);
    const parts = [view.footer ?? view.seller.name, `${title} ${view.number ?? '(draft)'}`].filter(Boolean);
    doc.text(parts.join('  -  '), left, footerY, { width: width * 0.7, lineBreak: false });
    doc.text(m.t('pdf.page_of', { page: i - range.start + 1, pages: range.count }), left, footerY, {
      width,
      align: 'right',
      lineBreak: false,
    });
  }
  if (archive) attachArchive(doc, archive, view.issue_date);
  doc.end();
  return done;
}
