// Issue 5's scenario as one chain, in both modes: a customer -> an invoice with three lines, two
// tax rates and a discount -> exact totals (worked out by hand below) -> the e-mail as the
// customer receives it from a real SMTP server (recipient, subject, the hosted page link, the
// PDF attached, read back with pdftotext) -> paid by card on the hosted page through the
// payments service -> invoice.paid in /v1/events and the invoice settled.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventAbout } from '../support/events';
import { CARDS, payInvoiceOnHostedPage } from '../support/pages';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

let platform: Platform;
let smtp: SmtpSink;
let account: TestAccount;
let dir: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  dir = await mkdtemp(join(tmpdir(), 'paygrid-invoice-scenario-'));
  platform = await startPlatform({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Billing <billing@seller.test>' } });
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
  await smtp?.close();
  await rm(dir, { recursive: true, force: true });
});

const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);

async function pdfText(pdf: Buffer): Promise<string> {
  const file = join(dir, 'invoice.pdf');
  await writeFile(file, pdf);
  const { stdout } = await promisify(execFile)('pdftotext', ['-layout', file, '-']);
  return stdout;
}

// Lines: 3 x 1,200.00 at 20 % = 360,000; 12 x 24.99 at 20 % = 29,988; 2 x 15.50 at 7 % = 3,100.
// Subtotal 393,088. Discount 5 % = 19,654.4 -> 19,654 (half-even), split by amount with the
// largest remainders: floors 17,999 / 1,499 / 154 leave 2 cents, which go to the third line
// (remainder 391,848 of 393,088) and the first (249,088): 18,000 / 1,499 / 155.
// Taxable 342,000 / 28,489 / 2,945 -> tax 68,400 / 5,697.8 -> 5,698 / 206.15 -> 206 = 74,304.
// Total 393,088 - 19,654 + 74,304 = 447,738 (4,477.38 EUR).
const LINES = [
  { description: 'Website design (days)', quantity: 3, unit_amount: 120_000, tax_rate_bps: 2000 },
  { description: 'Hosting (months)', quantity: 12, unit_amount: 2_499, tax_rate_bps: 2000 },
  { description: 'Printed manual', quantity: 2, unit_amount: 1_550, tax_rate_bps: 700 },
];

it('customer -> three lines, two tax rates, a discount -> exact totals -> mail with PDF -> paid on the hosted page -> invoice.paid', async () => {
  const email = `ap.${Math.random().toString(36).slice(2, 8)}@customer.test`;
  const customer = await api('POST', '/v1/customers', {
    name: 'Northwind Traders',
    email,
    currency: 'EUR',
    address: { line1: '12 Harbour Road', city: 'Dublin', postal_code: 'D02 X285', country: 'IE' },
  });
  expect(customer.status).toBe(200);

  // Created and sent in one call (the default).
  const created = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    lines: LINES,
    discount: { percent_bps: 500 },
  });
  expect(created.status).toBe(200);
  const invoice = created.body;
  expect(invoice).toMatchObject({
    status: 'open',
    currency: 'EUR',
    subtotal: 393_088,
    discount_total: 19_654,
    tax_total: 74_304,
    total: 447_738,
    amount_paid: 0,
    amount_due: 447_738,
  });
  expect(invoice.lines.map((l: any) => l.amount)).toEqual([360_000, 29_988, 3_100]);
  expect(invoice.number).toMatch(/^INV-\d{4,}$/);

  // The mail, as the customer's server received it.
  const received = await eventually(
    async () => smtp.received.find((m) => m.envelopeTo.includes(email)),
    30_000,
  );
  expect(received.mail.subject).toContain(invoice.number);
  expect(received.mail.text ?? '').toContain(invoice.hosted_url);
  const pdf = received.mail.attachments.find((a) => a.contentType === 'application/pdf');
  expect(pdf).toBeDefined();
  const text = await pdfText(pdf?.content ?? Buffer.alloc(0));
  expect(text).toContain(invoice.number);
  expect(text).toContain('Northwind Traders');
  expect(text).toMatch(/4,?477\.38/); // total and amount due
  expect(text).toMatch(/3,?930\.88/); // subtotal
  expect(text).toMatch(/196\.54/); // discount
  // Tax by rate: 20 % on 342,000 + 28,489 = 370,489 -> 68,400 + 5,698; 7 % on 2,945 -> 206.
  expect(text).toMatch(/Tax 20% on 3,?704\.89 EUR\s+740\.98/);
  expect(text).toMatch(/Tax 7% on 29\.45 EUR\s+2\.06/);
  expect(text).toContain(invoice.hosted_url);

  // Paid by card on the hosted page: its "Pay" link -> the payments service's card form.
  const submitted = await payInvoiceOnHostedPage(platform, invoice.hosted_url, CARDS.ok, {
    cardholder_name: 'Northwind AP',
  });
  expect(submitted.status).toBe(303);
  expect(submitted.headers.get('location')).toContain('payment=txn_');

  const paid = await eventAbout(platform, account.testKey, 'invoice.paid', invoice.id, 60_000);
  expect(paid.data.object).toMatchObject({ status: 'paid', amount_paid: 447_738, amount_due: 0 });
  const settled = await api('GET', `/v1/invoices/${invoice.id}`);
  expect(settled.body).toMatchObject({ status: 'paid', amount_paid: 447_738, amount_due: 0 });
  const payment = await api('GET', `/v1/transactions?limit=10`);
  const charge = payment.body.data.find((t: any) => t.invoice === invoice.id);
  expect(charge).toMatchObject({ type: 'payment', status: 'succeeded', amount: 447_738, currency: 'EUR' });
}, 180_000);
