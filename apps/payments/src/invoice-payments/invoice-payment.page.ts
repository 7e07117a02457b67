// The card form of an invoice payment (/pay/invoices/<token>): the same accessible, no-JS
// card-form markup and stylesheet as the checkout page (../card-form/card-form.page.ts).
// Every interpolated value is escaped.

import type { InvoicePaymentTokenPayload } from '@paygrid/contracts';
import { escapeHtml, formatMinor } from '@paygrid/platform';
import { cardFields, errorAlert, layout, testModeNote } from '../card-form/card-form.page';

export function renderInvoicePaymentForm(
  invoice: InvoicePaymentTokenPayload,
  action: string,
  token: string,
  error?: string,
): string {
  const total = escapeHtml(formatMinor(BigInt(invoice.amount), invoice.currency));
  const describedBy = error ? ' aria-describedby="form-error"' : '';
  const save = invoice.offer_save_card
    ? `<p><label class="check"><input type="checkbox" name="save_card" value="yes" id="save_card"> Save this card for future invoices from ${escapeHtml(
        invoice.merchant_name,
      )}</label></p>`
    : '';
  return layout(
    `Pay ${invoice.merchant_name}`,
    `<h1>${escapeHtml(invoice.merchant_name)}</h1>
<p>${escapeHtml(invoice.description)}</p>
<p class="amount">Amount due: <span id="total">${total}</span></p>
${errorAlert(error)}
<form method="post" action="${escapeHtml(action)}" autocomplete="on"${describedBy}>
<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">
<fieldset>
<legend>Card details</legend>
${cardFields()}
</fieldset>
${save}
<button type="submit">Pay ${total}</button>
</form>
<p class="muted"><a href="${escapeHtml(invoice.return_url)}">Back to the invoice</a></p>
${testModeNote(invoice.livemode)}`,
  );
}
