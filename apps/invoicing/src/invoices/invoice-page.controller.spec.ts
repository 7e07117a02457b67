import type { AccountProfileService } from '../account/account.service';
import { systemClock } from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { InvoicePageController } from './invoice-page.controller';
import { serializeInvoice, type InvoiceRow } from './invoice.serializer';
import type { InvoicesService } from './invoices.service';

const PAID = '<strong>Paid.</strong>';
const PROCESSING = '<strong>Processing your payment.</strong>';
const DECLINED = '<strong>Your payment was not completed:</strong>';

const open: InvoiceRow = {
  id: 'in_1',
  account_id: 'acct_1',
  livemode: false,
  customer_id: 'cus_1',
  status: 'open',
  number: 'INV-0001',
  currency: 'EUR',
  collection_method: 'send_invoice',
  days_until_due: 30,
  due_date: null,
  description: null,
  lines: [],
  discount: null,
  subtotal: '1000',
  discount_total: '0',
  tax_total: '0',
  total: '1000',
  amount_paid: '0',
  amount_due: '1000',
  subscription_id: null,
  period_start: null,
  period_end: null,
  estimate_id: null,
  test_clock: null,
  seller_name: 'Acme GmbH',
  seller: { name: 'Acme GmbH' },
  customer_snapshot: null,
  page_token: 'tok',
  attempt_count: 0,
  send_count: 1,
  last_payment: null,
  paid_out_of_band: false,
  finalized_at: new Date('2026-11-01T00:00:00Z'),
  sent_at: null,
  paid_at: null,
  voided_at: null,
  marked_uncollectible_at: null,
  overdue_at: null,
  metadata: {},
  created_at: new Date('2026-11-01T00:00:00Z'),
  updated_at: new Date('2026-11-01T00:00:00Z'),
};
const paid: InvoiceRow = {
  ...open,
  status: 'paid',
  amount_paid: '1000',
  amount_due: '0',
  paid_at: new Date('2026-11-02T00:00:00Z'),
  last_payment: {
    status: 'succeeded',
    transaction: 'txn_00000001',
    reference: null,
    failure_code: null,
    failure_message: null,
    at: '2026-11-02T00:00:00.000Z',
  },
};

/** The page for `?payment=`, with the invoice as read and whether that payment was credited. */
async function render(row: InvoiceRow, payment: string | undefined, credited: boolean) {
  const reads: (string | undefined)[] = [];
  const invoices = {
    findForPage: async (_token: string, transaction?: string) => {
      reads.push(transaction);
      return { row, credited: transaction !== undefined && credited };
    },
    serialize: (r: InvoiceRow) => serializeInvoice(r, 'http://pay.test'),
  } as unknown as InvoicesService;
  // No business profile: the page names the seller from the invoice's snapshot alone.
  const profiles = {
    get: async () => undefined,
    publicUrl: 'http://pay.test',
  } as unknown as AccountProfileService;
  const controller = new InvoicePageController(
    invoices,
    { secret: 'x'.repeat(32), clock: systemClock },
    profiles,
  );
  const sent: { status?: number; html?: string } = {};
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header: () => reply,
    send(html: string) {
      sent.html = html;
      return reply;
    },
  } as unknown as FastifyReply;
  await controller.page('tok', payment, reply);
  return { status: sent.status, html: sent.html ?? '', reads };
}

describe('the hosted invoice page after a card-form return', () => {
  it('says "Processing" with a refresh and no Pay link until the payment is credited', async () => {
    const page = await render(open, 'txn_00000001', false);
    expect(page.status).toBe(200);
    expect(page.html).toContain(PROCESSING);
    expect(page.html).toContain('<meta http-equiv="refresh" content="2">');
    expect(page.html).not.toContain('href="/pay/invoices/');
    // The invoice and the credit come from one read (one snapshot), asked for that payment.
    expect(page.reads).toEqual(['txn_00000001']);
  });

  it('says "Paid" once the returned payment is credited and settled the invoice', async () => {
    const page = await render(paid, 'txn_00000001', true);
    expect(page.html).toContain(PAID);
    expect(page.html).not.toContain(PROCESSING);
    expect(page.html).not.toContain('href="/pay/invoices/');
  });

  it('after a credited partial payment, shows what is still due with the Pay link, no banner', async () => {
    const partly: InvoiceRow = { ...open, amount_paid: '400', amount_due: '600' };
    const page = await render(partly, 'txn_00000001', true);
    expect(page.html).not.toContain(PROCESSING);
    expect(page.html).not.toContain(PAID);
    expect(page.html).toContain('6.00 EUR');
    expect(page.html).toContain('href="/pay/invoices/');
  });

  it('shows the decline of the returned payment, with the Pay link to try again', async () => {
    const declined: InvoiceRow = {
      ...open,
      last_payment: {
        status: 'failed',
        transaction: 'txn_00000002',
        reference: null,
        failure_code: 'card_declined',
        failure_message: 'The card was declined.',
        at: '2026-11-02T00:00:00.000Z',
      },
    };
    const page = await render(declined, 'txn_00000002', false);
    expect(page.html).toContain(DECLINED);
    expect(page.html).toContain('href="/pay/invoices/');
  });

  it("shows a German customer the decline's reason in German, and a processor's own words by their code", async () => {
    const german = {
      ...open,
      customer_snapshot: {
        name: 'Zoë',
        email: null,
        phone: null,
        address: null,
        tax_id: null,
        preferred_locales: ['de'],
      },
    };
    const declined = (failure_code: string, failure_message: string): InvoiceRow => ({
      ...german,
      last_payment: {
        status: 'failed',
        transaction: 'txn_00000002',
        reference: null,
        failure_code,
        failure_message,
        at: '2026-11-02T00:00:00.000Z',
      },
    });
    const ours = await render(
      declined('insufficient_funds', 'The card has insufficient funds.'),
      'txn_00000002',
      false,
    );
    expect(ours.html).toContain('Die Karte ist nicht ausreichend gedeckt.');
    expect(ours.html).not.toContain('insufficient funds');
    const theirs = await render(
      declined('expired_card', 'Your card has expired (processor).'),
      undefined,
      false,
    );
    expect(theirs.html).toContain('Die Karte ist abgelaufen.');
    expect(theirs.html).not.toContain('(processor)');
  });

  it('ignores a malformed ?payment= (no processing banner, payable as usual)', async () => {
    const page = await render(open, 'txn_<script>', true);
    expect(page.reads).toEqual([undefined]);
    expect(page.html).not.toContain(PROCESSING);
    expect(page.html).not.toContain(PAID);
    expect(page.html).toContain('href="/pay/invoices/');
  });
});
