// Estimates and quotes end to end, in both modes: create with exact totals, edit the draft,
// list filters and pagination, send (gapless number per kind, the mail as the customer gets
// it from a real SMTP server, with the page link and the PDF), accept on the public page
// with an HTTP form post (CSRF token, double click decides once), convert into an invoice
// that is finalized and e-mailed, the other states, events and tenancy.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { csrfOf, pathOf } from '../support/pages';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

let platform: Platform;
let smtp: SmtpSink;
let account: TestAccount;
let other: TestAccount;
let dir: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  dir = await mkdtemp(join(tmpdir(), 'paygrid-estimates-'));
  platform = await startPlatform({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Billing <billing@seller.test>' } });
  account = await platform.newAccount(['invoicing']);
  other = await platform.newAccount(['invoicing']);
});

afterAll(async () => {
  await platform?.stop();
  await smtp?.close();
  await rm(dir, { recursive: true, force: true });
});

const key = () => account.testKey;

async function pdfText(pdf: Buffer): Promise<string> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await promisify(execFile)('pdftotext', ['-layout', file, '-']);
  return stdout;
}

async function newCustomer(apiKey: string, overrides: Record<string, unknown> = {}) {
  const response = await platform.api(apiKey, 'POST', '/v1/customers', {
    name: 'Jenny Rosen',
    email: `jenny.${Math.random().toString(36).slice(2, 8)}@example.test`,
    currency: 'EUR',
    address: { line1: '1 High Street', city: 'London', postal_code: 'N1 9GU', country: 'GB' },
    ...overrides,
  });
  expect(response.status).toBe(200);
  return response.body;
}

const LINES = [
  { description: 'Design workshop', quantity: 2, unit_amount: 45_000, tax_rate_bps: 2000 },
  { description: 'Implementation', quantity: 3, unit_amount: 33_333, tax_rate_bps: 2000 },
  { description: 'Printed guide', quantity: 5, unit_amount: 1_999, tax_rate_bps: 500 },
];

async function postForm(path: string, fields: Record<string, string>) {
  const response = await platform.api(undefined, 'POST', path, new URLSearchParams(fields));
  return { status: response.status, html: String(response.body ?? ''), headers: response.headers };
}

it('quote -> sent by mail -> accepted on the public page -> converted into a sent invoice', async () => {
  const customer = await newCustomer(key());
  const created = await platform.api(key(), 'POST', '/v1/estimates', {
    kind: 'quote',
    customer: customer.id,
    lines: LINES.slice(0, 2),
    discount: { percent_bps: 1000 },
    description: 'Website redesign',
  });
  expect(created.status).toBe(200);
  expect(created.body).toMatchObject({
    object: 'estimate',
    kind: 'quote',
    status: 'draft',
    number: null,
    currency: 'EUR',
    public_url: null,
    // 90 000 + 99 999 = 189 999; 10 % = 19 000 (18 999.9 half-even); tax 20 % on 170 999 per line
    subtotal: 189_999,
    discount_total: 19_000,
  });
  const quote = created.body;
  expect(quote.total).toBe(quote.subtotal - quote.discount_total + quote.tax_total);
  expect(quote.tax_total).toBe(quote.lines.reduce((sum: number, l: any) => sum + l.tax_amount, 0));

  // Draft edits recompute totals; a draft cannot be accepted.
  const edited = await platform.api(key(), 'POST', `/v1/estimates/${quote.id}`, { lines: LINES });
  expect(edited.status).toBe(200);
  expect(edited.body.subtotal).toBe(189_999 + 9_995);
  expect(edited.body.discount).toEqual({ percent_bps: 1000 });
  expect(edited.body.total).toBe(edited.body.subtotal - edited.body.discount_total + edited.body.tax_total);
  const early = await platform.api(key(), 'POST', `/v1/estimates/${quote.id}/accept`);
  expect(early.status).toBe(409);
  expect(early.body.error.code).toBe('invalid_state_transition');

  // Send: the number, the page, the mail with link and PDF.
  const sent = await platform.api(key(), 'POST', `/v1/estimates/${quote.id}/send`);
  expect(sent.status).toBe(200);
  expect(sent.body.status).toBe('sent');
  expect(sent.body.number).toMatch(/^Q-\d{4}$/);
  expect(sent.body.public_url).toMatch(/\/q\/[A-Za-z0-9_-]{43}$/);
  expect(sent.body.customer_details.email).toBe(customer.email);
  const mail = await eventually(async () => smtp.received.find((m) => m.envelopeTo.includes(customer.email)));
  expect(mail.mail.subject).toBe(`Quote ${sent.body.number} from ${sent.body.seller.name}`);
  expect(mail.mail.text).toContain(sent.body.public_url);
  expect(mail.mail.html).toContain(`href="${sent.body.public_url}"`);
  expect(mail.mail.attachments).toHaveLength(1);
  expect(mail.mail.attachments[0].filename).toBe(`Quote-${sent.body.number}.pdf`);
  const pdf = await pdfText(mail.mail.attachments[0].content);
  expect(pdf).toContain('QUOTE');
  expect(pdf).toContain(sent.body.number);
  expect(pdf).toContain('Jenny Rosen');
  expect(pdf).toContain(
    `${(sent.body.total / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} EUR`,
  );

  // The public page, through the gateway, without a key.
  const page = await fetch(`${platform.url}${pathOf(sent.body.public_url)}`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
  const html = await page.text();
  expect(html).toContain(`Quote ${sent.body.number}`);
  expect(html).toContain('Design workshop');
  expect(html).not.toContain('<script');
  const token = csrfOf(html);
  expect(token).not.toBe('');

  // A forged or missing token decides nothing.
  const forged = await postForm(`${pathOf(sent.body.public_url)}/accept`, { csrf_token: `${token}x` });
  expect(forged.status).toBe(403);
  expect((await platform.api(key(), 'GET', `/v1/estimates/${quote.id}`)).body.status).toBe('sent');

  // Accept; a double click with the same form decides once and shows the same outcome.
  const [first, second] = await Promise.all([
    postForm(`${pathOf(sent.body.public_url)}/accept`, { csrf_token: token }),
    postForm(`${pathOf(sent.body.public_url)}/accept`, { csrf_token: token }),
  ]);
  expect([first.status, second.status]).toEqual([200, 200]);
  for (const answer of [first, second]) expect(answer.html).toMatch(/you accepted this quote/i);
  const accepted = await platform.api(key(), 'GET', `/v1/estimates/${quote.id}`);
  expect(accepted.body).toMatchObject({ status: 'accepted', decided_via: 'page' });
  expect(accepted.body.status_transitions.accepted_at).not.toBeNull();
  // The same form's decline button, after the accept: the first decision stands.
  const late = await postForm(`${pathOf(sent.body.public_url)}/decline`, { csrf_token: token });
  expect(late.status).toBe(200);
  expect((await platform.api(key(), 'GET', `/v1/estimates/${quote.id}`)).body.status).toBe('accepted');

  // Convert, finalized and sent.
  const converted = await platform.api(key(), 'POST', `/v1/estimates/${quote.id}/convert`, { send: true });
  expect(converted.status).toBe(200);
  expect(converted.body.status).toBe('invoiced');
  expect(converted.body.invoice).toMatch(/^inv_/);
  const invoice = await platform.api(key(), 'GET', `/v1/invoices/${converted.body.invoice}`);
  expect(invoice.status).toBe(200);
  expect(invoice.body).toMatchObject({
    status: 'open',
    estimate: quote.id,
    customer: customer.id,
    currency: 'EUR',
    subtotal: sent.body.subtotal,
    discount_total: sent.body.discount_total,
    tax_total: sent.body.tax_total,
    total: sent.body.total,
    amount_due: sent.body.total,
  });
  expect(invoice.body.lines.map((l: any) => l.description)).toEqual(LINES.map((l) => l.description));
  const invoiceMail = await eventually(async () =>
    smtp.received.find((m) => m.mail.subject?.startsWith(`Invoice ${invoice.body.number}`)),
  );
  expect(invoiceMail.envelopeTo).toEqual([customer.email]);
  expect(invoiceMail.mail.attachments[0].contentType).toBe('application/pdf');
  const again = await platform.api(key(), 'POST', `/v1/estimates/${quote.id}/convert`);
  expect(again.status).toBe(409);

  // The page now says it was invoiced and offers no buttons.
  const after = await (await fetch(`${platform.url}${pathOf(sent.body.public_url)}`)).text();
  expect(after).toContain('it has been invoiced');
  expect(after).not.toContain('csrf_token');

  // Events, in the order they happened.
  const types = await eventually(async () => {
    const events = await platform.api(key(), 'GET', '/v1/events?limit=100');
    const mine = (events.body.data as any[])
      .filter((e) => e.type.startsWith('estimate.') && e.data.object.id === quote.id)
      .map((e) => e.type)
      .reverse();
    return mine.length === 4 ? mine : undefined;
  });
  expect(types).toEqual(['estimate.created', 'estimate.sent', 'estimate.accepted', 'estimate.invoiced']);
  // Exactly one mail per send action.
  expect(smtp.received.filter((m) => m.envelopeTo.includes(customer.email))).toHaveLength(2);
});

it('numbers each kind gaplessly, walks decline and cancel, filters and pages lists, hides other tenants', async () => {
  const customer = await newCustomer(key());
  const make = async (kind: string) => {
    const r = await platform.api(key(), 'POST', '/v1/estimates', {
      kind,
      customer: customer.id,
      lines: [LINES[2]],
    });
    expect(r.status).toBe(200);
    return r.body;
  };
  const e1 = await make('estimate');
  const e2 = await make('estimate');
  const q1 = await make('quote');
  const sentE1 = await platform.api(key(), 'POST', `/v1/estimates/${e1.id}/send`);
  const sentE2 = await platform.api(key(), 'POST', `/v1/estimates/${e2.id}/send`);
  expect(sentE1.body.number).toBe('EST-0001');
  expect(sentE2.body.number).toBe('EST-0002');
  // Sending again keeps the number (and mails again).
  const resent = await platform.api(key(), 'POST', `/v1/estimates/${e1.id}/send`);
  expect(resent.body.number).toBe('EST-0001');

  // The document through the API, as sent.
  const pdf = await fetch(`${platform.url}/v1/estimates/${e2.id}/pdf`, {
    headers: { authorization: `Bearer ${key()}` },
  });
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  expect(pdf.headers.get('content-disposition')).toBe('inline; filename="Estimate-EST-0002.pdf"');
  // A customer's document: never kept by a cache on the way.
  expect(pdf.headers.get('cache-control')).toBe('no-store');
  const pdfTextOf = await pdfText(Buffer.from(await pdf.arrayBuffer()));
  expect(pdfTextOf).toContain('ESTIMATE');
  expect(pdfTextOf).toContain('No. EST-0002');
  expect(pdfTextOf).toContain('Printed guide');
  expect((await platform.api(other.testKey, 'GET', `/v1/estimates/${e2.id}/pdf`)).status).toBe(404);

  const declined = await platform.api(key(), 'POST', `/v1/estimates/${e1.id}/decline`);
  expect(declined.body).toMatchObject({ status: 'declined', decided_via: 'api' });
  expect((await platform.api(key(), 'POST', `/v1/estimates/${e1.id}/accept`)).status).toBe(409);
  const canceled = await platform.api(key(), 'POST', `/v1/estimates/${q1.id}/cancel`);
  expect(canceled.body.status).toBe('canceled');
  expect((await platform.api(key(), 'POST', `/v1/estimates/${q1.id}/send`)).status).toBe(409);
  expect((await platform.api(key(), 'POST', `/v1/estimates/${q1.id}`, { description: 'x' })).status).toBe(
    409,
  );

  const list = await platform.api(key(), 'GET', `/v1/estimates?customer=${customer.id}&kind=estimate`);
  expect(list.body.data.map((e: any) => e.id)).toEqual([e2.id, e1.id]);
  const byStatus = await platform.api(key(), 'GET', `/v1/estimates?customer=${customer.id}&status=canceled`);
  expect(byStatus.body.data.map((e: any) => e.id)).toEqual([q1.id]);
  const page1 = await platform.api(key(), 'GET', `/v1/estimates?customer=${customer.id}&limit=2`);
  expect(page1.body.has_more).toBe(true);
  const page2 = await platform.api(
    key(),
    'GET',
    `/v1/estimates?customer=${customer.id}&limit=2&starting_after=${page1.body.data[1].id}`,
  );
  expect([...page1.body.data, ...page2.body.data].map((e: any) => e.id)).toEqual([q1.id, e2.id, e1.id]);
  const future = await platform.api(
    key(),
    'GET',
    `/v1/estimates?customer=${customer.id}&created[gt]=${Math.floor(Date.now() / 1000) + 3600}`,
  );
  expect(future.body.data).toEqual([]);
  expect((await platform.api(key(), 'GET', '/v1/estimates?kind=invoice')).status).toBe(400);

  // Another account, or the other mode: 404.
  expect((await platform.api(other.testKey, 'GET', `/v1/estimates/${e2.id}`)).status).toBe(404);
  expect((await platform.api(account.liveKey, 'GET', `/v1/estimates/${e2.id}`)).status).toBe(404);
  expect((await platform.api(other.testKey, 'POST', `/v1/estimates/${e2.id}/accept`)).status).toBe(404);
  // A customer of another account cannot be used.
  const foreign = await newCustomer(other.testKey);
  const refused = await platform.api(key(), 'POST', '/v1/estimates', {
    customer: foreign.id,
    lines: [LINES[0]],
  });
  expect(refused.status).toBe(404);
});

it('rejects bad input with 400 and changes nothing', async () => {
  const customer = await newCustomer(key(), { email: undefined });
  const bad = [
    { customer: customer.id, lines: [{ description: 'x', quantity: 1, unit_amount: 1.5 }] },
    { customer: customer.id, lines: [], kind: 'invoice' },
    { customer: customer.id, lines: [], expires_at: '2001-01-01T00:00:00Z' },
    { customer: customer.id, lines: [], discount: { percent_bps: 10, amount: 5 } },
    { customer: customer.id, lines: [], surprise: true },
  ];
  for (const body of bad) {
    const r = await platform.api(key(), 'POST', '/v1/estimates', body);
    expect(r.status).toBe(400);
  }
  const list = await platform.api(key(), 'GET', `/v1/estimates?customer=${customer.id}`);
  expect(list.body.data).toEqual([]);
  // Sending needs an e-mail address; nothing changes and no number is taken.
  const draft = await platform.api(key(), 'POST', '/v1/estimates', {
    customer: customer.id,
    lines: [LINES[0]],
  });
  const send = await platform.api(key(), 'POST', `/v1/estimates/${draft.body.id}/send`);
  expect(send.status).toBe(400);
  expect(send.body.error.param).toBe('customer');
  expect((await platform.api(key(), 'GET', `/v1/estimates/${draft.body.id}`)).body).toMatchObject({
    status: 'draft',
    number: null,
  });
  // A customer archived after the draft was made cannot be sent to.
  const archived = await newCustomer(key());
  const forArchived = await platform.api(key(), 'POST', '/v1/estimates', {
    customer: archived.id,
    lines: [LINES[0]],
  });
  expect((await platform.api(key(), 'DELETE', `/v1/customers/${archived.id}`)).status).toBe(200);
  const refusedSend = await platform.api(key(), 'POST', `/v1/estimates/${forArchived.body.id}/send`);
  expect(refusedSend.status).toBe(400);
  expect(refusedSend.body.error.param).toBe('customer');
  // An unknown page is a 404 page, not an error envelope.
  const missing = await fetch(`${platform.url}/q/${'A'.repeat(43)}`);
  expect(missing.status).toBe(404);
  expect(await missing.text()).toContain('does not exist');
});

it('numbers concurrent sends without gap or duplicate, and converts a quote once under a race', async () => {
  const racer = await platform.newAccount(['invoicing']);
  const customer = await newCustomer(racer.testKey);
  const drafts = await Promise.all(
    Array.from({ length: 12 }, () =>
      platform.api(racer.testKey, 'POST', '/v1/estimates', {
        kind: 'quote',
        customer: customer.id,
        lines: [LINES[0]],
      }),
    ),
  );
  const sends = await Promise.all(
    drafts.map((d) => platform.api(racer.testKey, 'POST', `/v1/estimates/${d.body.id}/send`)),
  );
  expect(sends.map((s) => s.status)).toEqual(sends.map(() => 200));
  const numbers = sends.map((s) => s.body.number).sort();
  expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => `Q-${String(i + 1).padStart(4, '0')}`));

  // Accept and decline at once: one wins, the other is refused.
  const [one, two] = sends;
  const decisions = await Promise.all([
    platform.api(racer.testKey, 'POST', `/v1/estimates/${one.body.id}/accept`),
    platform.api(racer.testKey, 'POST', `/v1/estimates/${one.body.id}/decline`),
  ]);
  expect(decisions.map((d) => d.status).sort()).toEqual([200, 409]);

  // Two conversions at once: one invoice.
  expect((await platform.api(racer.testKey, 'POST', `/v1/estimates/${two.body.id}/accept`)).status).toBe(200);
  const converts = await Promise.all([
    platform.api(racer.testKey, 'POST', `/v1/estimates/${two.body.id}/convert`),
    platform.api(racer.testKey, 'POST', `/v1/estimates/${two.body.id}/convert`),
  ]);
  expect(converts.map((c) => c.status).sort()).toEqual([200, 409]);
  const invoices = await platform.api(racer.testKey, 'GET', `/v1/invoices?customer=${customer.id}&limit=100`);
  const fromQuote = invoices.body.data.filter((i: any) => i.estimate === two.body.id);
  expect(fromQuote).toHaveLength(1);
  expect(fromQuote[0]).toMatchObject({ status: 'draft', total: two.body.total, number: null });
});

it("converts a test-clock customer's estimate into an invoice dated at the clock's time", async () => {
  const frozen = '2030-03-01T12:00:00.000Z';
  const clock = await platform.api(key(), 'POST', '/v1/test-clocks', { frozen_time: frozen });
  expect(clock.status).toBe(200);
  const customer = await newCustomer(key(), { test_clock: clock.body.id });
  const draft = await platform.api(key(), 'POST', '/v1/estimates', {
    customer: customer.id,
    lines: [LINES[0]],
  });
  await platform.api(key(), 'POST', `/v1/estimates/${draft.body.id}/send`);
  await platform.api(key(), 'POST', `/v1/estimates/${draft.body.id}/accept`);
  const converted = await platform.api(key(), 'POST', `/v1/estimates/${draft.body.id}/convert`, {
    send: true,
    days_until_due: 14,
  });
  expect(converted.status).toBe(200);
  const invoice = await platform.api(key(), 'GET', `/v1/invoices/${converted.body.invoice}`);
  expect(invoice.body).toMatchObject({
    status: 'open',
    test_clock: clock.body.id,
    created_at: frozen,
    due_date: '2030-03-15T12:00:00.000Z',
  });
});
