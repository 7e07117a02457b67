// The hosted checkout page's HTML: server-rendered, no JavaScript, on the card-form shell,
// fields and stylesheet (../card-form/card-form.page.ts). Every interpolated value is escaped.
// Every word comes from the message files in the browser's language (Accept-Language, read by
// the controller; English by default).

import {
  brandStylesheetPath,
  escapeHtml,
  messagesFor,
  type MessageKey,
  type Messages,
  toMinor,
} from '@paygrid/platform';
import { cardFields, errorAlert, layout, testModeNote } from '../card-form/card-form.page';
import type { PublicLink } from './payment-link';

/**
 * The seller's name: the business profile's for the account's default merchant, the
 * merchant's own business name for another merchant of the account (docs/adr/0011).
 */
export const merchantName = (link: PublicLink) =>
  (link.merchant_is_default === false
    ? (link.business_name ?? link.seller?.name)
    : (link.seller?.name ?? link.business_name)) ?? 'Paygrid merchant';

/** The logo (same origin: the gateway serves /i/logos), its alt text the seller's name. */
function logo(link: PublicLink): string {
  const url = link.seller?.logo_url;
  if (!url || link.merchant_is_default === false) return '';
  return `<img class="brand-logo" src="${escapeHtml(new URL(url).pathname)}" alt="${escapeHtml(merchantName(link))}">\n`;
}

function support(link: PublicLink, m: Messages): string {
  const [first, second] = [link.seller?.support_email, link.seller?.support_phone].filter(
    Boolean,
  ) as string[];
  if (!first) return '';
  const text = second
    ? m.t('common.contact_either', { first, second })
    : m.t('common.contact', { contact: first });
  return `\n<p class="seller-contact">${escapeHtml(text)}</p>`;
}

const brand = (link: PublicLink) =>
  link.merchant_is_default === false
    ? undefined
    : brandStylesheetPath('pay', link.seller?.brand_color ?? null);

function summary(link: PublicLink, m: Messages): string {
  const total = m.money(toMinor(link.amount_total), link.currency);
  const t = (key: MessageKey) => escapeHtml(m.t(key));
  const items = link.line_items
    ? `<table>
<caption class="muted">${t('common.items')}</caption>
<thead><tr><th scope="col">${t('checkout.item')}</th><th scope="col" class="num">${t('common.qty')}</th><th scope="col" class="num">${t('common.amount')}</th></tr></thead>
<tbody>
${link.line_items
  .map(
    (i) =>
      `<tr><td>${escapeHtml(i.description)}</td><td class="num">${i.quantity}</td><td class="num">${escapeHtml(
        m.money(BigInt(i.quantity) * toMinor(String(i.unit_amount)), link.currency),
      )}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table>`
    : '';
  return `${logo(link)}<h1>${escapeHtml(merchantName(link))}</h1>
${link.description ? `<p>${escapeHtml(link.description)}</p>` : ''}
${items}
<p class="amount">${t('checkout.total')} <span id="total">${escapeHtml(total)}</span></p>`;
}

const INTERVALS = ['day', 'week', 'month', 'year'] as const;
type IntervalUnit = (typeof INTERVALS)[number];

/** "every month", "every 3 weeks" ("co 3 tygodnie", "co 5 tygodni": Polish "few" and "many"). */
export function everyText(
  recurring: { interval: string; interval_count: number },
  m: Messages = messagesFor([]),
): string {
  const unit = (INTERVALS as readonly string[]).includes(recurring.interval)
    ? (recurring.interval as IntervalUnit)
    : 'month';
  const count = recurring.interval_count;
  if (count === 1) return m.t(`checkout.every.${unit}`);
  const form = new Intl.PluralRules(m.locale).select(count) === 'few' ? 'few' : 'other';
  return m.t(`checkout.every_n.${unit}.${form}`, { count });
}

export function renderCheckoutForm(
  link: PublicLink,
  token: string,
  error?: string,
  m: Messages = messagesFor([]),
): string {
  const describedBy = error ? ' aria-describedby="form-error"' : '';
  const amount = m.money(toMinor(link.amount_total), link.currency);
  const seller = merchantName(link);
  const recurring = link.recurring
    ? `<p id="recurring-terms">${escapeHtml(
        m.t('checkout.recurring_terms', { seller, amount, every: everyText(link.recurring, m) }),
      )}</p>`
    : '';
  const payer = link.recurring
    ? `<label for="email">${escapeHtml(m.t('checkout.email'))}</label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="200">`
    : '';
  return layout(
    m.t('checkout.page_title', { seller }),
    `${summary(link, m)}
${errorAlert(error)}
<form method="post" action="/pay/${escapeHtml(link.id)}" autocomplete="on"${describedBy}>
<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">
<fieldset>
<legend>${escapeHtml(m.t('checkout.card_details'))}</legend>
${cardFields(m)}
${payer}
</fieldset>
${recurring}
<button type="submit">${escapeHtml(m.t(link.recurring ? 'checkout.subscribe' : 'invoice_page.pay', { amount }))}</button>
</form>
${testModeNote(link.livemode, m)}${support(link, m)}`,
    brand(link),
    m.locale,
  );
}

/**
 * Where the receipt went, as Stripe's checkout says it (the address shown in full: the payer
 * typed it on this page): only when the payer gave one and the account e-mails receipts
 * (`receipts.payments`, on by default; invoicing sends it from payment.succeeded, ADR 0012).
 */
function receiptNote(link: PublicLink, receiptEmail: string | null | undefined, m: Messages): string {
  if (!receiptEmail || link.seller?.receipts_payments === false) return '';
  return `\n<p id="receipt-sent">${escapeHtml(m.t('checkout.receipt_sent', { email: receiptEmail }))}</p>`;
}

/** The way back to a recurring payment (its mandate page), for the payer to keep. */
const manageNote = (managePath: string | undefined, m: Messages) =>
  managePath
    ? `\n<p id="manage"><a href="${escapeHtml(managePath)}">${escapeHtml(m.t('checkout.manage'))}</a><br><span class="muted">${escapeHtml(m.t('checkout.manage_note'))}</span></p>`
    : '';

export function renderSuccess(
  link: PublicLink,
  transactionId: string,
  receiptEmail?: string | null,
  m: Messages = messagesFor([]),
  managePath?: string,
): string {
  const seller = merchantName(link);
  return layout(
    m.t('checkout.success_title', { seller }),
    `${summary(link, m)}
<div class="success" role="status"><strong>${escapeHtml(m.t('checkout.success'))}</strong> ${escapeHtml(
      m.t('checkout.success_thanks', { seller }),
    )}</div>${receiptNote(link, receiptEmail, m)}${manageNote(managePath, m)}
<p class="muted">${escapeHtml(m.t('checkout.reference'))} <code>${escapeHtml(transactionId)}</code></p>${support(link, m)}`,
    brand(link),
    m.locale,
  );
}
