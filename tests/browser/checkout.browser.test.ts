// A real browser (Debian chromium through playwright-core, JavaScript disabled, as the page
// promises to work without it) pays a payment link through the hosted checkout page: the
// form is reached by its labels, a declined card shows the error and a fresh form, a retry
// with a good card pays, and screenshots of both states land in tests/output/.

import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, outputPath } from '../support/browser';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchBrowser();
  context = await browser.newContext({ javaScriptEnabled: false });
  platform = await startPlatform();
  account = await platform.newAccount(['payments']);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await platform?.stop();
});

async function fillCard(page: import('playwright-core').Page, number: string): Promise<void> {
  await page.getByLabel('Name on card (optional)').fill('Grace Hopper');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry month (MM)').fill('12');
  await page.getByLabel('Expiry year (YYYY)').fill('2099');
  await page.getByLabel('Security code (CVC)').fill('123');
}

it('pays a link through the hosted page: a decline, then a retry that succeeds', async () => {
  const merchant = await platform.api(account.testKey, 'POST', '/v1/merchants', {
    business_name: 'Browser Bakery',
    email: 'owner@bakery.test',
    country: 'FR',
    default_currency: 'EUR',
    business_type: 'company',
  });
  const link = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
    merchant: merchant.body.id,
    currency: 'EUR',
    line_items: [{ description: 'Croissant', quantity: 3, unit_amount: 150 }],
    description: 'Breakfast order',
  });
  expect(link.status).toBe(200);

  const page = await context.newPage();
  const response = await page.goto(`${platform.url}/pay/${link.body.id}`);
  expect(response?.status()).toBe(200);
  await expect(page.title()).resolves.toBe('Pay Browser Bakery');
  expect(await page.locator('h1').textContent()).toBe('Browser Bakery');
  expect(await page.locator('#total').textContent()).toContain('4.50');
  expect(await page.locator('script').count()).toBe(0);

  await fillCard(page, '4000 0000 0000 0002');
  const [declined] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.getByRole('button', { name: /^Pay/ }).click(),
  ]);
  expect(declined.status()).toBe(402);
  const alert = page.getByRole('alert');
  expect(await alert.textContent()).toContain('The card was declined.');
  // The card fields are never re-filled from the submission.
  expect(await page.getByLabel('Card number').inputValue()).toBe('');
  await page.screenshot({ path: outputPath('checkout-declined.png'), fullPage: true });

  await fillCard(page, '4242 4242 4242 4242');
  const [paid] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.getByRole('button', { name: /^Pay/ }).click(),
  ]);
  expect(paid.status()).toBe(200);
  expect(await page.getByRole('status').textContent()).toContain('Payment successful.');
  await page.screenshot({ path: outputPath('checkout-paid.png'), fullPage: true });

  const transactions = await platform.api(
    account.testKey,
    'GET',
    `/v1/transactions?payment_link=${link.body.id}&limit=10`,
  );
  expect(
    transactions.body.data.map((t: any) => [t.status, t.payment_method.last4, t.amount]).reverse(),
  ).toEqual([
    ['failed', '0002', 450],
    ['succeeded', '4242', 450],
  ]);
  // The link is one-time: it is completed, and the page now says so.
  const closed = await page.goto(`${platform.url}/pay/${link.body.id}`);
  expect(closed?.status()).toBe(410);
});
