// The hosted invoice page's HTML: server-rendered, no JavaScript, one stylesheet served from
// /i/assets/invoice.css (so the CSP needs no 'unsafe-inline'). Every interpolated value is
// escaped. The "Pay" button is a plain link to the payments service's card form.

import {
  brandStylesheetPath,
  escapeHtml,
  formatMinor,
  renderMessagePage,
  renderPage,
  toMinor,
} from '@paygrid/platform';
import type { SellerBranding } from '../account/account-profile';
import { brandLogo, sellerLines, supportLine } from '../documents/seller-lines';
import type { SerializedInvoice } from './invoice.serializer';

export const INVOICE_PAGE_CSS = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:44rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
main{border-top:.375rem solid var(--brand,transparent)}
.brand-logo{display:block;max-width:12rem;max-height:4rem;margin:0 0 1rem}
.seller-contact{color:#595959;font-size:.875rem}
h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1rem;margin:1.25rem 0 .25rem}
.amount{font-size:1.75rem;font-weight:700;margin:.5rem 0 1rem}
.parties{display:flex;gap:2rem;flex-wrap:wrap}.parties>div{flex:1;min-width:12rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:.5rem 0}dt{color:#595959}dd{margin:0}
table{width:100%;border-collapse:collapse;margin:1rem 0}
th,td{text-align:left;padding:.35rem .25rem;border-bottom:1px solid #e3e3e3;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap}
tfoot th{font-weight:500}tfoot tr.total th,tfoot tr.total td{font-weight:700}
.actions{display:flex;gap:1rem;flex-wrap:wrap;align-items:center;margin-top:1rem}
a.button{display:inline-block;padding:.75rem 1.5rem;font-weight:600;color:#fff;background:#0b57d0;border-radius:4px;text-decoration:none}
a:focus-visible{outline:3px solid #e37400;outline-offset:2px}
.error{padding:.75rem;margin:1rem 0;border:2px solid #b3261e;border-radius:4px;color:#8c1d18;background:#fdecea}
.success{padding:.75rem;margin:1rem 0;border:2px solid #146c2e;border-radius:4px;color:#0f5323;background:#e6f4ea}
.notice{padding:.75rem;margin:1rem 0;border:2px solid #8a6d00;border-radius:4px;color:#5c4900;background:#fff8e1}
.muted{color:#595959;font-size:.875rem}
`;

const STYLESHEET = '/i/assets/invoice.css';

const DATE = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});
const date = (value: string | null) => (value ? DATE.format(new Date(value)) : '');
/** 2000 -> "20%", 525 -> "5.25%" (integer arithmetic). */
const rate = (bps: number) => {
  const fraction = String(bps % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${Math.trunc(bps / 100)}${fraction ? `.${fraction}` : ''}%`;
};

/** What the page shows above the invoice, from the invoice's state and the `?payment=` return. */
export type PaymentBanner =
  | { kind: 'none' }
  | { kind: 'processing' }
  | { kind: 'failed'; message: string }
  | { kind: 'paid' }
  | { kind: 'void' };

export interface InvoicePageView {
  invoice: SerializedInvoice;
  banner: PaymentBanner;
  /** The card form's address, when the invoice can be paid now. */
  payUrl: string | null;
  pdfUrl: string;
  /** The seller's logo and colour as the profile reads now (the identity is the invoice's snapshot). */
  branding?: SellerBranding;
}

function party(heading: string, name: string | null, lines: (string | null | undefined)[]): string {
  const rest = lines.filter((l): l is string => Boolean(l)).map((l) => `<br>${escapeHtml(l)}`);
  return `<div><h2>${heading}</h2><p>${escapeHtml(name ?? '')}${rest.join('')}</p></div>`;
}

function banner(view: InvoicePageView): string {
  const b = view.banner;
  if (b.kind === 'paid') {
    return `<div class="success" role="status"><strong>Paid.</strong> Thank you: this invoice has been paid${
      view.invoice.status_transitions.paid_at
        ? ` on ${escapeHtml(date(view.invoice.status_transitions.paid_at))}`
        : ''
    }.</div>`;
  }
  if (b.kind === 'void')
    return '<div class="notice" role="status">This invoice has been voided; nothing is due.</div>';
  if (b.kind === 'processing') {
    return '<div class="notice" role="status" aria-live="polite"><strong>Processing your payment.</strong> This page refreshes by itself until the payment is confirmed; do not pay again.</div>';
  }
  if (b.kind === 'failed') {
    return `<div class="error" role="alert"><strong>Your payment was not completed:</strong> ${escapeHtml(
      b.message,
    )} You have not been charged; you can try again with another card.</div>`;
  }
  return '';
}

export function renderInvoicePage(view: InvoicePageView): string {
  const inv = view.invoice;
  const money = (value: number) => escapeHtml(formatMinor(toMinor(value), inv.currency));
  const seller = inv.seller?.name ?? '';
  const customer = inv.customer_details;
  const address = customer?.address;
  const title = `Invoice ${inv.number ?? ''} from ${seller}`;
  const rows = inv.lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description)}</td><td class="num">${l.quantity}</td><td class="num">${money(
          l.unit_amount,
        )}</td><td class="num">${rate(l.tax_rate_bps)}</td><td class="num">${money(l.amount)}</td></tr>`,
    )
    .join('\n');
  const discount = inv.discount_total
    ? `<tr><th scope="row" colspan="4">Discount${
        inv.discount && 'percent_bps' in inv.discount ? ` (${rate(inv.discount.percent_bps)})` : ''
      }</th><td class="num">-${money(inv.discount_total)}</td></tr>`
    : '';
  const pay = view.payUrl
    ? `<a class="button" href="${escapeHtml(view.payUrl)}">Pay ${money(inv.amount_due)}</a>`
    : '';
  const body = `${brandLogo(view.branding, seller)}<h1>Invoice ${escapeHtml(inv.number ?? '')}</h1>
<p class="muted">from ${escapeHtml(seller)}</p>
${banner(view)}
<p class="amount">Amount due: <span id="amount-due">${money(inv.amount_due)}</span></p>
<dl>
<dt>Invoice number</dt><dd>${escapeHtml(inv.number ?? '')}</dd>
<dt>Issued</dt><dd>${escapeHtml(date(inv.status_transitions.finalized_at))}</dd>
${inv.due_date ? `<dt>Due</dt><dd>${escapeHtml(date(inv.due_date))}</dd>` : ''}
</dl>
<div class="parties">
${party('From', seller, sellerLines(inv.seller))}
${party('Bill to', customer?.name ?? null, [
  customer?.email,
  address?.line1,
  address?.line2,
  [address?.postal_code, address?.city].filter(Boolean).join(' '),
  address?.country,
  customer?.tax_id ? `Tax id: ${customer.tax_id}` : null,
])}
</div>
${inv.description ? `<p>${escapeHtml(inv.description)}</p>` : ''}
<table>
<caption class="muted">Items</caption>
<thead><tr><th scope="col">Description</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Tax</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>
<tr><th scope="row" colspan="4">Subtotal</th><td class="num">${money(inv.subtotal)}</td></tr>
${discount}
<tr><th scope="row" colspan="4">Tax</th><td class="num">${money(inv.tax_total)}</td></tr>
<tr class="total"><th scope="row" colspan="4">Total</th><td class="num">${money(inv.total)}</td></tr>
<tr><th scope="row" colspan="4">Amount paid</th><td class="num">${money(inv.amount_paid)}</td></tr>
<tr class="total"><th scope="row" colspan="4">Amount due</th><td class="num">${money(inv.amount_due)}</td></tr>
</tfoot>
</table>
<div class="actions">
${pay}
<a href="${escapeHtml(view.pdfUrl)}" download>Download PDF</a>
</div>
${supportLine(view.branding)}${inv.livemode ? '' : '<p class="muted">Test mode: pay with a sandbox test card, such as 4242 4242 4242 4242.</p>'}`;
  const refreshSeconds = view.banner.kind === 'processing' ? 2 : undefined;
  const brandStylesheet = brandStylesheetPath('i', view.branding?.brand_color ?? null);
  return renderPage({ title, stylesheet: STYLESHEET, refreshSeconds, brandStylesheet }, body);
}

export function renderNotFound(): string {
  return renderMessagePage(
    { stylesheet: STYLESHEET },
    'Invoice not found',
    'Check the link you were given, or ask the sender for a new one.',
  );
}
