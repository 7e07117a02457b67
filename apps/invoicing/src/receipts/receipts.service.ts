// Payment receipts and refund notices (issue 17 item 4, docs/adr/0012). Invoicing issues them
// from the payments service's events, inside the payments-feed's inbox transaction: it keeps
// the mail queue, the PDF renderer and the seller's profile, and payments keeps the money.
//
// - payment.succeeded: a receipt for every succeeded payment, numbered per account and mode
//   without gaps (RCPT-0001, ...: the counter row is locked in the same transaction that
//   inserts the receipt, as invoice numbers are), and, when the account's `receipts.payments`
//   switch is on and there is an address (the one the checkout payer gave, else the e-mail of
//   the invoice's customer, else the customer's), an e-mail with the receipt PDF attached.
// - refund.succeeded: the refunded amount is added to the payment's receipt and, when
//   `receipts.refunds` is on, a refund notice goes to the same address with the receipt PDF.
// - refund.failed of a refund that had succeeded (the processor reversed it): the amount comes
//   off the receipt again; no mail.
// Each mail is queued in the same transaction (send key `receipt:<txn>` / `refund:<re>`), so it
// is sent once if and only if the event was handled.
// Mails and PDF speak the customer's language (libs/platform i18n): the receipt keeps the
// `preferred_locales` of the paid invoice's customer snapshot, else of the payment's customer,
// else none (English), so the refund notice and the PDF served later read as the receipt did.

import type { EventEnvelope } from '@paygrid/contracts';
import {
  messagesFor,
  newId,
  notFound,
  toMinor,
  type Database,
  type Messages,
  type Tenant,
  type Tx,
  type SqlPart,
} from '@paygrid/platform';
import { profileOf, sellerSnapshot, type SellerSnapshot } from '../account/account-profile';
import { profileInTx } from '../account/account.service';
import type { LogoLoader } from '../documents/invoice-documents';
import { escapeHtml, mailHtml } from '../documents/mail-templates';
import { renderReceiptPdf } from '../documents/pdf-rendering';
import type { ReceiptView } from '../documents/receipt-pdf';
import { sellerLines } from '../account/seller-lines';
import type { MailService } from '../mail/mail.service';
import { withRidingWrite } from '../payments-feed/riding-write';

/** What receipts read of a payment.succeeded transaction and a refund.succeeded refund. */
export interface ReceiptEventObject {
  id?: string;
  type?: string;
  amount?: number;
  currency?: string;
  invoice?: string | null;
  customer?: string | null;
  receipt_email?: string | null;
  payment_method?: { brand?: string; last4?: string } | null;
  /** A refund's payment. */
  transaction?: string | null;
}

export interface ReceiptRow {
  id: string;
  account_id: string;
  livemode: boolean;
  number: string;
  transaction_id: string;
  email: string | null;
  amount: string;
  amount_refunded: string;
  currency: string;
  invoice_id: string | null;
  invoice_number: string | null;
  customer_id: string | null;
  payment_method: { brand?: string; last4?: string } | null;
  seller: SellerSnapshot;
  /** The customer's languages when the receipt was issued; empty: English. */
  preferred_locales: string[] | null;
  paid_at: Date;
  created_at: Date;
  updated_at: Date;
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/** `Visa ending in 4242` (`Visa mit Endziffern 4242`). */
const methodLabel = (pm: ReceiptRow['payment_method'], m: Messages) =>
  pm?.last4
    ? m.t('receipt.card_ending', { brand: BRANDS[pm.brand ?? ''] ?? m.t('receipt.card'), last4: pm.last4 })
    : null;

const messagesOf = (row: Pick<ReceiptRow, 'preferred_locales'>) => messagesFor(row.preferred_locales);

/** `Receipt-RCPT-0001.pdf`. */
export const receiptPdfFilename = (row: Pick<ReceiptRow, 'number'>) =>
  `Receipt-${row.number.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;

export class ReceiptsService {
  constructor(
    private readonly db: Database,
    private readonly mail: MailService,
    private readonly logos: LogoLoader,
  ) {
    mail.registerAttachment('receipt_pdf', async (ref, owner) => ({
      content: await this.pdf(await this.get(owner, ref)),
      contentType: 'application/pdf',
    }));
  }

  /** The receipt of a payment (GET /v1/transactions/:id/receipt); 404 if it has none (yet). */
  async forTransaction(tenant: Tenant, transaction: string): Promise<ReceiptRow> {
    const [row] = await this.db.query<ReceiptRow>(
      `select * from invoicing.receipts where account_id = $1 and livemode = $2 and transaction_id = $3`,
      [tenant.account, tenant.livemode, transaction],
    );
    if (!row) throw notFound('receipt for transaction', transaction);
    return row;
  }

  private async get(tenant: Tenant, id: string): Promise<ReceiptRow> {
    const [row] = await this.db.query<ReceiptRow>(
      `select * from invoicing.receipts where account_id = $1 and livemode = $2 and id = $3`,
      [tenant.account, tenant.livemode, id],
    );
    if (!row) throw notFound('receipt', id);
    return row;
  }

  async pdf(row: ReceiptRow): Promise<Buffer> {
    return renderReceiptPdf(Object.assign(receiptView(row), { logo: await this.logos(row.account_id) }));
  }

  /**
   * payment.succeeded: number the receipt and, if the account wants it, e-mail it. `riding`:
   * a write of the caller's (the payments feed's fact) sent in the receipt's statement
   * (withRidingWrite); true when it was, false when there was no statement to carry it.
   */
  async issue(tx: Tx, event: EventEnvelope<ReceiptEventObject>, riding?: SqlPart): Promise<boolean> {
    const payment = event.data.object;
    if (!payment.id || payment.type === 'refund') return false;
    const tenant = { account: event.account, livemode: event.livemode };
    const at = new Date(event.created_at);
    const profileRow = await profileInTx(tx, tenant.account);
    const profile = profileOf(profileRow);
    const invoice = payment.invoice
      ? (
          await tx.query<{ number: string | null; email: string | null; locales: string[] | null }>(
            `select number, customer_snapshot->>'email' as email, customer_snapshot->'preferred_locales' as locales
               from invoicing.invoices
              where id = $1 and account_id = $2 and livemode = $3`,
            [payment.invoice, tenant.account, tenant.livemode],
          )
        )[0]
      : undefined;
    const customer = payment.customer
      ? (
          await tx.query<{ email: string | null; locales: string[] | null }>(
            `select email, preferred_locales as locales from invoicing.customers
              where id = $1 and account_id = $2 and livemode = $3`,
            [payment.customer, tenant.account, tenant.livemode],
          )
        )[0]
      : undefined;
    const email = payment.receipt_email ?? invoice?.email ?? customer?.email ?? null;
    const locales = invoice ? (invoice.locales ?? []) : (customer?.locales ?? []);
    // One statement: the number and the receipt, unless the payment has one already (then
    // neither, and no number is used up). The counter row stays locked until the inbox
    // transaction ends: gap-free, in commit order. Numbers have four digits at least.
    const statement = withRidingWrite(
      riding,
      `with counter as (
         insert into invoicing.receipt_number_counters (account_id, livemode, last_number)
         select $2, $3, 1
          where not exists (select 1 from invoicing.receipts
                             where account_id = $2 and livemode = $3 and transaction_id = $4)
         on conflict (account_id, livemode) do update set last_number = receipt_number_counters.last_number + 1
         returning last_number
       )
       insert into invoicing.receipts (id, account_id, livemode, number, transaction_id, email, amount, currency,
         invoice_id, invoice_number, customer_id, payment_method, seller, preferred_locales, paid_at, created_at, updated_at)
       select $1, $2, $3,
         'RCPT-' || case when last_number < 1000 then lpad(last_number::text, 4, '0') else last_number::text end,
         $4, $5, $6::bigint, $7, $8, $9, $10, $11::jsonb, $12::jsonb, $13::jsonb, $14, $14, $14
         from counter
       returning *`,
      [
        newId('rcpt'),
        tenant.account,
        tenant.livemode,
        payment.id,
        email,
        toMinor(payment.amount ?? 0).toString(),
        payment.currency ?? '',
        payment.invoice ?? null,
        invoice?.number ?? null,
        payment.customer ?? null,
        payment.payment_method ? JSON.stringify(payment.payment_method) : null,
        JSON.stringify(sellerSnapshot(profile, profileRow?.account_name ?? null)),
        JSON.stringify(locales),
        at,
      ],
    );
    const [row] = await tx.query<ReceiptRow>(statement.sql, statement.params);
    if (!row) return true;
    if (!email || !profile.receipts.payments) return true;
    const m = messagesOf(row);
    const view = receiptView(row);
    const seller = view.seller_name ?? m.t('receipt.the_seller');
    const details = [
      m.t('mail.receipt.number', { number: row.number }),
      view.payment_method ? m.t('mail.receipt.paid_with', { method: view.payment_method }) : null,
      row.invoice_number ? m.t('mail.receipt.invoice', { number: row.invoice_number }) : null,
    ];
    const paragraphs = [
      m.t('mail.hello'),
      m.t('mail.receipt.thanks', {
        amount: m.money(view.amount, row.currency),
        seller,
        date: m.date(row.paid_at),
      }),
      details.filter(Boolean).join(' '),
      m.t('mail.receipt.attached'),
    ];
    const subject = m.t('mail.receipt.subject', { seller, number: row.number });
    await this.queue(tx, row, `receipt:${payment.id}`, subject, [...paragraphs, `- ${seller}`]);
    return true;
  }

  /**
   * refund.succeeded: the receipt shows the refund; a notice goes out if the account wants it.
   * `riding`, and the answer: as for `issue`.
   */
  async refunded(tx: Tx, event: EventEnvelope<ReceiptEventObject>, riding?: SqlPart): Promise<boolean> {
    const refund = event.data.object;
    if (!refund.id || !refund.transaction) return false;
    const amount = toMinor(refund.amount ?? 0);
    const statement = withRidingWrite(
      riding,
      `update invoicing.receipts set amount_refunded = amount_refunded + $4::bigint, updated_at = $5
        where account_id = $1 and livemode = $2 and transaction_id = $3 returning *`,
      [event.account, event.livemode, refund.transaction, amount.toString(), new Date(event.created_at)],
    );
    const [row] = await tx.query<ReceiptRow>(statement.sql, statement.params);
    if (!row?.email) return true;
    const profile = profileOf(await profileInTx(tx, event.account));
    if (!profile.receipts.refunds) return true;
    const m = messagesOf(row);
    const seller = row.seller.name ?? m.t('receipt.the_seller');
    const method = methodLabel(row.payment_method, m);
    const subject = m.t('mail.refund.subject', { seller, number: row.number });
    await this.queue(tx, row, `refund:${refund.id}`, subject, [
      m.t('mail.hello'),
      m.t('mail.refund.refunded', {
        seller,
        amount: m.money(amount, row.currency),
        total: m.money(toMinor(row.amount), row.currency),
        number: row.number,
      }),
      method ? m.t('mail.refund.to_method', { method }) : m.t('mail.refund.to_card'),
      m.t('mail.refund.attached'),
      `- ${seller}`,
    ]);
    return true;
  }

  /**
   * refund.failed of a refund that had succeeded (the processor could not return the money:
   * payments' refund-reversal.ts): the receipt no longer shows it. A refund that failed
   * without succeeding never counted. No mail: the payer was told of a refund that did not
   * arrive, and what to tell them now is the merchant's to say. `riding`, and the answer: as
   * for `issue` (the payments feed's fact of this refund.failed is not the refund.succeeded
   * fact the statement reads).
   */
  async refundReversed(tx: Tx, event: EventEnvelope<ReceiptEventObject>, riding?: SqlPart): Promise<boolean> {
    const refund = event.data.object;
    if (!refund.id || !refund.transaction) return false;
    const statement = withRidingWrite(
      riding,
      `update invoicing.receipts set amount_refunded = amount_refunded - $5::bigint, updated_at = $6
        where account_id = $1 and livemode = $2 and transaction_id = $3 and amount_refunded >= $5::bigint
          and exists (select 1 from invoicing.payment_facts
                       where account_id = $1 and livemode = $2 and object_id = $4 and type = 'refund.succeeded')`,
      [
        event.account,
        event.livemode,
        refund.transaction,
        refund.id,
        toMinor(refund.amount ?? 0).toString(),
        new Date(event.created_at),
      ],
    );
    await tx.query(statement.sql, statement.params);
    return true;
  }

  private async queue(tx: Tx, row: ReceiptRow, sendKey: string, subject: string, paragraphs: string[]) {
    if (!row.email) return;
    await this.mail.enqueue(tx, {
      account: row.account_id,
      livemode: row.livemode,
      send_key: sendKey,
      to: [row.email],
      subject,
      text: paragraphs.join('\n\n'),
      html: mailHtml(
        subject,
        paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
        messagesOf(row).locale,
      ),
      attachments: [{ kind: 'receipt_pdf', ref: row.id, filename: receiptPdfFilename(row) }],
      at: new Date(row.updated_at),
    });
  }
}

/** The PDF view of a stored receipt. */
export function receiptView(row: ReceiptRow): ReceiptView {
  const messages = messagesOf(row);
  return {
    messages,
    number: row.number,
    seller_name: row.seller.name,
    seller_lines: sellerLines(row.seller),
    paid_at: new Date(row.paid_at),
    amount: toMinor(row.amount),
    amount_refunded: toMinor(row.amount_refunded),
    currency: row.currency,
    payment_method: methodLabel(row.payment_method, messages),
    invoice_number: row.invoice_number,
    email: row.email,
  };
}
