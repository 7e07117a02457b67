// The recurring payer's mandate page (/pay/mandates/<token>): the terms and the card, and a
// one-button form to cancel future charges while the mandate is active. Server-rendered, no
// JavaScript, the hosted pages' shell and language (Accept-Language).

import { escapeHtml, type MessageKey, type Messages } from '@paygrid/platform';
import { layout } from '../card-form/card-form.page';
import type { MandateRow } from '../mandates/mandate';
import { everyText } from '../payment-links/checkout.page';

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

export function renderMandatePage(
  mandate: MandateRow,
  seller: string,
  m: Messages,
  form: { action: string; csrf: string },
  notice?: 'canceled',
): string {
  const t = (key: MessageKey, params?: Record<string, string>) => escapeHtml(m.t(key, params));
  const card = m.t('receipt.card_ending', {
    brand: BRANDS[mandate.payment_method.brand] ?? m.t('mandate_page.card'),
    last4: mandate.payment_method.last4,
  });
  const terms =
    mandate.amount && mandate.interval
      ? `<p>${t('mandate_page.terms', {
          amount: m.money(BigInt(mandate.amount), mandate.currency),
          every: everyText({ interval: mandate.interval, interval_count: mandate.interval_count ?? 1 }, m),
          card,
        })}</p>`
      : `<p>${escapeHtml(card)}</p>`;
  const state =
    mandate.status === 'active'
      ? `<p>${t('mandate_page.cancel_note', { seller })}</p>
<form method="post" action="${escapeHtml(form.action)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(form.csrf)}">
<button type="submit">${t('mandate_page.cancel_button')}</button>
</form>
<p class="muted">${t('mandate_page.keep_link')}</p>`
      : `<div class="${notice ? 'success' : 'muted'}" role="status">${t(
          mandate.status === 'canceled' ? 'mandate_page.canceled' : 'mandate_page.failed',
          { seller },
        )}</div>`;
  const heading = m.t('mandate_page.title', { seller });
  return layout(heading, `<h1>${escapeHtml(heading)}</h1>\n${terms}\n${state}`, undefined, m.locale);
}
