// The hosted checkout page's HTML: server-rendered, no JavaScript, on the card-form shell,
// fields and stylesheet (../card-form/card-form.page.ts). Every interpolated value is escaped.

import { brandStylesheetPath, escapeHtml, formatMinor, messagesFor, toMinor } from '@paygrid/platform';
import { cardFields, errorAlert, layout, testModeNote } from '../card-form/card-form.page';
import type { PublicLink } from './payment-links.service';

/**
 * The seller's name: the business profile's for the account's default merchant, the
 * merchant's own business name for another merchant of the account (docs/adr/0011).
 */
const merchantName = (link: PublicLink) =>
  (link.merchant_is_default === false
    ? (link.business_name ?? link.seller?.name)
    : (link.seller?.name ?? link.business_name)) ?? 'Paygrid merchant';

/** The logo (same origin: the gateway serves /i/logos), its alt text the seller's name. */
function logo(link: PublicLink): string {
  const url = link.seller?.logo_url;
  if (!url || link.merchant_is_default === false) return '';
  return `<img class="brand-logo" src="${escapeHtml(new URL(url).pathname)}" alt="${escapeHtml(merchantName(link))}">\n`;
}

function support(link: PublicLink): string {
  const contacts = [link.seller?.support_email, link.seller?.support_phone].filter(Boolean) as string[];
  if (!contacts.length) return '';
  return `\n<p class="seller-contact">Questions? Contact ${contacts.map(escapeHtml).join(' or ')}.</p>`;
}

const brand = (link: PublicLink) =>
  link.merchant_is_default === false
    ? undefined
    : brandStylesheetPath('pay', link.seller?.brand_color ?? null);

function summary(link: PublicLink): string {
  const total = formatMinor(toMinor(link.amount_total), link.currency);
  const items = link.line_items
    ? `<table>
<caption class="muted">Items</caption>
<thead><tr><th scope="col">Item</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>
${link.line_items
  .map(
    (i) =>
      `<tr><td>${escapeHtml(i.description)}</td><td class="num">${i.quantity}</td><td class="num">${escapeHtml(
        formatMinor(BigInt(i.quantity) * toMinor(String(i.unit_amount)), link.currency),
      )}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table>`
    : '';
  return `${logo(link)}<h1>${escapeHtml(merchantName(link))}</h1>
${link.description ? `<p>${escapeHtml(link.description)}</p>` : ''}
${items}
<p class="amount">Total: <span id="total">${escapeHtml(total)}</span></p>`;
}

const INTERVAL_WORDS: Record<string, string> = { day: 'day', week: 'week', month: 'month', year: 'year' };

/** "every month", "every 3 weeks". */
export function everyText(recurring: { interval: string; interval_count: number }): string {
  const unit = INTERVAL_WORDS[recurring.interval] ?? recurring.interval;
  return recurring.interval_count === 1 ? `every ${unit}` : `every ${recurring.interval_count} ${unit}s`;
}

export function renderCheckoutForm(link: PublicLink, token: string, error?: string): string {
  const describedBy = error ? ' aria-describedby="form-error"' : '';
  const total = escapeHtml(formatMinor(toMinor(link.amount_total), link.currency));
  const recurring = link.recurring
    ? `<p id="recurring-terms">You authorise ${escapeHtml(merchantName(link))} to charge this card ${total} now and ${escapeHtml(
        everyText(link.recurring),
      )} until you cancel.</p>`
    : '';
  const payer = link.recurring
    ? `<label for="email">Email (optional, for receipts)</label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="200">`
    : '';
  return layout(
    `Pay ${merchantName(link)}`,
    `${summary(link)}
${errorAlert(error)}
<form method="post" action="/pay/${escapeHtml(link.id)}" autocomplete="on"${describedBy}>
<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">
<fieldset>
<legend>Card details</legend>
${cardFields()}
${payer}
</fieldset>
${recurring}
<button type="submit">${link.recurring ? 'Subscribe' : 'Pay'} ${total}</button>
</form>
${testModeNote(link.livemode)}${support(link)}`,
    brand(link),
  );
}

/**
 * Where the receipt went, as Stripe's checkout says it (the address shown in full: the payer
 * typed it on this page): only when the payer gave one and the account e-mails receipts
 * (`receipts.payments`, on by default; invoicing sends it from payment.succeeded, ADR 0012).
 */
function receiptNote(link: PublicLink, receiptEmail: string | null | undefined): string {
  if (!receiptEmail || link.seller?.receipts_payments === false) return '';
  return `\n<p id="receipt-sent">${escapeHtml(messagesFor([]).t('checkout.receipt_sent', { email: receiptEmail }))}</p>`;
}

export function renderSuccess(link: PublicLink, transactionId: string, receiptEmail?: string | null): string {
  return layout(
    `Payment received - ${merchantName(link)}`,
    `${summary(link)}
<div class="success" role="status"><strong>Payment successful.</strong> Thank you; ${escapeHtml(
      merchantName(link),
    )} has received your payment.</div>${receiptNote(link, receiptEmail)}
<p class="muted">Reference: <code>${escapeHtml(transactionId)}</code></p>${support(link)}`,
    brand(link),
  );
}
