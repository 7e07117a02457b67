// Card payment of an invoice at /pay/invoices/<token> (libs/contracts commands.ts): the
// invoicing service's hosted invoice page links here with a token it sealed with the shared
// internal secret, so card data never reaches invoicing or Kafka. HTTP only. GET renders
// the card form (with a fresh single-use CSRF token bound to this invoice token); POST
// verifies it and hands the payment to PayByCard (card-payments/pay-by-card.ts), which
// records it with `invoice` and `customer` (payment.succeeded|failed: invoicing settles the
// invoice from that event) and, with "save card", creates an on-demand mandate for the
// customer in the same transaction. Then 303 to return_url?payment=<txn>; a decline
// re-renders the form (402) with the reason. Double submissions: invoice-form-token.ts.

import { Body, Controller, Get, Inject, Param, Post, Res } from '@nestjs/common';
import { INVOICE_PAYMENT_TOKEN_PURPOSE, type InvoicePaymentTokenPayload } from '@paygrid/contracts';
import {
  formField,
  formOf,
  messagesForAcceptLanguage,
  Public,
  sendPage as send,
  sendSeeOther,
  tokenHash,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import {
  CARD_FORM_TOKEN_PURPOSE,
  formExpiredPage,
  localizedError,
  notCompletedMessage,
  notPayablePage,
  parseCard,
  paymentsNotAvailablePage,
} from '../card-form/card-form';
import { messagePage, renderMessage } from '../card-form/card-form.page';
import { SealedForm, type SealedFormSettings } from '../card-form/sealed-form';
import type { FormToken } from '../card-payments/form-token';
import { InvoiceFormTokens, type InvoiceRefusal } from '../card-payments/invoice-form-token';
import { PayByCard, type CardPayment, type CardPaymentResult } from '../card-payments/pay-by-card';
import { ConnectorRouter } from '../connectors/connector-router';
import type { TransactionRow } from '../transactions/transaction';
import { renderInvoicePaymentForm } from './invoice-payment.page';

export const INVOICE_PAYMENT_SETTINGS = 'paygrid:invoice-payment-settings';
export type InvoicePaymentSettings = SealedFormSettings;

const languageOf = (reply: FastifyReply) =>
  messagesForAcceptLanguage(reply.request.headers['accept-language']);

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

/** What the posted card form asks: the invoice's amount, and its mandate when the payer saves the card. */
function invoicePayment(
  invoice: InvoicePaymentTokenPayload,
  form: Record<string, unknown>,
  token: FormToken<InvoiceRefusal>,
): CardPayment<InvoiceRefusal> {
  const saveCard = invoice.offer_save_card && formField(form, 'save_card') === 'yes';
  return {
    tenant: { account: invoice.account, livemode: invoice.livemode },
    charge: {
      amount: BigInt(invoice.amount),
      currency: invoice.currency.toUpperCase(),
      invoice: invoice.invoice,
      customer: invoice.customer,
      account_name: invoice.merchant_name,
    },
    card: parseCard(form),
    ...(httpUrl(invoice.return_url) ? { returnTo: invoice.return_url } : {}),
    ...(saveCard
      ? {
          mandate: {
            customer: invoice.customer,
            payer: { name: formField(form, 'cardholder_name').slice(0, 100) || null, email: null },
          },
        }
      : {}),
    form: token,
  };
}

@Controller('pay/invoices')
export class InvoicePaymentController {
  private readonly sealed: SealedForm<InvoicePaymentTokenPayload>;

  constructor(
    @Inject(PayByCard) private readonly payByCard: PayByCard,
    @Inject(InvoiceFormTokens) private readonly forms: InvoiceFormTokens,
    @Inject(INVOICE_PAYMENT_SETTINGS) settings: InvoicePaymentSettings,
    @Inject(ConnectorRouter) private readonly connectors: ConnectorRouter,
  ) {
    this.sealed = new SealedForm(settings, {
      tokenPurpose: INVOICE_PAYMENT_TOKEN_PURPOSE,
      formPurpose: CARD_FORM_TOKEN_PURPOSE,
      isPayload,
      subject: formSubject,
    });
  }

  // A wildcard, not `:token`: the sealed token is a few hundred characters, past the router's
  // 100-character limit for a path parameter (which answers 414).
  @Get('*')
  @Public()
  async page(@Param('*') token: string, @Res() reply: FastifyReply) {
    const invoice = this.sealed.open(token);
    if (!invoice) return this.invalid(reply);
    const paid = await this.forms.paidWith(tokenHash(token));
    if (paid) return this.redirect(reply, invoice, paid);
    // Live without a processor: no card form at all.
    if (!(await this.connectors.available({ account: invoice.account, livemode: invoice.livemode }))) {
      return send(reply, 409, paymentsNotAvailablePage(languageOf(reply)));
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
    const invoice = this.sealed.open(token);
    if (!invoice) return this.invalid(reply);
    const csrf = formField(form, 'csrf_token');
    if (!this.sealed.csrfValid(token, csrf)) {
      return send(reply, 403, formExpiredPage(languageOf(reply)));
    }
    const result = await this.payByCard.pay(
      invoicePayment(invoice, form, this.forms.of(tokenHash(token), tokenHash(csrf))),
    );
    return this.render(reply, invoice, token, result);
  }

  private render(
    reply: FastifyReply,
    invoice: InvoicePaymentTokenPayload,
    token: string,
    result: CardPaymentResult<InvoiceRefusal>,
  ) {
    switch (result.kind) {
      case 'charged':
        return this.result(reply, invoice, token, result.transaction);
      case 'invalid':
        return this.form(reply, 400, invoice, token, localizedError(result.message, languageOf(reply)));
      case 'paid':
        return this.redirect(reply, invoice, result.transaction);
      case 'busy': {
        const m = languageOf(reply);
        return send(
          reply,
          409,
          renderMessage(m.t('pay.in_progress.title'), m.t('pay.invoice_busy'), m.locale),
        );
      }
      case 'in_progress':
      case 'processor_not_configured':
      case 'merchant_not_active':
        return send(reply, 409, notPayablePage(result.kind, 'invoice', languageOf(reply)));
    }
  }

  private result(
    reply: FastifyReply,
    invoice: InvoicePaymentTokenPayload,
    token: string,
    transaction: TransactionRow,
  ) {
    if (transaction.status === 'succeeded') return this.redirect(reply, invoice, transaction.id);
    // 3-D Secure: to the processor's page; the return settles it and comes back to return_url.
    if (transaction.status === 'requires_action' && transaction.authentication_url) {
      return sendSeeOther(reply, transaction.authentication_url);
    }
    return this.form(reply, 402, invoice, token, notCompletedMessage(transaction, languageOf(reply)));
  }

  private redirect(reply: FastifyReply, invoice: InvoicePaymentTokenPayload, transactionId: string) {
    const target = httpUrl(invoice.return_url);
    if (!target) {
      return send(
        reply,
        200,
        messagePage(languageOf(reply), 'pay.invoice_paid', { reference: transactionId }),
      );
    }
    target.searchParams.set('payment', transactionId);
    return sendSeeOther(reply, target.toString());
  }

  private async form(
    reply: FastifyReply,
    status: number,
    invoice: InvoicePaymentTokenPayload,
    token: string,
    error?: string,
  ) {
    const authenticationOrigins = await this.connectors.authenticationOrigins({
      account: invoice.account,
      livemode: invoice.livemode,
    });
    const csrf = this.sealed.csrf(token);
    const target = httpUrl(invoice.return_url);
    // The form's redirects: to the processor's 3-D Secure page, and back to the invoice page.
    const formAction = ["'self'", ...authenticationOrigins, ...(target ? [target.origin] : [])].join(' ');
    return send(
      reply,
      status,
      renderInvoicePaymentForm(
        invoice,
        `/pay/invoices/${encodeURIComponent(token)}`,
        csrf,
        error,
        languageOf(reply),
      ),
      formAction,
    );
  }

  private invalid(reply: FastifyReply) {
    return send(reply, 404, messagePage(languageOf(reply), 'pay.invoice_link_invalid'));
  }
}
