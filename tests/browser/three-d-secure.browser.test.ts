// A real browser (Debian chromium through playwright-core, JavaScript disabled) pays a sandbox
// payment link with the 3-D Secure test card 4000 0027 6000 3184: the checkout redirects to the
// sandbox's challenge page, the payer approves, comes back to the return URL and sees the
// payment made; once more with the challenge failed: nothing charged, a clear page. The pages'
// CSP (form-action) must let each redirect through. Screenshots land in tests/output/.

import type { Browser, BrowserContext, Page } from 'playwright-core';
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
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await platform?.stop();
});

async function payWithThreeDS(): Promise<{ page: Page; link: string }> {
  const link = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
    currency: 'EUR',
    line_items: [{ description: 'Concert ticket', quantity: 1, unit_amount: 3900 }],
  });
  expect(link.status).toBe(200);
  const page = await context.newPage();
  expect((await page.goto(`${platform.url}/pay/${link.body.id}`))?.status()).toBe(200);
  await page.getByLabel('Card number').fill('4000 0027 6000 3184');
  await page.getByLabel('Expiry month (MM)').fill('12');
  await page.getByLabel('Expiry year (YYYY)').fill('2099');
  await page.getByLabel('Security code (CVC)').fill('123');
  await Promise.all([
    page.waitForURL(/\/pay\/sandbox\/challenge\//),
    page.getByRole('button', { name: /^Pay/ }).click(),
  ]);
  expect(await page.locator('h1').textContent()).toBe('Confirm this payment');
  expect(await page.locator('script').count()).toBe(0);
  return { page, link: link.body.id };
}

const transactionsOf = async (link: string) =>
  (await platform.api(account.testKey, 'GET', `/v1/transactions?payment_link=${link}`)).body.data;

it('approved: redirect, challenge page, approve, return, paid', async () => {
  const { page, link } = await payWithThreeDS();
  expect((await transactionsOf(link))[0].status).toBe('requires_action');
  await page.screenshot({ path: outputPath('three-d-secure-challenge.png'), fullPage: true });
  const [returned] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/pay/return/')),
    page.getByRole('button', { name: 'Approve the payment' }).click(),
  ]);
  expect(returned.status()).toBe(200);
  await page.waitForLoadState();
  expect(await page.getByRole('status').textContent()).toContain('Payment successful.');
  await page.screenshot({ path: outputPath('three-d-secure-paid.png'), fullPage: true });
  const [paid] = await transactionsOf(link);
  expect(paid).toMatchObject({ status: 'succeeded', amount: 3900 });
});

it('failed: the challenge failed, not charged, a clear page', async () => {
  const { page, link } = await payWithThreeDS();
  const [returned] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/pay/return/')),
    page.getByRole('button', { name: 'Fail authentication' }).click(),
  ]);
  expect(returned.status()).toBe(402);
  await page.waitForLoadState();
  expect(await page.locator('h1').textContent()).toBe('Payment not completed');
  expect(await page.locator('body').textContent()).toContain('You have not been charged');
  await page.screenshot({ path: outputPath('three-d-secure-failed.png'), fullPage: true });
  const [failed] = await transactionsOf(link);
  expect(failed).toMatchObject({
    status: 'failed',
    failure_code: 'authentication_required',
    refundable_amount: 0,
  });
});
