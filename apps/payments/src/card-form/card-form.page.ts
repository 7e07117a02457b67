// The markup every card form of this service shares (the hosted checkout /pay/<link> and an
// invoice's card form /pay/invoices/<token>): one stylesheet served at /pay/assets/checkout.css
// (so the CSP needs no 'unsafe-inline'), the document shell, the card fields, the error alert,
// the test-mode note and the one-sentence message pages. Card fields are never re-filled from
// a submission.

import {
  escapeHtml,
  hostedPageBaseCss,
  type MessageKey,
  messagesFor,
  type Messages,
  renderMessagePage,
  renderPage,
} from '@paygrid/platform';

export const CARD_FORM_CSS = `${hostedPageBaseCss('28rem')}
h1{font-size:1.25rem;margin:0 0 .25rem}
.amount{font-size:1.75rem;font-weight:700;margin:.5rem 0 1rem}
table{width:100%;border-collapse:collapse;margin-bottom:1rem}
th,td{text-align:left;padding:.25rem 0;border-bottom:1px solid #e3e3e3}
td.num,th.num{text-align:right}
fieldset{border:0;padding:0;margin:0 0 1rem}
legend{font-weight:600;margin-bottom:.5rem}
label{display:block;font-weight:500;margin:.75rem 0 .25rem}
input{width:100%;padding:.6rem;font:inherit;border:1px solid #767676;border-radius:4px}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button{width:100%;padding:.75rem;font:inherit;font-weight:600;color:#fff;background:#0b57d0;border:0;border-radius:4px;cursor:pointer}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #e37400;outline-offset:2px}
.error{padding:.75rem;margin-bottom:1rem;border:2px solid #b3261e;border-radius:4px;color:#8c1d18;background:#fdecea}
.success{padding:.75rem;border:2px solid #146c2e;border-radius:4px;color:#0f5323;background:#e6f4ea}
.muted{color:#595959;font-size:.875rem}
.check{display:flex;gap:.5rem;align-items:center;font-weight:400}.check input{width:auto}
`;

const SHELL = { stylesheet: '/pay/assets/checkout.css' };

/** The document shell of every page under /pay (checkout and invoice card form). */
export const layout = (title: string, body: string, brandStylesheet?: string, lang?: string) =>
  renderPage(
    // Object.assign, not a leading spread (docs/style.md): every hosted card page renders this.
    Object.assign({}, SHELL, { title }, brandStylesheet ? { brandStylesheet } : {}, lang ? { lang } : {}),
    body,
  );

/** The card fields every card form shares (checkout and invoice payment). */
export function cardFields(m: Messages = messagesFor([])): string {
  const t = (key: Parameters<Messages['t']>[0]) => escapeHtml(m.t(key));
  return `<label for="cardholder_name">${t('card.name')}</label>
<input id="cardholder_name" name="cardholder_name" autocomplete="cc-name" maxlength="100">
<label for="card_number">${t('card.number')}</label>
<input id="card_number" name="card_number" required inputmode="numeric" autocomplete="cc-number" maxlength="23" pattern="[0-9 \\-]{12,23}">
<div class="row">
<div><label for="exp_month">${t('card.exp_month')}</label>
<input id="exp_month" name="exp_month" required inputmode="numeric" autocomplete="cc-exp-month" maxlength="2" pattern="[0-9]{1,2}"></div>
<div><label for="exp_year">${t('card.exp_year')}</label>
<input id="exp_year" name="exp_year" required inputmode="numeric" autocomplete="cc-exp-year" maxlength="4" pattern="[0-9]{2,4}"></div>
</div>
<label for="cvc">${t('card.cvc')}</label>
<input id="cvc" name="cvc" required inputmode="numeric" autocomplete="cc-csc" maxlength="4" pattern="[0-9]{3,4}">`;
}

export const testModeNote = (livemode: boolean, m: Messages = messagesFor([])) =>
  `<p class="muted">${livemode ? '' : `${escapeHtml(m.t('card.test_mode'))} `}${escapeHtml(m.t('card.never_stored'))}</p>`;

export const errorAlert = (error: string | undefined) =>
  error ? `<div class="error" role="alert" id="form-error">${escapeHtml(error)}</div>` : '';

/** A page with a heading and one sentence (not found, expired form, in progress...). */
export const renderMessage = (title: string, message: string, lang?: string) =>
  renderMessagePage({ ...SHELL, ...(lang ? { lang } : {}) }, title, message);

/** The message pages of the catalogue: a `<page>.title` and a `<page>.text` key. */
export type MessagePage = {
  [K in MessageKey]: K extends `${infer P}.title` ? (`${P}.text` extends MessageKey ? P : never) : never;
}[MessageKey];

/** A message page in the payer's language (`<page>.title` as heading, `<page>.text` below). */
export const messagePage = (m: Messages, page: MessagePage, params?: Record<string, string>) =>
  renderMessage(m.t(`${page}.title`), m.t(`${page}.text`, params), m.locale);
