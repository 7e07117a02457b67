// Paying invoices through the payments service, end to end over HTTP and the bus, in both
// modes: the hosted invoice page's "Pay" link -> the payments service's card form at
// /pay/invoices/<token> -> a sandbox card -> payment.succeeded|failed -> the invoicing
// consumer settles the invoice (invoice.paid) or records the decline (invoice.payment_failed);
// a card saved on the page becomes the customer's default mandate, and /pay then charges it
// through a payment.charge_mandate command on payments.commands.v1.
//
// The card form and the command consumer belong to the payments service (issue 4, built on
// the payments branch). Until that code is present in this checkout the suite is skipped,
// visibly; once the branches are merged it runs. The invoicing side of the same flow (events
// on the real bus, the page's states, the command written) is covered on every checkout by
// tests/embedded/invoices-settlement.test.ts.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eventAbout } from '../support/events';
import { pathOf, payInvoiceOnHostedPage } from '../support/pages';
import { eventually, ROOT, startPlatform, type Platform, type TestAccount } from '../support/platform';

const PAYMENTS_SERVES_INVOICES = existsSync(join(ROOT, 'apps/payments/src/invoice-payments'));
const describeWithPayments = PAYMENTS_SERVES_INVOICES ? describe : describe.skip;

let platform: Platform;
let account: TestAccount;

const LINES = [
  { description: 'Consulting (hours)', quantity: 2, unit_amount: 1500, tax_rate_bps: 2000 },
  { description: 'Books', quantity: 3, unit_amount: 333, tax_rate_bps: 500 },
];

async function newInvoice(extra: Record<string, unknown> = {}, customerId?: string) {
  const customer =
    customerId ??
    (
      await platform.api(account.testKey, 'POST', '/v1/customers', {
        name: 'Jenny Rosen',
        email: 'jenny@example.test',
        currency: 'GBP',
      })
    ).body.id;
  const invoice = await platform.api(account.testKey, 'POST', '/v1/invoices', {
    customer,
    lines: LINES,
    discount: { percent_bps: 1000 },
    ...extra,
  });
  expect(invoice.status).toBe(200);
  return invoice.body;
}

const payOnPage = (invoice: any, card: string, saveCard = false) =>
  payInvoiceOnHostedPage(platform, invoice.hosted_url, card, saveCard ? { save_card: 'yes' } : {});

const invoiceEvent = (id: string, type: string) => eventAbout(platform, account.testKey, type, id);

describeWithPayments('paying invoices through the payments service', () => {
  beforeAll(async () => {
    platform = await startPlatform();
    account = await platform.newAccount(['payments', 'invoicing']);
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('pays on the hosted page with a sandbox card: back to the page, processing then Paid, invoice.paid', async () => {
    const invoice = await newInvoice();
    const paid = await payOnPage(invoice, '4242 4242 4242 4242');
    expect(paid.status).toBe(303);
    const location = String(paid.headers.get('location'));
    expect(pathOf(location)).toMatch(new RegExp(`^${pathOf(invoice.hosted_url)}\\?payment=txn_`));
    const settled = await eventually(async () => {
      const got = await platform.api(account.testKey, 'GET', `/v1/invoices/${invoice.id}`);
      return got.body.status === 'paid' ? got.body : undefined;
    });
    expect(settled).toMatchObject({ amount_paid: invoice.total, amount_due: 0 });
    const event = await invoiceEvent(invoice.id, 'invoice.paid');
    expect(event.data.object).toMatchObject({ status: 'paid', amount_paid: invoice.total });
    const page = await platform.api(undefined, 'GET', pathOf(location));
    expect(String(page.body)).toContain('<strong>Paid.</strong>');
    // The payment names the invoice and its customer.
    const txn = new URL(location).searchParams.get('payment');
    const transaction = await platform.api(account.testKey, 'GET', `/v1/transactions/${txn}`);
    expect(transaction.body).toMatchObject({
      invoice: invoice.id,
      customer: invoice.customer,
      amount: invoice.total,
    });
  });

  it('leaves the invoice open with invoice.payment_failed when the card is declined', async () => {
    const invoice = await newInvoice();
    const declined = await payOnPage(invoice, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(String(declined.body)).toContain('declined');
    const event = await invoiceEvent(invoice.id, 'invoice.payment_failed');
    expect(event.data.object).toMatchObject({
      status: 'open',
      last_payment_error: { code: 'card_declined' },
    });
    const got = await platform.api(account.testKey, 'GET', `/v1/invoices/${invoice.id}`);
    expect(got.body).toMatchObject({ status: 'open', amount_due: invoice.total, amount_paid: 0 });
    const page = String((await platform.api(undefined, 'GET', pathOf(invoice.hosted_url))).body);
    expect(page).toContain('Your payment was not completed');
    expect(page).toContain('/pay/invoices/');
  });

  it('saves the card as the default mandate, then /pay charges it through payments.commands.v1', async () => {
    const first = await newInvoice({ collection_method: 'charge_automatically' });
    // No mandate yet: the customer got the hosted page by e-mail.
    expect(first).toMatchObject({ status: 'open', attempt_count: 0 });
    expect(first.sent_at).not.toBeNull();
    const saved = await payOnPage(first, '4242 4242 4242 4242', true);
    expect(saved.status).toBe(303);
    const mandate = await eventually(async () => {
      const customer = await platform.api(account.testKey, 'GET', `/v1/customers/${first.customer}`);
      return customer.body.default_mandate ?? undefined;
    });
    expect(mandate).toMatch(/^mdt_/);
    await invoiceEvent(first.id, 'invoice.paid');

    // created as a draft so /pay is the charge; the mandate charge runs on the payments side.
    const second = await newInvoice(
      { collection_method: 'charge_automatically', send: false },
      first.customer,
    );
    await platform.api(account.testKey, 'POST', `/v1/invoices/${second.id}/finalize`);
    const charging = await platform.api(account.testKey, 'POST', `/v1/invoices/${second.id}/pay`, {});
    expect(charging.body).toMatchObject({ status: 'open', attempt_count: 1 });
    const paid = await invoiceEvent(second.id, 'invoice.paid');
    expect(paid.data.object).toMatchObject({ amount_paid: second.total, amount_due: 0 });
    const payments = await platform.api(account.testKey, 'GET', `/v1/transactions?limit=100`);
    const charge = payments.body.data.find((t: any) => t.invoice === second.id);
    expect(charge).toMatchObject({ status: 'succeeded', mandate, amount: second.total });

    // charge_automatically with a mandate: POST /v1/invoices charges at once (attempt 1).
    const third = await newInvoice({ collection_method: 'charge_automatically' }, first.customer);
    expect(third).toMatchObject({ status: 'open', attempt_count: 1, sent_at: null });
    await invoiceEvent(third.id, 'invoice.paid');
  });
});
