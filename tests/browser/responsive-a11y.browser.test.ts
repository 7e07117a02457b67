// Every public page on a phone and a desktop (issue 17 item 6): the hosted checkout, invoice
// (and its card form), quote, customer portal (and its card page) and a recurring payer's
// mandate page at 375 px and 1280 px
// wide in a real Chromium (playwright-core): no horizontal scrolling (the document is no
// wider than the viewport),
// no axe-core violation (the axe-core package's script evaluated in the page, every rule of
// its default set), nothing refused by the page's CSP; a full-page screenshot of each lands
// in tests/output/ (responsive-<page>-<width>.png).

import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { launchBrowser, outputPath } from '../support/browser';
import { decodeHtml, payInvoiceOnHostedPage, payPage } from '../support/pages';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [375, 1280] as const;

let platform: Platform;
let account: TestAccount;
let browser: Browser;
const pages: Record<string, string> = {};

const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);
const onPlatform = (url: string) =>
  `${platform.url}${new URL(url, platform.url).pathname}${new URL(url, platform.url).search}`;

beforeAll(async () => {
  browser = await launchBrowser();
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
  // A seller with a long name, a support contact and the portal's cancellation allowed.
  await api('POST', '/v1/account', {
    trading_name: 'Größe & Söhne Gartenbau und Landschaftspflege GmbH',
    support_email: 'kundenservice@groesse-und-soehne-gartenbau.example',
    portal_subscription_cancel: true,
  });
  const merchant = await api('POST', '/v1/merchants', {
    business_name: 'Browser Bakery',
    email: 'owner@bakery.test',
    country: 'FR',
    default_currency: 'EUR',
    business_type: 'company',
  });
  const link = await api('POST', '/v1/payment-links', {
    merchant: merchant.body.id,
    currency: 'EUR',
    line_items: [
      { description: 'Croissant au beurre, six pièces, livré le matin', quantity: 3, unit_amount: 150 },
    ],
    description: 'Breakfast order',
  });
  pages.checkout = `${platform.url}/pay/${link.body.id}`;
  // A recurring link paid: its success page links to the payer's own mandate page.
  const recurring = await api('POST', '/v1/payment-links', {
    merchant: merchant.body.id,
    type: 'recurring',
    amount: 990,
    currency: 'EUR',
    recurring: { interval: 'month' },
  });
  const paid = String((await payPage(platform, `/pay/${recurring.body.id}`, '4242424242424242')).body);
  pages.mandate = `${platform.url}${decodeHtml(String(/href="(\/pay\/mandates\/[^"]+)"/.exec(paid)?.[1]))}`;
  const customer = await api('POST', '/v1/customers', {
    name: 'Zoë Łukasiewicz-Wiśniewska Sp. z o.o.',
    email: 'zoe.lukasiewicz-wisniewska@example.test',
    currency: 'EUR',
    tax_id: 'PL5260250274',
    address: {
      line1: 'ul. Świętokrzyska 12 lok. 345',
      city: 'Warszawa',
      postal_code: '00-116',
      country: 'PL',
    },
  });
  const lines = [
    {
      description: 'Projekt ogrodu z nasadzeniami i systemem nawadniania',
      quantity: 1,
      unit_amount: 1_234_500,
      tax_rate_bps: 2300,
    },
    { description: 'Rośliny (sztuki)', quantity: 120, unit_amount: 1_299, tax_rate_bps: 800 },
  ];
  // A paid invoice with a saved card (the portal's card), then an open one.
  const first = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    collection_method: 'charge_automatically',
    lines: [{ description: 'Konsultacja', quantity: 1, unit_amount: 10_000, tax_rate_bps: 2300 }],
  });
  await payInvoiceOnHostedPage(platform, first.body.hosted_url, '4242424242424242', { save_card: 'yes' });
  await eventually(
    async () => (await api('GET', `/v1/customers/${customer.body.id}`)).body.default_mandate ?? undefined,
  );
  const invoice = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    lines,
    discount: { percent_bps: 500 },
  });
  pages.invoice = onPlatform(invoice.body.hosted_url);
  // The invoice's card form (payments): reached from the invoice page's "Pay".
  const invoiceHtml = String((await platform.api(undefined, 'GET', new URL(pages.invoice).pathname)).body);
  pages.invoice_card_form = `${platform.url}${decodeHtml(String(/href="(\/pay\/invoices\/[^"]+)"/.exec(invoiceHtml)?.[1]))}`;
  const estimate = await api('POST', '/v1/estimates', { kind: 'quote', customer: customer.body.id, lines });
  const quote = (await api('POST', `/v1/estimates/${estimate.body.id}/send`)).body;
  pages.quote = onPlatform(quote.public_url ?? quote.hosted_url);
  await api('POST', '/v1/subscriptions', {
    customer: customer.body.id,
    items: [
      {
        description: 'Pielęgnacja ogrodu – pakiet premium',
        unit_amount: 49_900,
        currency: 'EUR',
        quantity: 1,
        interval: 'month',
        interval_count: 1,
      },
    ],
    collection_method: 'send_invoice',
    days_until_due: 14,
  });
  const session = await api('POST', `/v1/customers/${customer.body.id}/portal-sessions`, {
    return_url: 'https://shop.example/account',
  });
  pages.portal = onPlatform(session.body.url);
  // The portal's card page (payments): reached from the portal's "Replace card".
  const portalHtml = String((await platform.api(undefined, 'GET', new URL(pages.portal).pathname)).body);
  const cardLink = /href="(\/pay\/cards\/[^"]+)"/.exec(portalHtml)?.[1];
  pages.card = `${platform.url}${decodeHtml(String(cardLink))}`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

describe.each(['checkout', 'invoice', 'invoice_card_form', 'quote', 'portal', 'card', 'mandate'])(
  'the %s page',
  (name) => {
    it.each(WIDTHS)(
      'at %i px: no horizontal scrolling, no axe-core violation, nothing refused by the CSP',
      async (width) => {
        const context = await browser.newContext({ viewport: { width, height: 800 } });
        const page = await context.newPage();
        const refused: string[] = [];
        page.on('console', (m) => {
          if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
        });
        const response = await page.goto(pages[name]);
        expect(response?.status()).toBe(200);
        expect(await page.locator('script').count()).toBe(0);
        await page.screenshot({ path: outputPath(`responsive-${name}-${width}.png`), fullPage: true });
        const widths = await page.evaluate(() => ({
          document: document.documentElement.scrollWidth,
          body: document.body.scrollWidth,
          viewport: window.innerWidth,
        }));
        expect({ name, width, ...widths }).toEqual({
          name,
          width,
          document: width,
          body: width,
          viewport: width,
        });
        // axe-core, evaluated through the DevTools protocol (the page's CSP allows no script).
        await page.evaluate(AXE_SOURCE);
        const violations = await page.evaluate(async () => {
          const axe = (
            window as unknown as {
              axe: { run(): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> };
            }
          ).axe;
          const result = await axe.run();
          return result.violations.map((v) => ({
            id: v.id,
            targets: v.nodes.map((n) => JSON.stringify(n.target)),
          }));
        });
        expect({ name, width, violations }).toEqual({ name, width, violations: [] });
        expect(refused).toEqual([]);
        await context.close();
      },
    );
  },
);
