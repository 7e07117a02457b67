// The card form of an invoice payment (/pay/invoices/<token>): the same accessible, no-JS
// card-form markup and stylesheet as the checkout page (../card-form/card-form.page.ts).
// Every interpolated value is escaped; every word comes from the message files in the
// browser's language (Accept-Language, read by the controller; English by default).

import type { InvoicePaymentTokenPayload } from '@paygrid/contracts';
import { escapeHtml, messagesFor, type Messages } from '@paygrid/platform';
import { cardFields, errorAlert, layout, testModeNote } from '../card-form/card-form.page';

export function renderInvoicePaymentForm(
  invoice: InvoicePaymentTokenPayload,
  action: string,
  token: string,
  error?: string,
  m: Messages = messagesFor([]),
): string {
  const amount = m.money(BigInt(invoice.amount), invoice.currency);
  const total = escapeHtml(amount);
  const describedBy = error ? ' aria-describedby="form-error"' : '';
  const save = invoice.offer_save_card
    ? `<p><label class="check"><input type="checkbox" name="save_card" value="yes" id="save_card"> ${escapeHtml(
        m.t('checkout.save_card', { seller: invoice.merchant_name }),
      )}</label></p>`
    : '';
  return layout(
    m.t('checkout.page_title', { seller: invoice.merchant_name }),
    `<h1>${escapeHtml(invoice.merchant_name)}</h1>
<p>${escapeHtml(invoice.description)}</p>
<p class="amount">${escapeHtml(m.t('checkout.amount_due'))} <span id="total">${total}</span></p>
${errorAlert(error)}
<form method="post" action="${escapeHtml(action)}" autocomplete="on"${describedBy}>
<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">
<fieldset>
<legend>${escapeHtml(m.t('checkout.card_details'))}</legend>
${cardFields(m)}
</fieldset>
${save}
<button type="submit">${escapeHtml(m.t('invoice_page.pay', { amount }))}</button>
</form>
<p class="muted"><a href="${escapeHtml(invoice.return_url)}">${escapeHtml(m.t('checkout.back_to_invoice'))}</a></p>
${testModeNote(invoice.livemode, m)}`,
    undefined,
    m.locale,
  );
}
