// The hosted checkout page (docs/api.md §5), reached through the gateway's /pay/* forward
// with a signed `public` context; HTTP only. GET renders the form with a fresh CSRF token;
// POST verifies the token, reads the form and hands the payment to PayByCard
// (card-payments/pay-by-card.ts: the token's claim, the charge, the mandate of a recurring
// link, the replay of a double click), then renders its result. The card number and CVC
// live only in this request's memory: never logged, stored or echoed back into a form.

import { Body, Controller, Get, Inject, Param, Post, Res } from '@nestjs/common';
import {
  formField,
  formOf,
  messagesForAcceptLanguage,
  Public,
  sendPage as send,
  sendSeeOther,
  sendStylesheet,
  toMinor,
  type Clock,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import {
  formExpiredPage,
  localizedError,
  notCompletedMessage,
  notPayablePage,
  parseCard,
  paymentsNotAvailablePage,
} from '../card-form/card-form';
import { CARD_FORM_CSS, messagePage, type MessagePage } from '../card-form/card-form.page';
import { CheckoutFormTokens, type CheckoutRefusal } from '../card-payments/checkout-form-token';
import type { FormToken } from '../card-payments/form-token';
import { PayByCard, type CardPayment, type CardPaymentResult } from '../card-payments/pay-by-card';
import { ConnectorRouter } from '../connectors/connector-router';
import type { Interval } from '../mandates/cycle';
import type { TransactionRow } from '../transactions/transaction';
import { checkoutTokenHash, signCheckoutToken, verifyCheckoutToken } from './checkout-token';
import { mandatePageOf } from '../mandate-pages/mandate-page-token';
import { renderCheckoutForm, renderSuccess } from './checkout.page';
import { effectiveStatus, type PaymentLinkStatus, type PublicLink } from './payment-link';
import { PaymentLinksService } from './payment-links.service';

export const CHECKOUT_SETTINGS = 'paygrid:checkout-settings';
export interface CheckoutSettings {
  /** The server secret the CSRF tokens are signed with (INTERNAL_SIGNING_SECRET). */
  secret: string;
  clock: Clock;
}

/** The 410 page of a link that cannot take payments (pay.link_<status> in the catalogue). */
const CLOSED: Record<Exclude<PaymentLinkStatus, 'active'>, MessagePage> = {
  inactive: 'pay.link_inactive',
  completed: 'pay.link_completed',
  expired: 'pay.link_expired',
};

/** What the posted checkout form asks: the link's amount, and its mandate for a recurring link. */
function checkoutPayment(
  link: PublicLink,
  form: Record<string, unknown>,
  token: FormToken<CheckoutRefusal>,
): CardPayment<CheckoutRefusal> {
  const recurring = link.type === 'recurring' ? link.recurring : null;
  const payer = {
    name: formField(form, 'cardholder_name').slice(0, 100) || null,
    // Optional and only for receipts: anything that is not an address is simply not kept.
    email: /^[^\s@]{1,100}@[^\s@]{1,100}$/.test(formField(form, 'email')) ? formField(form, 'email') : null,
  };
  return {
    tenant: { account: link.account_id, livemode: link.livemode },
    charge: {
      amount: toMinor(link.amount_total),
      currency: link.currency,
      ...(link.merchant_id ? { merchant: link.merchant_id } : {}),
      payment_link: link.id,
      ...(link.client_reference_id ? { client_reference_id: link.client_reference_id } : {}),
      // Invoicing sends the receipt from payment.succeeded (docs/adr/0012).
      ...(payer.email ? { receipt_email: payer.email } : {}),
      metadata: link.metadata,
    },
    card: parseCard(form),
    // A recurring link: the processor keeps the card, and the mandate is created in the
    // same transaction that records the first charge as succeeded.
    ...(recurring
      ? {
          mandate: {
            payment_link: link.id,
            client_reference_id: link.client_reference_id,
            payer,
            recurring: {
              amount: toMinor(link.amount_total),
              interval: recurring.interval as Interval,
              interval_count: recurring.interval_count,
            },
            metadata: link.metadata,
          },
        }
      : {}),
    form: token,
  };
}

/** The browser's language for the page's words (Accept-Language; English by default). */
const languageOf = (reply: FastifyReply) =>
  messagesForAcceptLanguage(reply.request.headers['accept-language']);

/**
 * form-action must also allow the redirects that follow a posted form: to the processor's
 * authentication page (3-D Secure) and after a successful payment.
 */
function formActionFor(link: PublicLink, authenticationOrigins: readonly string[] = []): string {
  const origins = ["'self'", ...authenticationOrigins];
  try {
    if (link.after_completion_redirect_url) origins.push(new URL(link.after_completion_redirect_url).origin);
  } catch {
    // not a URL: nothing to allow
  }
  return origins.join(' ');
}

@Controller('pay')
export class CheckoutController {
  constructor(
    @Inject(PaymentLinksService) private readonly links: PaymentLinksService,
    @Inject(PayByCard) private readonly payByCard: PayByCard,
    @Inject(CheckoutFormTokens) private readonly forms: CheckoutFormTokens,
    @Inject(CHECKOUT_SETTINGS) private readonly settings: CheckoutSettings,
    @Inject(ConnectorRouter) private readonly connectors: ConnectorRouter,
  ) {}

  @Get('assets/checkout.css')
  @Public()
  stylesheet(@Res() reply: FastifyReply) {
    return sendStylesheet(reply, CARD_FORM_CSS);
  }

  @Get(':id')
  @Public()
  async page(@Param('id') id: string, @Res() reply: FastifyReply) {
    const link = await this.links.findPublic(id);
    const closed = this.closedPage(reply, link);
    if (closed || !link) return closed;
    // A live link of an account with no processor shows no card form at all.
    if (!(await this.connectors.available({ account: link.account_id, livemode: link.livemode }))) {
      return send(reply, 409, paymentsNotAvailablePage(languageOf(reply)));
    }
    return this.form(reply, 200, link);
  }

  @Post(':id')
  @Public()
  async pay(
    @Param('id') id: string,
    @Body() body: Record<string, unknown> | undefined,
    @Res() reply: FastifyReply,
  ) {
    const form = formOf(body);
    const link = await this.links.findPublic(id);
    if (!link) return this.closedPage(reply, link);
    const token = formField(form, 'csrf_token');
    if (!verifyCheckoutToken(this.settings.secret, link.id, token, this.settings.clock.now())) {
      return send(reply, 403, formExpiredPage(languageOf(reply)));
    }
    const result = await this.payByCard.pay(
      checkoutPayment(link, form, this.forms.of(link, checkoutTokenHash(token))),
    );
    return this.render(reply, link, result);
  }

  private render(reply: FastifyReply, link: PublicLink, result: CardPaymentResult<CheckoutRefusal>) {
    switch (result.kind) {
      case 'charged':
        return this.result(reply, link, result.transaction);
      case 'invalid':
        return this.form(reply, 400, link, localizedError(result.message, languageOf(reply)));
      case 'closed':
        return send(reply, 410, messagePage(languageOf(reply), CLOSED[result.status]));
      case 'full':
        return send(reply, 409, messagePage(languageOf(reply), 'pay.link_busy'));
      case 'in_progress':
      case 'processor_not_configured':
      case 'merchant_not_active':
        return send(reply, 409, notPayablePage(result.kind, 'checkout', languageOf(reply)));
    }
  }

  private result(reply: FastifyReply, link: PublicLink, transaction: TransactionRow) {
    // 3-D Secure: to the processor's page (or the sandbox's); the return settles the payment.
    if (transaction.status === 'requires_action' && transaction.authentication_url) {
      return sendSeeOther(reply, transaction.authentication_url);
    }
    if (transaction.status === 'succeeded') {
      if (link.after_completion_redirect_url) return sendSeeOther(reply, link.after_completion_redirect_url);
      const manage = mandatePageOf(this.settings.secret, this.settings.clock.now(), link, transaction);
      return send(
        reply,
        200,
        renderSuccess(link, transaction.id, transaction.receipt_email, languageOf(reply), manage),
      );
    }
    return this.form(reply, 402, link, notCompletedMessage(transaction, languageOf(reply)));
  }

  /** The card form with a fresh token; its CSP lets the processor's authentication redirect through. */
  private async form(reply: FastifyReply, status: number, link: PublicLink, error?: string) {
    const tenant = { account: link.account_id, livemode: link.livemode };
    const origins = await this.connectors.authenticationOrigins(tenant);
    return send(
      reply,
      status,
      renderCheckoutForm(link, this.token(link), error, languageOf(reply)),
      formActionFor(link, origins),
    );
  }

  /** The page for a link that cannot take payments now; undefined when it can. */
  private closedPage(reply: FastifyReply, link: PublicLink | undefined): FastifyReply | undefined {
    if (!link) {
      return send(reply, 404, messagePage(languageOf(reply), 'pay.link_not_found'));
    }
    const status = effectiveStatus(link, this.settings.clock.now());
    if (status !== 'active') return send(reply, 410, messagePage(languageOf(reply), CLOSED[status]));
    return undefined;
  }

  private token(link: PublicLink): string {
    return signCheckoutToken(this.settings.secret, link.id, this.settings.clock.now());
  }
}
