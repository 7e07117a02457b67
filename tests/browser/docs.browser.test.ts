// The reference page /docs in a real browser (Debian chromium through playwright-core), as
// served (its CSP included): axe-core finds no accessibility violation at desktop width and at
// 375 px, nothing overflows sideways on a phone, every operation has a curl and an SDK example,
// the test-card table lists every card of the sandbox connector's own table, and the search
// (a plain form, no JavaScript) finds operations, cards and guides. Screenshots land in
// tests/output/ (docs-*.png).

import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { SANDBOX_TEST_CARDS } from '../../apps/payments/src/connectors/sandbox.connector';
import { launchBrowser, outputPath } from '../support/browser';
import { startPlatform, type Platform } from '../support/platform';

let platform: Platform;
let browser: Browser;
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

beforeAll(async () => {
  browser = await launchBrowser();
  platform = await startPlatform();
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

async function open(path: string, width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 812 } });
  const response = await page.goto(`${platform.url}${path}`);
  expect(response?.status()).toBe(200);
  return page;
}

/** axe-core's violations (every WCAG 2.x A/AA rule and best practice axe runs by default). */
async function violations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  // Runtime evaluation through the DevTools protocol: the page's CSP (no scripts) stays as served.
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const run = await axe.run(document, { resultTypes: ['violations'] });
    return run.violations.map((v: any) => ({
      id: v.id,
      nodes: v.nodes.slice(0, 3).map((n: any) => n.html as string),
    }));
  });
  return result;
}

/** How far the page is wider than its viewport (0: nothing overflows sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

// The reference is one page of 28,265 elements (748 kB of HTML): axe-core's full run over it took
// 27 s on an idle 2-core machine (color-contrast 19 s and target-size 12 s of it, each measured
// alone), and over 60 s in a CI run where three Jest workers shared the two cores. Each axe test
// of the whole page gets four minutes; the rules and the page stay as they are.
const WHOLE_PAGE_AXE_MS = 240_000;

describe('/docs', () => {
  it(
    'has no axe-core violation at desktop width',
    async () => {
      const page = await open('/docs', 1280);
      expect(await violations(page)).toEqual([]);
      await page.screenshot({ path: outputPath('docs-desktop.png') });
      await page.locator('#test-cards').scrollIntoViewIfNeeded();
      await page.screenshot({ path: outputPath('docs-desktop-test-cards.png') });
      await page.close();
    },
    WHOLE_PAGE_AXE_MS,
  );

  it(
    'reads at 375 px: no sideways overflow, no axe-core violation',
    async () => {
      const page = await open('/docs', 375);
      expect(await overflow(page)).toBe(0);
      expect(await violations(page)).toEqual([]);
      await page.screenshot({ path: outputPath('docs-375-top.png') });
      await page.locator('#quick-start').scrollIntoViewIfNeeded();
      await page.screenshot({ path: outputPath('docs-375-quick-start.png') });
      await page.locator('#test-cards').scrollIntoViewIfNeeded();
      await page.screenshot({ path: outputPath('docs-375-test-cards.png') });
      await page.locator('article[id^="op-"]').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: outputPath('docs-375-operation.png') });
      await page.close();
    },
    WHOLE_PAGE_AXE_MS,
  );

  it('gives every operation a curl and an SDK example, and the test cards of the sandbox', async () => {
    const page = await open('/docs', 1280);
    const operations = await page.locator('article[id^="op-"]').evaluateAll((articles) =>
      articles.map((a) => ({
        id: a.id,
        curl: [...a.querySelectorAll('pre')].some((p) => p.textContent?.startsWith('curl')),
        sdk: [...a.querySelectorAll('details.sdk pre')].some((p) =>
          p.textContent?.includes('await paygrid.'),
        ),
      })),
    );
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter((o) => !o.curl || !o.sdk)).toEqual([]);
    const numbers = await page
      .locator('#test-cards + p + div table tbody tr td:first-child')
      .allTextContents();
    expect(numbers.map((n) => n.replace(/ /g, ''))).toEqual(Object.keys(SANDBOX_TEST_CARDS));
    expect(await page.locator('#webhooks-guide ~ pre').first().textContent()).toContain('webhooks.verify(');
    await page.close();
  });
});

describe('/docs/search', () => {
  it('finds operations, test cards and guides without JavaScript', async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 375, height: 812 },
    });
    const page = await context.newPage();
    await page.goto(`${platform.url}/docs`);
    await page.getByLabel('Search the reference').fill('refund');
    await Promise.all([
      page.waitForURL(/\/docs\/search\?q=refund/),
      page.getByRole('button', { name: 'Search' }).click(),
    ]);
    const results = page.getByRole('listitem');
    expect(await results.allTextContents()).toContainEqual(expect.stringMatching(/^POST \/v1\/refunds: /));
    await page.screenshot({ path: outputPath('docs-375-search.png') });
    expect(await overflow(page)).toBe(0);

    await page.goto(`${platform.url}/docs/search?q=4000+0027`);
    expect(await page.getByRole('link').allTextContents()).toContain('Test cards');
    await page.goto(`${platform.url}/docs/search?q=whsec+signature`);
    expect(await page.getByRole('link').allTextContents()).toContain('Verifying webhooks');
    await page.goto(`${platform.url}/docs/search?q=${'x'.repeat(5000)}`);
    expect(await page.getByRole('status').textContent()).toBe('0 results');
    await context.close();

    const checked = await open('/docs/search?q=invoice', 375);
    expect(await violations(checked)).toEqual([]);
    await checked.close();
  });
});
