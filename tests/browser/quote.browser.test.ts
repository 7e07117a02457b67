// The quote page in a real browser (Chromium through playwright-core, JavaScript off, as the
// page needs none): it renders under its strict CSP without violations, is navigable by its
// accessible roles and names, and the customer accepts the quote with the Accept button; the
// quote becomes `accepted` (decided on the page) and the page says so, without buttons.

import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;
let browser: Browser;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['invoicing']);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

/** The page's address on the test platform (public_url carries the configured base URL). */
const onPlatform = (url: string) => `${platform.url}${new URL(url).pathname}`;

it('accepts a quote on its page, with JavaScript off, under the CSP', async () => {
  const customer = await platform.api(account.testKey, 'POST', '/v1/customers', {
    name: 'Jenny Rosen',
    email: 'jenny@example.test',
    currency: 'GBP',
  });
  const created = await platform.api(account.testKey, 'POST', '/v1/estimates', {
    kind: 'quote',
    customer: customer.body.id,
    lines: [
      { description: 'Garden design', quantity: 1, unit_amount: 120_000, tax_rate_bps: 2000 },
      { description: 'Planting (days)', quantity: 3, unit_amount: 35_000, tax_rate_bps: 2000 },
    ],
    discount: { percent_bps: 500 },
  });
  expect(created.status).toBe(200);
  const quote = (await platform.api(account.testKey, 'POST', `/v1/estimates/${created.body.id}/send`)).body;
  expect(quote.status).toBe('sent');

  const page = await browser.newPage({ javaScriptEnabled: false });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const stylesheets: number[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/q/assets/quote.css')) stylesheets.push(r.status());
  });
  const response = await page.goto(onPlatform(quote.public_url));
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`Quote ${quote.number}`);
  const table = page.getByRole('table');
  await expect(table.getByRole('row', { name: /Planting/ }).textContent()).resolves.toContain('1,050.00 GBP');
  // 120 000 + 105 000 = 225 000; 5 % off = 11 250; tax 20 % of 213 750 = 42 750; total 256 500.
  expect(quote.total).toBe(256_500);
  await expect(page.locator('#total').textContent()).resolves.toBe('2,565.00 GBP');

  await Promise.all([
    page.waitForURL(/\/accept$/),
    page.getByRole('button', { name: 'Accept quote' }).click(),
  ]);
  await expect(page.getByRole('status').textContent()).resolves.toMatch(/you accepted this quote/i);
  expect(await page.getByRole('button').count()).toBe(0);
  const accepted = await platform.api(account.testKey, 'GET', `/v1/estimates/${quote.id}`);
  expect(accepted.body).toMatchObject({ status: 'accepted', decided_via: 'page' });

  // Back to the page: it shows the decision, not the buttons.
  await page.goto(onPlatform(quote.public_url));
  await expect(page.getByRole('status').textContent()).resolves.toMatch(/You accepted this quote on/);
  expect(await page.getByRole('button').count()).toBe(0);
  expect(stylesheets.every((s) => s === 200 || s === 304)).toBe(true);
  expect(stylesheets.length).toBeGreaterThan(0);
  expect(violations).toEqual([]);
  await page.close();
});
