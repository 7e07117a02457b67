// The customer portal's HTML (/portal/<token>): server-rendered, no JavaScript, the hosted
// pages' look (its own stylesheet at /portal/assets/portal.css, so the CSP needs no
// 'unsafe-inline'), in the customer's language (libs/platform i18n). Lists rather than wide
// tables, so it fits a 375 px phone. Every interpolated value is escaped. Subscription changes
// are POST forms to the portal itself with a single-use CSRF token; card changes are links to
// the payments service's card page; paying an invoice is its hosted page.

import {
  brandStylesheetPath,
  escapeHtml,
  renderPage,
  toMinor,
  type MessageKey,
  type Messages,
} from '@paygrid/platform';
import type { SellerBranding } from '../account/account-profile';
import { brandLogo } from '../account/seller-lines';
import type { InvoiceRow } from '../invoices/invoice.serializer';
import type { SubscriptionRow } from '../subscriptions/subscription.model';
import type { CustomerCardRow, PortalData } from './portal.service';

export const PORTAL_PAGE_CSS = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:44rem;margin:1rem auto;padding:1.25rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.15);border-top:.375rem solid var(--brand,transparent);overflow-wrap:anywhere}
@media (max-width:30rem){main{margin:0;border-radius:0}}
.brand-logo{display:block;max-width:12rem;max-height:4rem;margin:0 0 1rem}
h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
ul.items{list-style:none;margin:0;padding:0}
ul.items>li{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center;justify-content:space-between;padding:.75rem 0;border-bottom:1px solid #e3e3e3}
.what{flex:1 1 12rem;min-width:0}.what strong{display:block}
.meta{color:#595959;font-size:.875rem}
.actions{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
.actions form{margin:0}
a.button,button{display:inline-block;padding:.5rem 1rem;font:inherit;font-weight:600;color:#fff;background:#0b57d0;border:0;border-radius:4px;text-decoration:none;cursor:pointer}
button.secondary{color:#8c1d18;background:#fff;border:2px solid #8c1d18}
a:focus-visible,button:focus-visible{outline:3px solid #e37400;outline-offset:2px}
.badge{display:inline-block;padding:0 .5rem;border-radius:1rem;font-size:.8rem;font-weight:600;background:#f1f3f4;color:#3c4043}
.badge.paid,.badge.active{background:#e6f4ea;color:#0f5323}.badge.open,.badge.past_due{background:#fff8e1;color:#5c4900}
.success{padding:.75rem;margin:1rem 0;border:2px solid #146c2e;border-radius:4px;color:#0f5323;background:#e6f4ea}
.error{padding:.75rem;margin:1rem 0;border:2px solid #b3261e;border-radius:4px;color:#8c1d18;background:#fdecea}
.muted{color:#595959;font-size:.875rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

export const PORTAL_STYLESHEET = '/portal/assets/portal.css';

export interface PortalPageView {
  data: PortalData;
  messages: Messages;
  seller: string;
  branding?: SellerBranding;
  /** The page's own address (forms post here). */
  action: string;
  /** A fresh single-use CSRF token for the subscription forms. */
  formToken: string;
  /** Hosted page of each invoice (by id). */
  invoiceUrl: (invoice: InvoiceRow) => string;
  /** The payments service's card page for a replace or remove. */
  cardUrl: (card: CustomerCardRow, action: 'replace' | 'remove') => string;
  returnUrl: string | null;
  notice?: { kind: 'success' | 'error'; text: string };
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

export const cardLabel = (
  m: Messages,
  card: Pick<CustomerCardRow, 'brand' | 'last4' | 'exp_month' | 'exp_year'>,
) =>
  m.t('portal.card', {
    brand: BRANDS[card.brand] ?? card.brand,
    last4: card.last4,
    month: String(card.exp_month).padStart(2, '0'),
    year: card.exp_year,
  });

function invoiceItem(view: PortalPageView, inv: InvoiceRow): string {
  const m = view.messages;
  const money = (value: string | bigint) => escapeHtml(m.money(toMinor(value), inv.currency));
  const payable = (inv.status === 'open' || inv.status === 'uncollectible') && toMinor(inv.amount_due) > 0n;
  const page = view.invoiceUrl(inv);
  const status = m.t(`portal.status.${inv.status}` as MessageKey);
  const date = inv.finalized_at ? m.date(inv.finalized_at) : '';
  // Which invoice a "Pay" or "PDF" link is for, for screen readers (the row says it visually).
  const hidden = `<span class="visually-hidden"> ${escapeHtml(inv.number ?? inv.id)}</span>`;
  return `<li><div class="what"><strong>${escapeHtml(inv.number ?? inv.id)}</strong><span class="meta">${escapeHtml(
    date,
  )} · ${money(inv.total)}</span></div>
<span class="badge ${escapeHtml(inv.status)}">${escapeHtml(status)}</span>
<div class="actions">${
    payable
      ? `<a class="button" href="${escapeHtml(page)}">${escapeHtml(m.t('portal.pay'))}${hidden}</a>`
      : `<a href="${escapeHtml(page)}">${escapeHtml(m.t('portal.view'))}${hidden}</a>`
  }<a href="${escapeHtml(`${page}/pdf`)}">${escapeHtml(m.t('portal.pdf'))}${hidden}</a></div></li>`;
}

function subscriptionItem(view: PortalPageView, sub: SubscriptionRow): string {
  const m = view.messages;
  const name = sub.items
    .map((i) => (i.quantity > 1 ? `${i.description} × ${i.quantity}` : i.description))
    .join(', ');
  const perPeriod = sub.items.reduce((sum, i) => sum + BigInt(i.unit_amount) * BigInt(i.quantity), 0n);
  const end = sub.current_period_end ?? sub.trial_end;
  const when = end
    ? m.t(sub.cancel_at_period_end ? 'portal.subscription.ends' : 'portal.subscription.renews', {
        date: m.date(end),
      })
    : '';
  const statusKey = `portal.subscription.status.${sub.status}` as MessageKey;
  const form = (action: 'cancel' | 'resume', label: string, secondary: boolean) =>
    `<form method="post" action="${escapeHtml(view.action)}"><input type="hidden" name="csrf_token" value="${escapeHtml(
      view.formToken,
    )}"><input type="hidden" name="subscription" value="${escapeHtml(sub.id)}"><input type="hidden" name="action" value="${action}"><button type="submit"${
      secondary ? ' class="secondary"' : ''
    }>${escapeHtml(label)}</button></form>`;
  const control = !view.data.cancelAllowed
    ? `<span class="muted">${escapeHtml(m.t('portal.subscription.contact_to_cancel'))}</span>`
    : sub.cancel_at_period_end
      ? form('resume', m.t('portal.subscription.resume'), false)
      : form('cancel', m.t('portal.subscription.cancel'), true);
  return `<li><div class="what"><strong>${escapeHtml(name)}</strong><span class="meta">${escapeHtml(
    m.money(perPeriod, sub.currency),
  )} · ${escapeHtml(when)}</span></div>
<span class="badge ${escapeHtml(sub.status)}">${escapeHtml(m.t(statusKey))}</span>
<div class="actions">${control}</div></li>`;
}

function cardItem(view: PortalPageView, card: CustomerCardRow): string {
  const m = view.messages;
  const isDefault = view.data.customer.default_mandate === card.mandate_id;
  return `<li><div class="what"><strong>${escapeHtml(cardLabel(m, card))}</strong>${
    isDefault ? `<span class="meta">${escapeHtml(m.t('portal.card.default'))}</span>` : ''
  }</div>
<div class="actions"><a class="button" href="${escapeHtml(view.cardUrl(card, 'replace'))}">${escapeHtml(
    m.t('portal.card.replace'),
  )}</a><a href="${escapeHtml(view.cardUrl(card, 'remove'))}">${escapeHtml(m.t('portal.card.remove'))}</a></div></li>`;
}

const list = (items: string[], empty: string) =>
  items.length
    ? `<ul class="items">\n${items.join('\n')}\n</ul>`
    : `<p class="muted">${escapeHtml(empty)}</p>`;

export function renderPortalPage(view: PortalPageView): string {
  const m = view.messages;
  const { data } = view;
  const customer = data.customer.name ?? data.customer.email ?? '';
  const notice = view.notice
    ? `<div class="${view.notice.kind}" role="${view.notice.kind === 'error' ? 'alert' : 'status'}">${escapeHtml(
        view.notice.text,
      )}</div>`
    : '';
  const body = `${brandLogo(view.branding, view.seller)}<h1>${escapeHtml(m.t('portal.heading'))}</h1>
<p class="muted">${escapeHtml(m.t('portal.intro', { customer, seller: view.seller }))}</p>
${notice}
<h2>${escapeHtml(m.t('portal.invoices'))}</h2>
${list(
  data.invoices.map((inv) => invoiceItem(view, inv)),
  m.t('portal.no_invoices'),
)}
<h2>${escapeHtml(m.t('portal.subscriptions'))}</h2>
${list(
  data.subscriptions.map((sub) => subscriptionItem(view, sub)),
  m.t('portal.no_subscriptions'),
)}
<h2>${escapeHtml(m.t('portal.cards'))}</h2>
${list(
  data.cards.map((card) => cardItem(view, card)),
  m.t('portal.no_cards'),
)}
${
  view.returnUrl
    ? `<p><a href="${escapeHtml(view.returnUrl)}">${escapeHtml(m.t('portal.return', { seller: view.seller }))}</a></p>`
    : ''
}`;
  return renderPage(
    {
      title: m.t('portal.title', { seller: view.seller }),
      stylesheet: PORTAL_STYLESHEET,
      brandStylesheet: brandStylesheetPath('i', view.branding?.brand_color ?? null),
      lang: m.locale,
    },
    body,
  );
}

export function renderPortalMessage(
  messages: Messages,
  heading: MessageKey,
  detail: MessageKey,
  seller = '',
): string {
  return renderPage(
    { title: messages.t(heading), stylesheet: PORTAL_STYLESHEET, lang: messages.locale },
    `<h1>${escapeHtml(messages.t(heading))}</h1>\n<p>${escapeHtml(messages.t(detail, { seller }))}</p>`,
  );
}
