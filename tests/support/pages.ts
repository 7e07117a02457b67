// The hosted pages as a payer without JavaScript uses them: GET the page, read its form
// (CSRF token, action), POST the card fields as an HTML form. The harness's api() never
// follows redirects, so a form's 303 is the answer the suites check.

import type { ApiResponse, Platform } from './platform';

/** Sandbox cards of the payments service. */
export const CARDS = {
  ok: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expired: '4000000000000069',
  processingError: '4000000000000119',
  laterFails: '4000000000000341',
} as const;

/** The path and query of a URL (absolute, or relative to the platform). */
export function pathOf(url: string): string {
  const parsed = new URL(url, 'http://relative.invalid');
  return `${parsed.pathname}${parsed.search}`;
}

/** Undoes the HTML escaping of an attribute value. */
export const decodeHtml = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

export function csrfOf(html: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token in the page: ${html.slice(0, 300)}`);
  return match[1];
}

/** The card form's fields: the CSRF token, a card that expires in the future, and `extra`. */
export function cardForm(token: string, card: string, extra: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({
    csrf_token: token,
    cardholder_name: 'Ada Lovelace',
    card_number: card,
    exp_month: '12',
    exp_year: '2099',
    cvc: '123',
    ...extra,
  });
}

/** POSTs a hosted card form (an HTTP form post, as a browser without JS). */
export function submitForm(
  platform: Platform,
  path: string,
  token: string,
  card: string,
  extra: Record<string, string> = {},
): Promise<ApiResponse> {
  return platform.api(undefined, 'POST', path, cardForm(token, card, extra));
}

/** GETs a hosted form page and POSTs it with the card. */
export async function payPage(
  platform: Platform,
  path: string,
  card: string,
  extra: Record<string, string> = {},
): Promise<ApiResponse> {
  const page = await platform.api(undefined, 'GET', path);
  if (page.status !== 200) throw new Error(`GET ${path}: ${page.status}`);
  return submitForm(platform, path, csrfOf(String(page.body)), card, extra);
}

/**
 * Opens a hosted invoice page, follows its "Pay" link to the payments service's card form
 * and submits `card` (`extra`: more fields, e.g. `{ save_card: 'yes' }`). Answers the form's
 * response (303 back to the invoice page when paid, not followed).
 */
export async function payInvoiceOnHostedPage(
  platform: Platform,
  hostedUrl: string,
  card: string,
  extra: Record<string, string> = {},
): Promise<ApiResponse> {
  const page = await platform.api(undefined, 'GET', pathOf(hostedUrl));
  expect(page.status).toBe(200);
  const payLink = /href="([^"]*\/pay\/invoices\/[^"]+)"/.exec(String(page.body))?.[1];
  expect(payLink).toBeDefined();
  const formPath = pathOf(decodeHtml(String(payLink)));
  const form = await platform.api(undefined, 'GET', formPath);
  expect(form.status).toBe(200);
  const html = String(form.body);
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  return submitForm(platform, action ? pathOf(decodeHtml(action)) : formPath, csrfOf(html), card, extra);
}
