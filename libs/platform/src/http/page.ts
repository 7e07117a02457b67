// The primitives every server-rendered public page shares (hosted checkout and invoice card
// form in payments; hosted invoice and quote pages in invoicing): HTML escaping, the document
// shell, the security headers of an HTML response and of its stylesheet. Pages carry no
// JavaScript and no inline style, so the CSP allows only the page's own stylesheet.

import type { FastifyReply } from 'fastify';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes a value for HTML text and double- or single-quoted attributes. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/**
 * The rules every hosted document page starts its stylesheet with (checkout and card forms,
 * invoice and quote pages): the card on a grey ground, the seller's brand colour as its top
 * border, the logo and the seller's contact line. `mainWidth` is the card's widest.
 */
export function hostedPageBaseCss(mainWidth: string): string {
  return `*{box-sizing:border-box}
body{margin:0;overflow-wrap:anywhere;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:${mainWidth};margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
main{border-top:.375rem solid var(--brand,transparent)}
.brand-logo{display:block;max-width:12rem;max-height:4rem;margin:0 0 1rem}
.seller-contact{color:#595959;font-size:.875rem}`;
}

export interface PageShell {
  title: string;
  /** The page's own stylesheet, e.g. "/pay/assets/checkout.css". */
  stylesheet: string;
  /** Reload the page after this many seconds (a payment still being confirmed). */
  refreshSeconds?: number;
  /**
   * The seller's brand stylesheet (its colour as CSS variables), loaded after the page's own:
   * the CSP allows no inline style, so a colour reaches the page only as a stylesheet.
   */
  brandStylesheet?: string;
  /** The page's language (a `messagesFor(...).locale`); English by default. */
  lang?: string;
}

/** The HTML document around a page's `<main>`: language, viewport, noindex, one stylesheet. */
export function renderPage(shell: PageShell, body: string): string {
  const refresh = shell.refreshSeconds
    ? `<meta http-equiv="refresh" content="${shell.refreshSeconds}">\n`
    : '';
  return `<!DOCTYPE html>
<html lang="${escapeHtml(shell.lang ?? 'en')}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${refresh}<title>${escapeHtml(shell.title)}</title>
<link rel="stylesheet" href="${escapeHtml(shell.stylesheet)}">
${shell.brandStylesheet ? `<link rel="stylesheet" href="${escapeHtml(shell.brandStylesheet)}">\n` : ''}</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** A page with only a heading and one sentence (not found, expired form, in progress...). */
export const renderMessagePage = (shell: Omit<PageShell, 'title'>, heading: string, message: string) =>
  renderPage(
    Object.assign({}, shell, { title: heading }),
    `<h1>${escapeHtml(heading)}</h1>\n<p>${escapeHtml(message)}</p>`,
  );

const CSP_BASE =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Sends an HTML page with the headers every public page needs: a CSP allowing only the
 * page's own stylesheet, never framed, forms posting only where `formAction` says ("'none'"
 * for a page without forms; a redirect after a form post must be listed too); never cached
 * (it may show a payer's details or carry a single-use form token); no referrer (the address
 * is the credential).
 */
export function sendPage(
  reply: FastifyReply,
  status: number,
  html: string,
  formAction = "'self'",
): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', `${CSP_BASE}; form-action ${formAction}`)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .send(html);
}

/**
 * The stylesheet of a seller's brand colour (`#rrggbb`, validated when stored): headings,
 * buttons and links take it; the pages' own stylesheets use `var(--brand, <default>)`.
 */
export function brandCss(color: string | null): string {
  if (!color || !/^#[0-9a-f]{6}$/i.test(color)) return ':root {}\n';
  return `:root { --brand: ${color}; }\n`;
}

/** Where a service serves brandCss for a colour: `/<prefix>/brand/0a7c59.css`. */
export const brandStylesheetPath = (prefix: string, color: string | null): string | undefined =>
  color && /^#[0-9a-f]{6}$/i.test(color) ? `/${prefix}/brand/${color.slice(1).toLowerCase()}.css` : undefined;

/** Sends a page's stylesheet (public, cacheable for an hour). */
export function sendStylesheet(reply: FastifyReply, css: string): FastifyReply {
  return reply
    .status(200)
    .header('content-type', 'text/css; charset=utf-8')
    .header('cache-control', 'public, max-age=3600')
    .header('x-content-type-options', 'nosniff')
    .send(css);
}

/**
 * A PDF document (an invoice or quote, from the API or a public page), shown inline and saved
 * as `filename` (which the caller makes safe for the header: letters, digits, `._-`); never
 * cached, as it carries a customer's details.
 */
export function sendPdf(reply: FastifyReply, filename: string, pdf: Buffer): FastifyReply {
  return reply
    .status(200)
    .header('content-type', 'application/pdf')
    .header('content-disposition', `inline; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(pdf);
}

/** An XML document (an e-invoice), saved as `filename` (made safe by the caller); never cached. */
export function sendXml(reply: FastifyReply, filename: string, xml: string): FastifyReply {
  return reply
    .status(200)
    .header('content-type', 'application/xml')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(xml);
}

/** A 303 after a form post; never cached. */
export function sendSeeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.status(303).header('location', location).header('cache-control', 'no-store').send();
}

/** A posted form's fields; anything that is not an object is an empty form. */
export const formOf = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' ? (body as Record<string, unknown>) : {};

/** A posted field, trimmed; '' when absent or not a string. */
export const formField = (form: Record<string, unknown>, name: string): string => {
  const value = form[name];
  return typeof value === 'string' ? value.trim() : '';
};
