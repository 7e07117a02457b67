// The customer's page for an estimate or quote (/q/<token>): server-rendered, no JavaScript,
// one small stylesheet served from /q/assets/quote.css (so the CSP needs no 'unsafe-inline').
// Accept and decline are two plain POST forms carrying the same single-use CSRF token.
// Every interpolated value is escaped.

import {
  brandStylesheetPath,
  hostedPageBaseCss,
  escapeHtml,
  type MessageKey,
  messagesFor,
  type Messages,
  renderMessagePage,
  renderPage,
  toMinor,
} from '@paygrid/platform';
import type { SellerBranding, SellerSnapshot } from '../account/account-profile';
import { brandLogo, sellerLines, supportLine } from '../account/seller-lines';
import { formatRate } from '../documents/format-rate';
import type { EstimateRow } from './estimate.serializer';

export const QUOTE_PAGE_CSS = `${hostedPageBaseCss('44rem')}
h1{font-size:1.4rem;margin:0 0 .25rem}
h2{font-size:1rem;margin:1.25rem 0 .25rem}
.meta{display:flex;flex-wrap:wrap;gap:1.5rem;margin:.75rem 0}
.meta div{min-width:8rem}
.label{display:block;color:#595959;font-size:.8rem;text-transform:uppercase;letter-spacing:.04em}
table{width:100%;border-collapse:collapse;margin:1rem 0}
th,td{text-align:left;padding:.4rem .25rem;border-bottom:1px solid #e3e3e3;vertical-align:top}
th.num,td.num{text-align:right;white-space:nowrap}
tfoot th,tfoot td{border-bottom:0}
tfoot tr.total th,tfoot tr.total td{font-weight:700;font-size:1.1rem;border-top:2px solid #1a1a1a}
.actions{display:flex;gap:1rem;margin-top:1.5rem;flex-wrap:wrap}
.actions form{flex:1;min-width:12rem}
button{width:100%;padding:.75rem;font:inherit;font-weight:600;border-radius:4px;cursor:pointer}
button.accept{color:#fff;background:#146c2e;border:0}
button.decline{color:#8c1d18;background:#fff;border:2px solid #8c1d18}
button:focus-visible,a:focus-visible{outline:3px solid #e37400;outline-offset:2px}
.status{padding:.75rem;margin:1rem 0;border-radius:4px;border:2px solid #595959;background:#f1f3f4}
.status.accepted,.status.invoiced{border-color:#146c2e;color:#0f5323;background:#e6f4ea}
.status.declined,.status.expired,.status.canceled{border-color:#8c1d18;color:#8c1d18;background:#fdecea}
.muted{color:#595959;font-size:.875rem}
@media (max-width:36rem){main{margin:0;padding:1rem;border-radius:0}
table.lines,table.lines tbody,table.lines tfoot,table.lines caption{display:block}
table.lines thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
table.lines tr{display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 .75rem;padding:.4rem 0;border-bottom:1px solid #e3e3e3}
table.lines th,table.lines td{display:block;padding:0;border:0;text-align:left}
table.lines tbody td:first-child{flex:1 1 100%;font-weight:600}
table.lines tbody td.num::before{content:attr(data-label) ": ";color:#595959}}
`;

const SHELL = { stylesheet: '/q/assets/quote.css' };

export interface QuotePageView {
  estimate: EstimateRow;
  /** The CSRF token of the accept/decline forms; absent when no decision can be taken. */
  formToken?: string;
  /** Whether it is past expires_at (the expiry job may not have run yet). */
  expired: boolean;
  /** A message about the submission just made (role=status). */
  notice?: string;
  /** The seller as the business profile reads now, and its logo and colour. */
  seller?: SellerSnapshot;
  branding?: SellerBranding;
}

function statusText(row: EstimateRow, expired: boolean, m: Messages): string | undefined {
  const seller = row.seller_name ?? m.t('quote.the_seller');
  const key = (state: string) => `quote.status.${state}.${row.kind}` as MessageKey;
  const on = (d: Date | null) => (d ? m.date(new Date(d)) : '');
  if (row.status === 'sent' && expired) return m.t(key('expired'), { seller });
  switch (row.status) {
    case 'accepted':
    case 'invoiced':
      return m.t(key(row.status), { date: on(row.accepted_at) });
    case 'declined':
      return m.t(key('declined'), { date: on(row.declined_at) });
    case 'expired':
      return m.t(key('expired'), { seller });
    case 'canceled':
      return m.t(key('canceled'), { seller });
    default:
      return undefined;
  }
}

/** The page's words: the customer's languages as the estimate kept them when it was sent. */
export const quoteMessages = (row: EstimateRow): Messages =>
  messagesFor(row.customer_snapshot?.preferred_locales);

/** What the page says after an accept or decline posted from it. */
export function decisionNotice(row: EstimateRow): string | undefined {
  const m = quoteMessages(row);
  const seller = row.seller_name ?? m.t('quote.the_seller');
  if (row.status === 'accepted' || row.status === 'invoiced')
    return m.t(`quote.notice.accepted.${row.kind}`, { seller });
  if (row.status === 'declined') return m.t(`quote.notice.declined.${row.kind}`, { seller });
  return undefined;
}

export function renderQuotePage(view: QuotePageView): string {
  const row = view.estimate;
  const m = quoteMessages(row);
  const t = (key: MessageKey, params?: Record<string, string>) => escapeHtml(m.t(key, params));
  const money = (value: string | number) => escapeHtml(m.money(toMinor(value), row.currency));
  const date = (value: Date) => escapeHtml(m.date(new Date(value)));
  const title = m.t(`quote.title.${row.kind}`, { number: row.number ?? '' }).trim();
  const seller = row.seller_name ?? view.seller?.name ?? 'Paygrid merchant';
  const details = sellerLines(view.seller)
    .map((line) => `<br>${escapeHtml(line)}`)
    .join('');
  const customer = row.customer_snapshot;
  const status = statusText(row, view.expired, m);
  const lines = row.lines
    .map(
      (line) =>
        `<tr><td>${escapeHtml(line.description)}</td><td class="num" data-label="${t('common.qty')}">${line.quantity}</td><td class="num" data-label="${t('common.unit_price')}">${money(
          line.unit_amount,
        )}</td><td class="num" data-label="${t('common.tax')}">${escapeHtml(formatRate(line.tax_rate_bps))}</td><td class="num" data-label="${t('common.amount')}">${money(line.amount)}</td></tr>`,
    )
    .join('\n');
  const discount =
    toMinor(row.discount_total) > 0n
      ? `<tr><th scope="row" colspan="4">${t('common.discount')}</th><td class="num">-${money(row.discount_total)}</td></tr>`
      : '';
  const decision =
    view.formToken && row.status === 'sent' && !view.expired
      ? `<div class="actions">
<form method="post" action="/q/${escapeHtml(row.page_token)}/accept">
<input type="hidden" name="csrf_token" value="${escapeHtml(view.formToken)}">
<button type="submit" class="accept">${t(`quote.accept.${row.kind}`)}</button>
</form>
<form method="post" action="/q/${escapeHtml(row.page_token)}/decline">
<input type="hidden" name="csrf_token" value="${escapeHtml(view.formToken)}">
<button type="submit" class="decline">${t('quote.decline')}</button>
</form>
</div>
<p class="muted">${t(`quote.agree.${row.kind}`, { seller })}</p>`
      : '';
  return renderPage(
    {
      ...SHELL,
      title: m.t('quote.page_title', { title, seller }),
      lang: m.locale,
      brandStylesheet: brandStylesheetPath('q', view.branding?.brand_color ?? null),
    },
    `${brandLogo(view.branding, seller)}<h1>${escapeHtml(title)}</h1>
<p>${customer?.name ? t('quote.from_to', { seller, customer: customer.name }) : t('quote.from', { seller })}</p>
${details ? `<p class="seller-contact">${details.slice(4)}</p>` : ''}
<div class="meta">
<div><span class="label">${t('common.total')}</span><strong id="total">${money(row.total)}</strong></div>
${row.sent_at ? `<div><span class="label">${t('common.issued')}</span>${date(row.sent_at)}</div>` : ''}
${row.expires_at ? `<div><span class="label">${t('quote.valid_until')}</span>${date(row.expires_at)}</div>` : ''}
</div>
${view.notice ? `<div class="status ${escapeHtml(row.status)}" role="status">${escapeHtml(view.notice)}</div>` : ''}
${status && !view.notice ? `<div class="status ${escapeHtml(view.expired && row.status === 'sent' ? 'expired' : row.status)}" role="status" id="status">${escapeHtml(status)}</div>` : ''}
${row.description ? `<p>${escapeHtml(row.description)}</p>` : ''}
<table class="lines">
<caption class="muted">${t('quote.included')}</caption>
<thead><tr><th scope="col">${t('common.description')}</th><th scope="col" class="num">${t('common.qty')}</th><th scope="col" class="num">${t('common.unit_price')}</th><th scope="col" class="num">${t('common.tax')}</th><th scope="col" class="num">${t('common.amount')}</th></tr></thead>
<tbody>
${lines}
</tbody>
<tfoot>
<tr><th scope="row" colspan="4">${t('common.subtotal')}</th><td class="num">${money(row.subtotal)}</td></tr>
${discount}
<tr><th scope="row" colspan="4">${t('common.tax')}</th><td class="num">${money(row.tax_total)}</td></tr>
<tr class="total"><th scope="row" colspan="4">${t('common.total')}</th><td class="num">${money(row.total)}</td></tr>
</tfoot>
</table>
${decision}
<p><a href="/q/${escapeHtml(row.page_token)}/pdf">${t(`quote.download.${row.kind}`)}</a></p>
${supportLine(view.branding, m)}`,
  );
}

export const renderQuoteMessage = (title: string, message: string) =>
  renderMessagePage(SHELL, title, message);
