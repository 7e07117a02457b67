// The hosted invoice page's HTML: server-rendered, no JavaScript, one stylesheet served from
// /i/assets/invoice.css (so the CSP needs no 'unsafe-inline'). Every interpolated value is
// escaped. The "Pay" button is a plain link to the payments service's card form.

import {
  brandStylesheetPath,
  hostedPageBaseCss,
  escapeHtml,
  localizedPaymentMessage,
  messagesFor,
  type Messages,
  renderMessagePage,
  renderPage,
  toMinor,
} from '@paygrid/platform';
import type { SellerBranding } from '../account/account-profile';
import { brandLogo, sellerLines, supportLine } from '../account/seller-lines';
import type { SerializedInvoice } from './invoice.serializer';

export const INVOICE_PAGE_CSS = `${hostedPageBaseCss('44rem')}
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
@media (max-width:36rem){main{margin:0;padding:1rem;border-radius:0}
table.lines,table.lines tbody,table.lines tfoot,table.lines caption{display:block}
table.lines thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
table.lines tr{display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 .75rem;padding:.4rem 0;border-bottom:1px solid #e3e3e3}
table.lines th,table.lines td{display:block;padding:0;border:0;text-align:left}
table.lines tbody td:first-child{flex:1 1 100%;font-weight:600}
table.lines tbody td.num::before{content:attr(data-label) ": ";color:#595959}}
`;

const STYLESHEET = '/i/assets/invoice.css';

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
  | { kind: 'failed'; message: string; code: string | null }
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

function banner(view: InvoicePageView, m: Messages): string {
  const b = view.banner;
  const t = (key: Parameters<Messages['t']>[0], params?: Record<string, string>) =>
    escapeHtml(m.t(key, params));
  if (b.kind === 'paid') {
    const paidAt = view.invoice.status_transitions.paid_at;
    return `<div class="success" role="status"><strong>${t('invoice_page.paid')}</strong> ${
      paidAt ? t('invoice_page.paid_thanks_on', { date: m.date(paidAt) }) : t('invoice_page.paid_thanks')
    }</div>`;
  }
  if (b.kind === 'void') return `<div class="notice" role="status">${t('invoice_page.void')}</div>`;
  if (b.kind === 'processing') {
    return `<div class="notice" role="status" aria-live="polite"><strong>${t('invoice_page.processing')}</strong> ${t(
      'invoice_page.processing_detail',
    )}</div>`;
  }
  if (b.kind === 'failed') {
    // The payments service's message is English (as the API reports it): ours are translated.
    return `<div class="error" role="alert"><strong>${t('invoice_page.failed')}</strong> ${escapeHtml(
      localizedPaymentMessage(b.message, m, b.code),
    )} ${t('invoice_page.failed_detail')}</div>`;
  }
  return '';
}

export function renderInvoicePage(view: InvoicePageView): string {
  const inv = view.invoice;
  const m = messagesFor(inv.customer_details?.preferred_locales);
  const t = (key: Parameters<Messages['t']>[0], params?: Record<string, string>) =>
    escapeHtml(m.t(key, params));
  const money = (value: number) => escapeHtml(m.money(toMinor(value), inv.currency));
  const date = (value: string | null) => (value ? m.date(value) : '');
  const seller = inv.seller?.name ?? '';
  const customer = inv.customer_details;
  const address = customer?.address;
  const title = m.t('invoice_page.page_title', { number: inv.number ?? '', seller });
  const rows = inv.lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.description)}</td><td class="num" data-label="${t('common.qty')}">${l.quantity}</td><td class="num" data-label="${t(
          'common.unit_price',
        )}">${money(l.unit_amount)}</td><td class="num" data-label="${t('common.tax')}">${rate(
          l.tax_rate_bps,
        )}</td><td class="num" data-label="${t('common.amount')}">${money(l.amount)}</td></tr>`,
    )
    .join('\n');
  const discount = inv.discount_total
    ? `<tr><th scope="row" colspan="4">${t('common.discount')}${
        inv.discount?.percent_bps !== undefined ? ` (${rate(inv.discount.percent_bps)})` : ''
      }</th><td class="num">-${money(inv.discount_total)}</td></tr>`
    : '';
  const pay = view.payUrl
    ? `<a class="button" href="${escapeHtml(view.payUrl)}">${escapeHtml(
        m.t('invoice_page.pay', { amount: m.money(toMinor(inv.amount_due), inv.currency) }),
      )}</a>`
    : '';
  const body = `${brandLogo(view.branding, seller)}<h1>${t('invoice_page.title', { number: inv.number ?? '' })}</h1>
<p class="muted">${t('invoice_page.from_seller', { seller })}</p>
${banner(view, m)}
<p class="amount">${t('common.amount_due')}: <span id="amount-due">${money(inv.amount_due)}</span></p>
<dl>
<dt>${t('common.invoice_number')}</dt><dd>${escapeHtml(inv.number ?? '')}</dd>
<dt>${t('common.issued')}</dt><dd>${escapeHtml(date(inv.status_transitions.finalized_at))}</dd>
${inv.due_date ? `<dt>${t('common.due')}</dt><dd>${escapeHtml(date(inv.due_date))}</dd>` : ''}
</dl>
<div class="parties">
${party(t('common.from'), seller, sellerLines(inv.seller))}
${party(t('common.bill_to'), customer?.name ?? null, [
  customer?.email,
  address?.line1,
  address?.line2,
  [address?.postal_code, address?.city].filter(Boolean).join(' '),
  address?.country,
  customer?.tax_id ? m.t('common.tax_id', { value: customer.tax_id }) : null,
])}
</div>
${inv.description ? `<p>${escapeHtml(inv.description)}</p>` : ''}
<table class="lines">
<caption class="muted">${t('common.items')}</caption>
<thead><tr><th scope="col">${t('common.description')}</th><th scope="col" class="num">${t('common.qty')}</th><th scope="col" class="num">${t(
    'common.unit_price',
  )}</th><th scope="col" class="num">${t('common.tax')}</th><th scope="col" class="num">${t('common.amount')}</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>
<tr><th scope="row" colspan="4">${t('common.subtotal')}</th><td class="num">${money(inv.subtotal)}</td></tr>
${discount}
<tr><th scope="row" colspan="4">${t('common.tax')}</th><td class="num">${money(inv.tax_total)}</td></tr>
<tr class="total"><th scope="row" colspan="4">${t('common.total')}</th><td class="num">${money(inv.total)}</td></tr>
<tr><th scope="row" colspan="4">${t('common.amount_paid')}</th><td class="num">${money(inv.amount_paid)}</td></tr>
<tr class="total"><th scope="row" colspan="4">${t('common.amount_due')}</th><td class="num">${money(inv.amount_due)}</td></tr>
</tfoot>
</table>
<div class="actions">
${pay}
<a href="${escapeHtml(view.pdfUrl)}" download>${t('common.download_pdf')}</a>
</div>
${supportLine(view.branding, m)}${inv.livemode ? '' : `<p class="muted">${t('common.test_mode')}</p>`}`;
  const refreshSeconds = view.banner.kind === 'processing' ? 2 : undefined;
  const brandStylesheet = brandStylesheetPath('i', view.branding?.brand_color ?? null);
  return renderPage({ title, stylesheet: STYLESHEET, refreshSeconds, brandStylesheet, lang: m.locale }, body);
}

export function renderNotFound(): string {
  return renderMessagePage(
    { stylesheet: STYLESHEET },
    'Invoice not found',
    'Check the link you were given, or ask the sender for a new one.',
  );
}
