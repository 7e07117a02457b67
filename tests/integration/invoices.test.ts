// Invoices end to end through the gateway, in whichever mode the project runs: exact totals,
// finalize and the gapless number, the state machine, list filters, e-mail on send, the
// hosted page and its PDF, and (once the payments service serves /pay/invoices and consumes
// payments.commands.v1) payment through the hosted page and by mandate.
//
// The cases of each mode live in invoices/ by concern and run here against one platform:
// each test file that starts one costs seconds of CPU per mode, so the suite stays one file.

import { startPlatform, type Platform, type TestAccount } from '../support/platform';
import { inputAndListCases } from './invoices/input-lists.cases';
import { invoiceHelpers, LINES, pathOf, type InvoicesContext } from './invoices/invoices.helpers';
import { lifecycleCases } from './invoices/lifecycle.cases';

let platform: Platform;
let account: TestAccount;
let accountName: string;
const ctx = (): InvoicesContext => ({ platform, account, accountName });
const { newCustomer, invoiceEvents } = invoiceHelpers(ctx);

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
  accountName = (await platform.admin('GET', `/admin/v1/accounts/${account.id}`)).body.name;
});

afterAll(async () => {
  await platform?.stop();
});

describe.each(['test', 'live'] as const)('invoices in %s mode', (mode) => {
  const key = () => (mode === 'test' ? account.testKey : account.liveKey);

  lifecycleCases(ctx, mode, key);
  inputAndListCases(ctx, key);
});

describe("the customer's billing summary and history", () => {
  it('count finalized invoices that are not void, owe the open ones, and list every finalized invoice', async () => {
    const key = account.testKey;
    const customer = await newCustomer(key);
    const open = await platform.api(key, 'POST', '/v1/invoices', { customer, lines: LINES });
    const paid = await platform.api(key, 'POST', '/v1/invoices', { customer, lines: LINES });
    await platform.api(key, 'POST', `/v1/invoices/${paid.body.id}/pay`, { paid_out_of_band: true });
    const voided = await platform.api(key, 'POST', '/v1/invoices', { customer, lines: LINES });
    await platform.api(key, 'POST', `/v1/invoices/${voided.body.id}/void`);
    const draft = await platform.api(key, 'POST', '/v1/invoices', { customer, lines: LINES, send: false });

    const got = await platform.api(key, 'GET', `/v1/customers/${customer}`);
    expect(got.body.billing_summary).toEqual({
      total_invoiced: 2 * 5848,
      total_paid: 0,
      balance_due: 5848,
      currency: 'GBP',
      invoice_count: 2,
    });
    const history = await platform.api(key, 'GET', `/v1/customers/${customer}/billing-history?limit=100`);
    expect(history.status).toBe(200);
    const items = history.body.data.map((i: any) => [i.type, i.id, i.status, i.amount]);
    expect(items).toHaveLength(3);
    expect(items).toEqual(
      expect.arrayContaining([
        ['invoice', open.body.id, 'open', 5848],
        ['invoice', paid.body.id, 'paid', 5848],
        ['invoice', voided.body.id, 'void', 5848],
      ]),
    );
    expect(items.map((i: any) => i[1])).not.toContain(draft.body.id);
  });
});

describe('test clocks', () => {
  it("dates a test-clock customer's invoice by the clock, and the clock's advance makes it overdue", async () => {
    const clock = await platform.api(account.testKey, 'POST', '/v1/test-clocks', {
      frozen_time: '2031-03-01T09:00:00.000Z',
    });
    expect(clock.status).toBe(200);
    const customer = await newCustomer(account.testKey, { test_clock: clock.body.id });
    const invoice = await platform.api(account.testKey, 'POST', '/v1/invoices', {
      customer,
      lines: LINES,
      days_until_due: 14,
    });
    expect(invoice.body).toMatchObject({
      status: 'open',
      test_clock: clock.body.id,
      created_at: '2031-03-01T09:00:00.000Z',
      status_transitions: { finalized_at: '2031-03-01T09:00:00.000Z' },
      due_date: '2031-03-15T09:00:00.000Z',
      sent_at: '2031-03-01T09:00:00.000Z',
      overdue: false,
    });
    const advanced = await platform.api(account.testKey, 'POST', `/v1/test-clocks/${clock.body.id}/advance`, {
      frozen_time: '2031-03-16T00:00:00.000Z',
    });
    expect(advanced.status).toBe(200);
    expect((await platform.api(account.testKey, 'GET', `/v1/invoices/${invoice.body.id}`)).body.overdue).toBe(
      true,
    );
    const events = await invoiceEvents(account.testKey, invoice.body.id, ['invoice.overdue']);
    expect(events.filter((e) => e.type === 'invoice.overdue')).toHaveLength(1);
    // The clock runs what falls due step by step: the sweep ran at the due date itself.
    expect(events.at(-1).created_at).toBe('2031-03-15T09:00:00.000Z');
  });
});

describe('tenancy and groupings', () => {
  it("answers 404 for another account's or the other mode's invoice; the payments grouping reads but does not write", async () => {
    const customer = await newCustomer(account.testKey);
    const invoice = await platform.api(account.testKey, 'POST', '/v1/invoices', {
      customer,
      lines: LINES,
      send: false,
    });
    const other = await platform.newAccount(['payments', 'invoicing']);
    for (const key of [other.testKey, account.liveKey]) {
      const response = await platform.api(key, 'GET', `/v1/invoices/${invoice.body.id}`);
      expect([response.status, response.body.error.code]).toEqual([404, 'resource_missing']);
      const finalize = await platform.api(key, 'POST', `/v1/invoices/${invoice.body.id}/finalize`);
      expect(finalize.status).toBe(404);
    }
    const paymentsOnly = await platform.newAccount(['payments']);
    const list = await platform.api(paymentsOnly.testKey, 'GET', '/v1/invoices');
    expect([list.status, list.body.data]).toEqual([200, []]);
    const create = await platform.api(paymentsOnly.testKey, 'POST', '/v1/invoices', {
      customer,
      lines: LINES,
    });
    expect([create.status, create.body.error.code]).toEqual([403, 'grouping_not_enabled']);
  });
});

describe('the hosted invoice page', () => {
  it('shows the invoice without JavaScript under a strict CSP, with the PDF and a Pay link to the card form', async () => {
    const customer = await newCustomer(account.testKey);
    const invoice = await platform.api(account.testKey, 'POST', '/v1/invoices', {
      customer,
      lines: LINES,
      discount: { percent_bps: 1000 },
    });
    const page = await platform.api(undefined, 'GET', pathOf(invoice.body.hosted_url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = String(page.body);
    expect(html).not.toMatch(/<script/i);
    for (const text of [
      invoice.body.number,
      accountName,
      'Jenny Rosen',
      'Consulting (hours)',
      '49.98 GBP',
      '-5.00 GBP',
      '7.65 GBP',
      '52.63 GBP',
      '20%',
      '5%',
    ]) {
      expect(html).toContain(text);
    }
    const payLink = /href="(\/pay\/invoices\/[^"]+)"/.exec(html)?.[1];
    expect(payLink).toBeDefined();

    const pdf = await fetch(`${platform.url}${pathOf(invoice.body.pdf_url)}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(
      `inline; filename="Invoice-${invoice.body.number}.pdf"`,
    );
    expect(pdf.headers.get('cache-control')).toBe('no-store');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const missing = await platform.api(undefined, 'GET', '/i/not-a-real-token-000000000000000');
    expect(missing.status).toBe(404);
  });
});
