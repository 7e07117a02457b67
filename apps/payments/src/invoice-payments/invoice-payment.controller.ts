// Card payment of an invoice at /pay/invoices/<token> (libs/contracts commands.ts): the
// invoicing service's hosted invoice page links here with a token it sealed with the shared
// internal secret, so card data never reaches invoicing or Kafka. GET renders the card
// form (with a fresh single-use CSRF token bound to this invoice token); POST charges the
// card through TransactionsService.chargeCard (intent, connector outside any transaction,
// outcome), records the payment with `invoice` and `customer`, emits payment.succeeded|failed
// (invoicing settles the invoice from that event), and on success with "save card" creates
// an on-demand mandate for the customer (mandate.created) in the same transaction. Then 303
// to return_url?payment=<txn>. A decline re-renders the form (402) with the reason.
//
// Double submission: each form token pays at most once (its hash is the primary key of
// invoice_payment_submissions); an invoice token pays at most once (a succeeded row, unique
// per invoice token), and while one submission of it is in flight another is refused; both
// checks run under an advisory lock on the invoice token's hash.

import { Body, Controller, Get, Inject, Param, Post, Res } from '@nestjs/common';
import { INVOICE_PAYMENT_TOKEN_PURPOSE, type InvoicePaymentTokenPayload } from '@paygrid/contracts';
import {
  formField,
  formOf,
  openToken,
  Public,
  sendPage as send,
  sendSeeOther,
  signFormToken,
  tokenHash,
  verifyFormToken,
  type Clock,
  type Database,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import {
  awaitFirstSubmission,
  CARD_FORM_TOKEN_PURPOSE,
  CARD_INCOMPLETE,
  CHECK_CARD_AGAIN,
  chargeFromForm,
  formExpiredPage,
  isRefused,
  notCompletedMessage,
  parseCard,
  paymentsNotAvailablePage,
} from '../card-form/card-form';
import { renderMessage } from '../card-form/card-form.page';
import { summarizeCard } from '../connectors/cards';
import { ConnectorRouter } from '../connectors/connector-router';
import { MandatesService } from '../mandates/mandates.service';
import type { TransactionRow } from '../transactions/transaction';
import { TransactionsService } from '../transactions/transactions.service';
import { renderInvoicePaymentForm } from './invoice-payment.page';

export const INVOICE_PAYMENT_SETTINGS = 'paygrid:invoice-payment-settings';
export interface InvoicePaymentSettings {
  secret: string;
  clock: Clock;
}

/** A claimed submission older than this no longer blocks the invoice (its charge crashed). */
const IN_FLIGHT_MS = 2 * 60 * 1000;

/** The card form's CSRF token is bound to the invoice token's hash (no payment link id starts so). */
const formSubject = (invoiceHash: string) => `invoice:${invoiceHash}`;

function httpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function isPayload(value: unknown): value is InvoicePaymentTokenPayload {
  const p = value as Partial<InvoicePaymentTokenPayload> | null;
  return (
    !!p &&
    typeof p.account === 'string' &&
    typeof p.livemode === 'boolean' &&
    typeof p.invoice === 'string' &&
    typeof p.customer === 'string' &&
    typeof p.amount === 'number' &&
    Number.isSafeInteger(p.amount) &&
    p.amount >= 1 &&
    p.amount <= 99_999_999_999 &&
    typeof p.currency === 'string' &&
    /^[A-Za-z]{3}$/.test(p.currency) &&
    typeof p.description === 'string' &&
    typeof p.merchant_name === 'string' &&
    typeof p.return_url === 'string' &&
    typeof p.offer_save_card === 'boolean'
  );
}

type Claim =
  { kind: 'claimed' } | { kind: 'used' } | { kind: 'paid'; transaction: string } | { kind: 'busy' };

@Controller('pay/invoices')
export class InvoicePaymentController {
  private readonly db: Database;

  constructor(
    @Inject(TransactionsService) private readonly transactions: TransactionsService,
    @Inject(MandatesService) private readonly mandates: MandatesService,
    @Inject(INVOICE_PAYMENT_SETTINGS) private readonly settings: InvoicePaymentSettings,
    @Inject(ConnectorRouter) private readonly connectors: ConnectorRouter,
  ) {
    this.db = transactions.database;
  }

  // A wildcard, not `:token`: the sealed token is a few hundred characters, past the router's
  // 100-character limit for a path parameter (which answers 414).
  @Get('*')
  @Public()
  async page(@Param('*') token: string, @Res() reply: FastifyReply) {
    const invoice = this.open(token);
    if (!invoice) return this.invalid(reply);
    const paid = await this.paidWith(tokenHash(token));
    if (paid) return this.redirect(reply, invoice, paid);
    // Live without a processor: no card form at all.
    if (!(await this.connectors.available({ account: invoice.account, livemode: invoice.livemode }))) {
      return send(reply, 409, paymentsNotAvailablePage());
    }
    return this.form(reply, 200, invoice, token);
  }

  @Post('*')
  @Public()
  async pay(
    @Param('*') token: string,
    @Body() body: Record<string, unknown> | undefined,
    @Res() reply: FastifyReply,
  ) {
    const form = formOf(body);
    const invoice = this.open(token);
    if (!invoice) return this.invalid(reply);
    const invoiceHash = tokenHash(token);
    const csrf = formField(form, 'csrf_token');
    if (
      !verifyFormToken(
        this.settings.secret,
        CARD_FORM_TOKEN_PURPOSE,
        formSubject(invoiceHash),
        csrf,
        this.settings.clock.now(),
      )
    ) {
      return send(reply, 403, formExpiredPage());
    }
    const formHash = tokenHash(csrf);
    const claim = await this.claim(invoiceHash, formHash);
    if (claim.kind === 'paid') return this.redirect(reply, invoice, claim.transaction);
    if (claim.kind === 'used') return this.replay(reply, invoice, token, formHash);
    if (claim.kind === 'busy') {
      return send(
        reply,
        409,
        renderMessage(
          'Payment in progress',
          'A payment of this invoice is being processed. Do not pay again; reload the invoice in a minute.',
        ),
      );
    }

    const card = parseCard(form);
    if (!card) {
      await this.release(formHash);
      return this.form(reply, 400, invoice, token, CARD_INCOMPLETE);
    }
    const saveCard = invoice.offer_save_card && formField(form, 'save_card') === 'yes';

    const transaction = await chargeFromForm(
      () =>
        this.transactions.chargeCard(
          { account: invoice.account, livemode: invoice.livemode },
          {
            amount: BigInt(invoice.amount),
            currency: invoice.currency.toUpperCase(),
            card,
            invoice: invoice.invoice,
            customer: invoice.customer,
            account_name: invoice.merchant_name,
          },
          saveCard
            ? {
                storeCredential: true,
                onSucceeded: (tx, row, credential) =>
                  this.mandates.createWithPayment(tx, row, {
                    merchant: row.merchant_id,
                    customer: invoice.customer,
                    payer: { name: formField(form, 'cardholder_name').slice(0, 100) || null, email: null },
                    payment_method: summarizeCard(card),
                    credential: credential ?? '',
                    currency: invoice.currency.toUpperCase(),
                  }),
              }
            : {},
        ),
      () => this.release(formHash),
    );
    if (isRefused(transaction)) {
      if (transaction.refused === 'invalid')
        return this.form(reply, 400, invoice, token, transaction.message);
      if (transaction.refused === 'processor_not_configured')
        return send(reply, 409, paymentsNotAvailablePage());
      return send(
        reply,
        409,
        renderMessage('Payments are not available', 'This seller cannot accept card payments at the moment.'),
      );
    }
    await this.db.query(
      'update payments.invoice_payment_submissions set transaction_id = $2, succeeded = $3 where form_token_hash = $1',
      [formHash, transaction.id, transaction.status === 'succeeded'],
    );
    return this.result(reply, invoice, token, transaction);
  }

  private open(token: string): InvoicePaymentTokenPayload | undefined {
    const payload = openToken<InvoicePaymentTokenPayload>(
      this.settings.secret,
      INVOICE_PAYMENT_TOKEN_PURPOSE,
      token,
      this.settings.clock.now(),
    );
    return isPayload(payload) ? payload : undefined;
  }

  private async paidWith(invoiceHash: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ transaction_id: string }>(
      'select transaction_id from payments.invoice_payment_submissions where invoice_token_hash = $1 and succeeded',
      [invoiceHash],
    );
    return row?.transaction_id;
  }

  private claim(invoiceHash: string, formHash: string): Promise<Claim> {
    return this.db.transaction(async (tx): Promise<Claim> => {
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`invoice-payment:${invoiceHash}`]);
      const [used] = await tx.query(
        'select 1 from payments.invoice_payment_submissions where form_token_hash = $1',
        [formHash],
      );
      if (used) return { kind: 'used' };
      const [paid] = await tx.query<{ transaction_id: string }>(
        'select transaction_id from payments.invoice_payment_submissions where invoice_token_hash = $1 and succeeded',
        [invoiceHash],
      );
      if (paid) return { kind: 'paid', transaction: paid.transaction_id };
      const now = this.settings.clock.now();
      const [busy] = await tx.query(
        `select 1 from payments.invoice_payment_submissions
          where invoice_token_hash = $1 and transaction_id is null and created_at > $2`,
        [invoiceHash, new Date(now.getTime() - IN_FLIGHT_MS)],
      );
      if (busy) return { kind: 'busy' };
      await tx.query(
        `insert into payments.invoice_payment_submissions (form_token_hash, invoice_token_hash, created_at) values ($1, $2, $3)`,
        [formHash, invoiceHash, now],
      );
      return { kind: 'claimed' };
    });
  }

  private async release(formHash: string): Promise<void> {
    await this.db.query(
      'delete from payments.invoice_payment_submissions where form_token_hash = $1 and transaction_id is null',
      [formHash],
    );
  }

  /** A form token already used (double click): wait for the first submission, show its result. */
  private async replay(
    reply: FastifyReply,
    invoice: InvoicePaymentTokenPayload,
    token: string,
    formHash: string,
  ) {
    const first = await awaitFirstSubmission(async () => {
      const [row] = await this.db.query<{ transaction_id: string | null }>(
        'select transaction_id from payments.invoice_payment_submissions where form_token_hash = $1',
        [formHash],
      );
      return row;
    });
    if (first.kind === 'released') return this.form(reply, 400, invoice, token, CHECK_CARD_AGAIN);
    if (first.kind === 'done') {
      const transaction = await this.transactions.get(
        { account: invoice.account, livemode: invoice.livemode },
        first.transactionId,
      );
      return this.result(reply, invoice, token, transaction);
    }
    return send(
      reply,
      409,
      renderMessage('Payment in progress', 'This payment is still being processed. Do not pay again.'),
    );
  }

  private result(
    reply: FastifyReply,
    invoice: InvoicePaymentTokenPayload,
    token: string,
    transaction: TransactionRow,
  ) {
    if (transaction.status === 'succeeded') return this.redirect(reply, invoice, transaction.id);
    return this.form(reply, 402, invoice, token, notCompletedMessage(transaction));
  }

  private redirect(reply: FastifyReply, invoice: InvoicePaymentTokenPayload, transactionId: string) {
    const target = httpUrl(invoice.return_url);
    if (!target) {
      return send(reply, 200, renderMessage('Payment successful', `Thank you. Reference: ${transactionId}`));
    }
    target.searchParams.set('payment', transactionId);
    return sendSeeOther(reply, target.toString());
  }

  private form(
    reply: FastifyReply,
    status: number,
    invoice: InvoicePaymentTokenPayload,
    token: string,
    error?: string,
  ) {
    const csrf = signFormToken(
      this.settings.secret,
      CARD_FORM_TOKEN_PURPOSE,
      formSubject(tokenHash(token)),
      this.settings.clock.now(),
    );
    const target = httpUrl(invoice.return_url);
    const formAction = target ? `'self' ${target.origin}` : "'self'";
    return send(
      reply,
      status,
      renderInvoicePaymentForm(invoice, `/pay/invoices/${encodeURIComponent(token)}`, csrf, error),
      formAction,
    );
  }

  private invalid(reply: FastifyReply) {
    return send(
      reply,
      404,
      renderMessage(
        'This payment link is not valid',
        'It may have expired. Go back to the invoice and use its Pay button again.',
      ),
    );
  }
}
