// The hosted invoice page in a real browser (Chromium through playwright-core, no JavaScript
// needed by the page): it renders under its strict CSP without violations, is navigable by
// its accessible roles and names, offers the PDF, and (once the payments service serves the
// card form at /pay/invoices, see tests/integration/invoices-payment.test.ts) pays with a
// sandbox card and comes back "processing", then "Paid" by itself (meta refresh).

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { createLogger } from '@paygrid/platform';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { freePort, ROOT } from '../support/platform';

const PAYMENTS_SERVES_INVOICES = existsSync(join(ROOT, 'apps/payments/src/invoice-payments'));

let embedded: Embedded;
let key: string;
let browser: Browser;

/** JSON API call with the account's test key. */
async function api(method: string, path: string, body?: unknown, token = key) {
  const response = await fetch(`${embedded.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  // A known port, so the pages' absolute addresses (hosted_url, the card form's return_url,
  // built from PUBLIC_BASE_URL) point at this very server and the browser can follow them.
  const port = await freePort();
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port,
    demo: false,
    env: {
      OPERATOR_TOKEN: `op_${randomBytes(24).toString('hex')}`,
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    },
    logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
  });
  const account = await api(
    'POST',
    '/admin/v1/accounts',
    { name: 'Acme GmbH', groupings: ['payments', 'invoicing'] },
    embedded.operatorToken,
  );
  const created = await api(
    'POST',
    `/admin/v1/accounts/${account.body.id}/keys`,
    { mode: 'test', kind: 'secret' },
    embedded.operatorToken,
  );
  key = created.body.secret;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await embedded?.stop();
});

async function sentInvoice() {
  const customer = await api('POST', '/v1/customers', {
    name: 'Jenny Rosen',
    email: 'jenny@example.test',
    currency: 'EUR',
  });
  const invoice = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    lines: [
      { description: 'Design work', quantity: 3, unit_amount: 12_000, tax_rate_bps: 1900 },
      { description: 'Printed books', quantity: 2, unit_amount: 1_550, tax_rate_bps: 700 },
    ],
    discount: { amount: 1_000 },
  });
  expect(invoice.status).toBe(200);
  return invoice.body;
}

it('renders the invoice accessibly under its CSP, with the PDF link and a Pay button', async () => {
  const invoice = await sentInvoice();
  const page = await browser.newPage({ javaScriptEnabled: false });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const stylesheets: number[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/i/assets/invoice.css')) stylesheets.push(r.status());
  });
  const response = await page.goto(invoice.hosted_url);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
    `Invoice ${invoice.number}`,
  );
  const table = page.getByRole('table');
  await expect(table.getByRole('row', { name: /Design work/ }).textContent()).resolves.toContain(
    '360.00 EUR',
  );
  // 36000 + 3100 = 39100; 1000 off -> shares 921 and 79; tax 35079 x 19 % = 6665.01 -> 6665,
  // 3021 x 7 % = 211.47 -> 211; total 39100 - 1000 + 6876 = 44976.
  await expect(page.locator('#amount-due').textContent()).resolves.toBe('449.76 EUR');
  expect(invoice.total).toBe(44_976);
  const pay = page.getByRole('link', { name: 'Pay 449.76 EUR' });
  await expect(pay.getAttribute('href')).resolves.toMatch(/^\/pay\/invoices\//);
  const pdf = page.getByRole('link', { name: 'Download PDF' });
  const pdfResponse = await page.request.get(
    new URL(String(await pdf.getAttribute('href')), page.url()).toString(),
  );
  expect(pdfResponse.headers()['content-type']).toBe('application/pdf');
  // The stylesheet came from 'self' (the CSP allows nothing inline), and nothing was refused.
  expect(stylesheets).toEqual([200]);
  expect(violations).toEqual([]);
  await page.close();
});

it("shows the seller's logo, brand colour and contact from its business profile, under the CSP", async () => {
  // A 1x1 PNG in the brand colour.
  const logo = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGPgqokEAAFzAOBIgglpAAAAAElFTkSuQmCC';
  expect(
    (
      await api('POST', '/v1/account', {
        trading_name: 'Acme Studio',
        brand_color: '#0a7c59',
        support_email: 'help@acme.example',
      })
    ).status,
  ).toBe(200);
  expect((await api('POST', '/v1/account/logo', { file: logo })).status).toBe(200);
  const invoice = await sentInvoice();
  const page = await browser.newPage({ javaScriptEnabled: false });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const loaded = new Map<string, number>();
  page.on('response', (r) => loaded.set(new URL(r.url()).pathname, r.status()));
  await page.goto(invoice.hosted_url);
  const img = page.getByRole('img', { name: 'Acme Studio' });
  await expect(img.getAttribute('src')).resolves.toMatch(/^\/i\/logos\/acct_\w+\/[0-9a-f]{32}$/);
  await expect(page.getByText('Questions? Contact help@acme.example.').count()).resolves.toBe(1);
  // The colour reached the page through its stylesheet: the top border of the main block.
  await expect(page.locator('main').evaluate((e) => getComputedStyle(e).borderTopColor)).resolves.toBe(
    'rgb(10, 124, 89)',
  );
  expect(loaded.get('/i/brand/0a7c59.css')).toBe(200);
  expect(loaded.get(String(await img.getAttribute('src')))).toBe(200);
  expect(violations).toEqual([]);
  await page.close();
  expect((await api('DELETE', '/v1/account/logo')).status).toBe(200);
});

(PAYMENTS_SERVES_INVOICES ? it : it.skip)(
  'pays with a sandbox card through the Pay button and comes back to "Paid" without JavaScript',
  async () => {
    const invoice = await sentInvoice();
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto(invoice.hosted_url);
    await page.getByRole('link', { name: /^Pay / }).click();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel(/Expiry month/).fill('12');
    await page.getByLabel(/Expiry year/).fill(String(new Date().getUTCFullYear() + 2));
    await page.getByLabel(/Security code/).fill('123');
    await Promise.all([
      page.waitForURL(/\/i\/.+\?payment=txn_/),
      page.getByRole('button', { name: /^Pay/ }).click(),
    ]);
    // Until the payment event has settled the invoice the page says "Processing" and carries
    // a 2 s meta refresh; the browser reloads it until it says "Paid". The DOM is read once per
    // load. CI once saw no reload for a minute; the one failure that kept the page showed the
    // page's own race (a stale invoice without banner, hence without refresh), fixed since.
    // As a guard, after 10 s without a load the test reloads the page as the refresh would.
    let html = await page.content();
    if (!html.includes('<strong>Paid.</strong>')) {
      expect(html).toContain('<strong>Processing your payment.</strong>');
      expect(html).toContain('<meta http-equiv="refresh" content="2">');
    }
    const deadline = Date.now() + 60_000;
    while (!html.includes('<strong>Paid.</strong>')) {
      if (Date.now() > deadline) throw new Error('the hosted page did not show "Paid" within 60 s');
      const reloaded = await page.waitForEvent('load', { timeout: 10_000 }).catch(() => undefined);
      if (!reloaded) await page.reload();
      html = await page.content().catch(() => '');
    }
    const settled = await api('GET', `/v1/invoices/${invoice.id}`);
    expect(settled.body).toMatchObject({ status: 'paid', amount_due: 0, amount_paid: invoice.total });
    await page.close();
  },
  // A loaded 2-core CI machine once needed more than jest's 60 s for this whole walk.
  180_000,
);
