// Receipts (issue 17 item 4), in both modes: a checkout payer who gave an address receives a
// receipt e-mail (numbered RCPT-0001, the PDF attached) and, when the payment is refunded, a
// refund notice; a recurring checkout's payer receives one for each cycle the scheduler
// charges; the payer of a hosted invoice receives one at the customer's address; the
// account's switches (receipts.payments, receipts.refunds on the business profile) stop them;
// GET /v1/transactions/:id/receipt serves the PDF (the gateway routes it to invoicing), read
// back with pdftotext, with another account's transaction a 404. Mail is checked as a real
// SMTP server received it (attachments included) and in invoicing's mail queue. The checkout's
// success page says where the receipt went, and says nothing when the switch is off. A German
// customer's receipt mail, refund notice and PDF read in German (issue 17 item 6).

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CARDS, decodeHtml, pathOf, payInvoiceOnHostedPage, payPage } from '../support/pages';
import { DAY_MS, eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';
import { pngLogo } from '../support/png';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink';

let platform: Platform;
let smtp: SmtpSink;
let dir: string;
let account: TestAccount;

beforeAll(async () => {
  smtp = await startSmtpSink();
  dir = await mkdtemp(join(tmpdir(), 'paygrid-receipts-'));
  platform = await startPlatform({
    paymentsTestClock: true,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Paygrid <no-reply@mail.test>' },
  });
  account = await platform.newAccount(['payments', 'invoicing']);
  const profile = await api('POST', '/v1/account', {
    legal_name: 'Zoë Łukasiewicz Sp. z o.o.',
    trading_name: 'Zoë Studio',
    address: { line1: 'ul. Świętokrzyska 12', city: 'Warszawa', postal_code: '00-916', country: 'PL' },
    support_email: 'billing@zoe.example',
  });
  expect(profile.status).toBe(200);
  expect(profile.body.receipts).toEqual({ payments: true, refunds: true });
});

afterAll(async () => {
  await platform?.stop();
  await smtp?.close();
  await rm(dir, { recursive: true, force: true });
});

const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);

async function pdfText(pdf: Buffer): Promise<string> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await promisify(execFile)('pdftotext', ['-layout', file, '-']);
  return stdout;
}

/** The receipt PDF of a transaction, once invoicing has issued it. */
async function receiptPdf(transaction: string, key = account.testKey) {
  return eventually(async () => {
    const response = await fetch(`${platform.url}/v1/transactions/${transaction}/receipt`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (response.status === 404) return undefined;
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: Buffer.from(await response.arrayBuffer()),
    };
  }, 30_000);
}

/** Pays a new one-time link on its hosted checkout; answers the transaction and the success page. */
async function payLink(amount: number, extra: Record<string, string>) {
  const link = await api('POST', '/v1/payment-links', { amount, currency: 'EUR', description: 'Workshop' });
  expect(link.status).toBe(200);
  const paid = await payPage(platform, pathOf(link.body.url), CARDS.ok, extra);
  // The hosted checkout answers its success page.
  expect(paid.status).toBe(200);
  const list = await api('GET', `/v1/transactions?payment_link=${link.body.id}`);
  expect(list.body.data).toHaveLength(1);
  return { payment: list.body.data[0], page: String(paid.body) };
}

const mailTo = (address: string, subject: RegExp) =>
  eventually(
    async () =>
      smtp.received.find(
        (m: ReceivedMail) => m.envelopeTo.includes(address) && subject.test(m.mail.subject ?? ''),
      ),
    30_000,
  );

it('e-mails a checkout payer a numbered receipt with its PDF, then a refund notice, and serves the PDF', async () => {
  const payer = `payer-${Date.now()}@example.test`;
  const { payment, page } = await payLink(12_345, { email: payer });
  expect(payment).toMatchObject({ status: 'succeeded', receipt_email: payer });
  // The success page says where the receipt went (the address in full, as Stripe's checkout does).
  expect(page).toContain(`<p id="receipt-sent">A receipt was sent to ${payer}.</p>`);

  const receipt = await mailTo(payer, /^Your receipt from Zoë Studio \[RCPT-0001\]$/);
  expect(receipt.mail.from?.value).toEqual([{ name: 'Zoë Studio', address: 'no-reply@mail.test' }]);
  expect(receipt.mail.replyTo?.value).toEqual([{ name: '', address: 'billing@zoe.example' }]);
  expect(receipt.mail.text).toContain('Thank you for your payment of 123.45 EUR to Zoë Studio');
  expect(receipt.mail.text).toContain('Receipt number: RCPT-0001. Paid with Visa ending in 4242.');
  expect(receipt.mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
    ['Receipt-RCPT-0001.pdf', 'application/pdf'],
  ]);
  const attached = await pdfText(receipt.mail.attachments[0].content);
  expect(attached).toContain('RECEIPT');
  expect(attached).toContain('No. RCPT-0001');
  expect(attached).toMatch(/Amount paid\s+123\.45 EUR/);
  expect(attached).toMatch(/Payment method\s+Visa ending in 4242/);
  expect(attached).toContain('ul. Świętokrzyska 12');

  const pdf = await receiptPdf(payment.id);
  expect(pdf.status).toBe(200);
  expect(pdf.type).toBe('application/pdf');
  expect(await pdfText(pdf.body)).toContain('No. RCPT-0001');

  // A partial refund: the notice goes to the same address with the updated receipt.
  const refund = await api('POST', '/v1/refunds', { transaction: payment.id, amount: 2_345 });
  expect(refund.status).toBe(200);
  expect(refund.body.status).toBe('succeeded');
  const notice = await mailTo(payer, /^Your refund from Zoë Studio \[RCPT-0001\]$/);
  expect(notice.mail.text).toContain(
    'Zoë Studio has refunded 23.45 EUR of your payment of 123.45 EUR (receipt RCPT-0001).',
  );
  const updated = await pdfText(notice.mail.attachments[0].content);
  expect(updated).toMatch(/Refunded\s+23\.45 EUR/);
  expect(updated).toMatch(/Net paid\s+100\.00 EUR/);

  // One mail each, by their send keys, in the queue the suites read.
  const queued = await platform.sql(
    'invoicing',
    `select send_key, to_addresses, status from invoicing.mail_queue where account_id = $1 order by created_at`,
    [account.id],
  );
  expect(queued.map((m: any) => [m.send_key, m.to_addresses])).toEqual([
    [`receipt:${payment.id}`, [payer]],
    [`refund:${refund.body.id}`, [payer]],
  ]);

  // The seller's logo is on the receipt once uploaded, as on a quote: a 60 x 20 image, alpha as soft mask.
  expect((await api('POST', '/v1/account/logo', { file: pngLogo(60, 20).toString('base64') })).status).toBe(
    200,
  );
  const customer = await api('POST', '/v1/customers', {
    name: 'Quote Ltd',
    email: 'q@quote.test',
    currency: 'EUR',
  });
  const quote = await api('POST', '/v1/estimates', {
    kind: 'quote',
    customer: customer.body.id,
    lines: [{ description: 'Work', quantity: 1, unit_amount: 1_000 }],
  });
  expect(quote.status).toBe(200);
  for (const path of [`/v1/transactions/${payment.id}/receipt`, `/v1/estimates/${quote.body.id}/pdf`]) {
    const response = await fetch(`${platform.url}${path}`, {
      headers: { authorization: `Bearer ${account.testKey}` },
    });
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    const file = join(dir, `${path.split('/')[3]}.pdf`);
    await writeFile(file, Buffer.from(await response.arrayBuffer()));
    const { stdout: images } = await promisify(execFile)('pdfimages', ['-list', file]);
    expect({ path, logo: /\n\s+1\s+0\s+image\s+60\s+20\s+rgb/.test(images) }).toEqual({ path, logo: true });
  }
  await api('DELETE', '/v1/account/logo');

  // Another account's transaction is not there; a failed payment has no receipt.
  const other = await platform.newAccount(['payments', 'invoicing']);
  const theirs = await platform.api(other.testKey, 'GET', `/v1/transactions/${payment.id}/receipt`);
  expect(theirs.status).toBe(404);
  expect(theirs.body.error.code).toBe('resource_missing');
  const readOnly = await platform.api(account.testKey, 'GET', `/v1/transactions/txn_missing00000000/receipt`);
  expect(readOnly.status).toBe(404);
}, 120_000);

it("sends the receipt of a hosted invoice's payment to the customer, numbered next, naming the invoice", async () => {
  const customer = await api('POST', '/v1/customers', {
    name: 'Jürgen Weiß GmbH',
    email: `ap-${Date.now()}@weiss.example`,
    currency: 'EUR',
  });
  const invoice = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    lines: [{ description: 'Consulting', quantity: 2, unit_amount: 5_000 }],
  });
  expect(invoice.body.status).toBe('open');
  const paid = await payInvoiceOnHostedPage(platform, invoice.body.hosted_url, CARDS.ok);
  expect(paid.status).toBe(303);
  const receipt = await mailTo(customer.body.email, /\[RCPT-0002\]$/);
  expect(receipt.mail.text).toContain(`Invoice ${invoice.body.number}.`);
  expect(await pdfText(receipt.mail.attachments[0].content)).toMatch(
    new RegExp(`Invoice\\s+${invoice.body.number}`),
  );
}, 120_000);

it("sends a German customer's receipt, refund notice and PDF in German", async () => {
  const customer = await api('POST', '/v1/customers', {
    name: 'Jürgen Weiß GmbH',
    email: `de-${Date.now()}@weiss.example`,
    currency: 'EUR',
    preferred_locales: ['de-DE', 'en'],
  });
  expect(customer.status).toBe(200);
  const invoice = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    lines: [{ description: 'Beratung', quantity: 3, unit_amount: 41_650 }],
  });
  expect(invoice.body.status).toBe('open');
  // The invoice's card form follows the payer's browser (Accept-Language), as the checkout does.
  const hosted = String((await platform.api(undefined, 'GET', pathOf(invoice.body.hosted_url))).body);
  const formPath = pathOf(decodeHtml(/href="([^"]*\/pay\/invoices\/[^"]+)"/.exec(hosted)?.[1] ?? ''));
  const form = await platform.api(undefined, 'GET', formPath, undefined, { 'accept-language': 'de-DE' });
  expect(form.status).toBe(200);
  expect(String(form.body)).toContain('<html lang="de">');
  expect(String(form.body)).toContain('Fälliger Betrag: <span id="total">1.249,50\u00a0€</span>');
  expect(String(form.body)).toContain('<button type="submit">1.249,50\u00a0€ bezahlen</button>');
  expect(String(form.body)).toContain('Zurück zur Rechnung');
  expect((await payInvoiceOnHostedPage(platform, invoice.body.hosted_url, CARDS.ok)).status).toBe(303);

  const receipt = await mailTo(customer.body.email, /^Ihre Quittung von Zoë Studio \[RCPT-\d{4}\]$/);
  const number = /\[(RCPT-\d{4})\]$/.exec(receipt.mail.subject ?? '')?.[1] ?? '';
  expect(number).toBe('RCPT-0003');
  expect(receipt.mail.text).toMatch(
    /^Guten Tag,\n\nVielen Dank für Ihre Zahlung über 1\.249,50\u00a0€ an Zoë Studio am \d{1,2}\. [A-Za-zä]+ \d{4}\./,
  );
  expect(receipt.mail.text).toContain(
    `Quittungsnummer: ${number}. Bezahlt mit Visa mit Endziffern 4242. Rechnung ${invoice.body.number}.`,
  );
  expect(receipt.mail.text).toContain('Die Quittung ist als PDF angehängt.');
  expect(receipt.mail.html).toContain('<html lang="de">');
  const attached = await pdfText(receipt.mail.attachments[0].content);
  expect(attached).toContain('QUITTUNG');
  expect(attached).toContain(`Nr. ${number}`);
  expect(attached).toMatch(/Bezahlter Betrag\s+1\.249,50\s€/);
  expect(attached).toMatch(/Zahlungsdatum\s+\d{1,2}\. [A-Za-zä]+ \d{4}/);
  expect(attached).toMatch(/Zahlungsmethode\s+Visa mit Endziffern 4242/);
  expect(attached).toMatch(new RegExp(`Rechnung\\s+${invoice.body.number}`));
  expect(attached).toContain('Bewahren Sie diese Quittung für Ihre Unterlagen auf.');
  expect(attached).not.toMatch(/Amount paid|Payment method|RECEIPT/);

  // The refund notice and the PDF the API serves later read in German too.
  const [{ transaction_id: transaction }] = await platform.sql(
    'invoicing',
    'select transaction_id from invoicing.receipts where account_id = $1 and number = $2',
    [account.id, number],
  );
  const refund = await api('POST', '/v1/refunds', { transaction, amount: 24_950 });
  expect(refund.body.status).toBe('succeeded');
  const notice = await mailTo(customer.body.email, /^Ihre Erstattung von Zoë Studio \[RCPT-\d{4}\]$/);
  expect(notice.mail.text).toContain(
    `Zoë Studio hat Ihnen 249,50\u00a0€ Ihrer Zahlung über 1.249,50\u00a0€ erstattet (Quittung ${number}).`,
  );
  expect(notice.mail.text).toContain('Der Betrag geht auf Ihre Visa mit Endziffern 4242 zurück');
  const served = await pdfText((await receiptPdf(transaction)).body);
  expect(served).toMatch(/Erstattet\s+249,50\s€/);
  expect(served).toMatch(/Netto bezahlt\s+1\.000,00\s€/);
}, 120_000);

it('sends nothing when the switches are off, and still numbers and serves the receipt', async () => {
  // A switch set to null is back to its default (on), never stored as null: Schemathesis found
  // `{ payments: null }` answered (and emitted in account.updated) as `payments: null`.
  const cleared = await api('POST', '/v1/account', { receipts: { payments: null, refunds: false } });
  expect(cleared.body.receipts).toEqual({ payments: true, refunds: false });
  expect((await api('GET', '/v1/account')).body.receipts).toEqual({ payments: true, refunds: false });
  const restored = await api('POST', '/v1/account', { receipts: { refunds: null } });
  expect(restored.body.receipts).toEqual({ payments: true, refunds: true });

  const off = await api('POST', '/v1/account', { receipts: { payments: false } });
  expect(off.body.receipts).toEqual({ payments: false, refunds: true });
  const bad = await api('POST', '/v1/account', { receipts: { payments: 'no' } });
  expect(bad.status).toBe(400);
  const unknown = await api('POST', '/v1/account', { receipts: { disputes: true } });
  expect(unknown.status).toBe(400);
  await api('POST', '/v1/account', { receipts: { refunds: false } });

  // The checkout reads the switch from its projection of the profile (account.updated).
  await eventually(async () => {
    const [row] = await platform.sql(
      'payments',
      'select receipts_payments from payments.account_profiles where account_id = $1',
      [account.id],
    );
    return row?.receipts_payments === false ? true : undefined;
  }, 30_000);
  const payer = `quiet-${Date.now()}@example.test`;
  const { payment, page } = await payLink(5_000, { email: payer });
  // No mail goes out, so the success page promises none.
  expect(page).toContain('Payment successful.');
  expect(page).not.toContain('receipt-sent');
  const pdf = await receiptPdf(payment.id);
  expect(await pdfText(pdf.body)).toContain('No. RCPT-0004');
  const refund = await api('POST', '/v1/refunds', { transaction: payment.id });
  expect(refund.body.status).toBe('succeeded');
  // The refund is on the receipt once invoicing has handled refund.succeeded.
  await eventually(async () => {
    const again = await receiptPdf(payment.id);
    return /Refunded\s+50\.00 EUR/.test(await pdfText(again.body)) ? true : undefined;
  }, 30_000);
  const queued = await platform.sql(
    'invoicing',
    'select send_key from invoicing.mail_queue where account_id = $1 and $2 = any(to_addresses)',
    [account.id, payer],
  );
  expect(queued).toEqual([]);
  expect(smtp.received.filter((m) => m.envelopeTo.includes(payer))).toEqual([]);
  await api('POST', '/v1/account', { receipts: null });
}, 120_000);

it("sends each cycle of a recurring checkout's mandate its own receipt, to the address the payer gave", async () => {
  const payer = `monthly-${Date.now()}@example.test`;
  const link = await api('POST', '/v1/payment-links', {
    type: 'recurring',
    amount: 1_500,
    currency: 'EUR',
    description: 'Monthly plan',
    recurring: { interval: 'month' },
  });
  expect(link.status).toBe(200);
  const paid = await payPage(platform, pathOf(link.body.url), CARDS.ok, { email: payer });
  expect(paid.status).toBe(200);
  const first = await mailTo(payer, /\[RCPT-0005\]$/);
  expect(first.mail.text).toContain('15.00 EUR');
  // One interval later the scheduler charges cycle 1: its receipt goes to the same payer.
  await platform.advancePaymentsClock(32 * DAY_MS);
  const second = await mailTo(payer, /\[RCPT-0006\]$/);
  expect(second.mail.attachments.map((a) => a.filename)).toEqual(['Receipt-RCPT-0006.pdf']);
  const payments = await api('GET', `/v1/transactions?payment_link=${link.body.id}`);
  expect(payments.body.data.map((t: any) => t.receipt_email)).toEqual([payer, payer]);
}, 120_000);
