// The hosted checkout page (docs/api.md §5), reached through the gateway's /pay/* forward
// with a signed `public` context. GET renders the form with a fresh CSRF token; POST verifies
// the token, claims it (each token pays at most once: a double click shows the first
// submission's result), and charges through TransactionsService.chargeCard (connector call
// outside any transaction). A recurring link's checkout also stores the card at the
// processor and creates the mandate with the first charge (MandatesService.createWithPayment).
// The card number and CVC live only in this request's memory: they are never logged, stored
// or echoed back into a re-rendered form.

import { Body, Controller, Get, Inject, Param, Post, Res } from '@nestjs/common';
import {
  formField,
  formOf,
  Public,
  sendPage as send,
  sendSeeOther,
  sendStylesheet,
  toMinor,
  type Clock,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import {
  awaitFirstSubmission,
  CARD_INCOMPLETE,
  CHECK_CARD_AGAIN,
  chargeFromForm,
  formExpiredPage,
  isRefused,
  notCompletedMessage,
  parseCard,
  paymentsNotAvailablePage,
} from '../card-form/card-form';
import { CARD_FORM_CSS, renderMessage } from '../card-form/card-form.page';
import { summarizeCard } from '../connectors/cards';
import { ConnectorRouter } from '../connectors/connector-router';
import type { Interval } from '../mandates/cycle';
import { MandatesService } from '../mandates/mandates.service';
import type { TransactionRow } from '../transactions/transaction';
import { TransactionsService } from '../transactions/transactions.service';
import { checkoutTokenHash, signCheckoutToken, verifyCheckoutToken } from './checkout-token';
import { renderCheckoutForm, renderSuccess } from './checkout.page';
import { effectiveStatus, PaymentLinksService, type PublicLink } from './payment-links.service';

export const CHECKOUT_SETTINGS = 'paygrid:checkout-settings';
export interface CheckoutSettings {
  /** The server secret the CSRF tokens are signed with (INTERNAL_SIGNING_SECRET). */
  secret: string;
  clock: Clock;
}

/** form-action must also allow the redirect that follows a successful payment. */
function formActionFor(link: PublicLink): string {
  if (!link.after_completion_redirect_url) return "'self'";
  try {
    return `'self' ${new URL(link.after_completion_redirect_url).origin}`;
  } catch {
    return "'self'";
  }
}

@Controller('pay')
export class CheckoutController {
  constructor(
    @Inject(PaymentLinksService) private readonly links: PaymentLinksService,
    @Inject(TransactionsService) private readonly transactions: TransactionsService,
    @Inject(MandatesService) private readonly mandates: MandatesService,
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
      return send(reply, 409, paymentsNotAvailablePage());
    }
    return send(reply, 200, renderCheckoutForm(link, this.token(link)), formActionFor(link));
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
      return send(reply, 403, formExpiredPage());
    }
    const hash = checkoutTokenHash(token);
    // A token already used (double click) shows the first submission's result, even once
    // that payment has completed the link.
    if (await this.links.submission(hash)) return this.replay(reply, link, hash);
    const closed = this.closedPage(reply, link);
    if (closed) return closed;
    const claim = await this.links.claimToken(link.id, hash);
    if (claim === 'used') return this.replay(reply, link, hash);
    if (claim === 'full') {
      return send(
        reply,
        409,
        renderMessage(
          'This payment link is being paid',
          'Another payment through this link is in progress or has completed it. You have not been charged.',
        ),
      );
    }

    const again = (status: number, message: string) =>
      send(reply, status, renderCheckoutForm(link, this.token(link), message), formActionFor(link));

    const card = parseCard(form);
    if (!card) {
      await this.links.releaseToken(hash);
      return again(400, CARD_INCOMPLETE);
    }

    const recurring = link.type === 'recurring' ? link.recurring : null;
    const payer = {
      name: formField(form, 'cardholder_name').slice(0, 100) || null,
      // Optional and only for receipts: anything that is not an address is simply not kept.
      email: /^[^\s@]{1,100}@[^\s@]{1,100}$/.test(formField(form, 'email')) ? formField(form, 'email') : null,
    };
    const transaction = await chargeFromForm(
      () =>
        this.transactions.chargeCard(
          { account: link.account_id, livemode: link.livemode },
          {
            amount: toMinor(link.amount_total),
            currency: link.currency,
            card,
            ...(link.merchant_id ? { merchant: link.merchant_id } : {}),
            payment_link: link.id,
            ...(link.client_reference_id ? { client_reference_id: link.client_reference_id } : {}),
            metadata: link.metadata,
          },
          // A recurring link: the processor keeps the card, and the mandate is created in the
          // same transaction that records the first charge as succeeded.
          recurring
            ? {
                storeCredential: true,
                onSucceeded: (tx, row, credential) =>
                  this.mandates.createWithPayment(tx, row, {
                    merchant: row.merchant_id,
                    payment_link: link.id,
                    client_reference_id: link.client_reference_id,
                    payer,
                    payment_method: summarizeCard(card),
                    credential: credential ?? '',
                    currency: link.currency,
                    recurring: {
                      amount: toMinor(link.amount_total),
                      interval: recurring.interval as Interval,
                      interval_count: recurring.interval_count,
                    },
                    metadata: link.metadata,
                  }),
              }
            : {},
        ),
      () => this.links.releaseToken(hash),
    );
    if (isRefused(transaction)) {
      if (transaction.refused === 'invalid') return again(400, transaction.message);
      if (transaction.refused === 'processor_not_configured')
        return send(reply, 409, paymentsNotAvailablePage());
      return send(
        reply,
        409,
        renderMessage('Payments are not available', 'This merchant cannot accept payments at the moment.'),
      );
    }
    // Completion first, then the submission: the in-flight count of claimToken never misses a success.
    if (transaction.status === 'succeeded') await this.links.recordCompletion(link.id);
    await this.links.recordSubmission(hash, transaction.id);
    return this.result(reply, link, transaction);
  }

  /** A token already used: wait for the first submission, then show its result. */
  private async replay(reply: FastifyReply, link: PublicLink, hash: string) {
    const first = await awaitFirstSubmission(() => this.links.submission(hash));
    if (first.kind === 'released') {
      return send(
        reply,
        400,
        renderCheckoutForm(link, this.token(link), CHECK_CARD_AGAIN),
        formActionFor(link),
      );
    }
    if (first.kind === 'done') {
      const transaction = await this.transactions.get(
        { account: link.account_id, livemode: link.livemode },
        first.transactionId,
      );
      return this.result(reply, link, transaction);
    }
    return send(
      reply,
      409,
      renderMessage(
        'Payment in progress',
        'This payment is still being processed. Do not pay again; the merchant will confirm the outcome.',
      ),
    );
  }

  private result(reply: FastifyReply, link: PublicLink, transaction: TransactionRow) {
    if (transaction.status === 'succeeded') {
      if (link.after_completion_redirect_url) return sendSeeOther(reply, link.after_completion_redirect_url);
      return send(reply, 200, renderSuccess(link, transaction.id));
    }
    return send(
      reply,
      402,
      renderCheckoutForm(link, this.token(link), notCompletedMessage(transaction)),
      formActionFor(link),
    );
  }

  /** The page for a link that cannot take payments now; undefined when it can. */
  private closedPage(reply: FastifyReply, link: PublicLink | undefined): FastifyReply | undefined {
    if (!link) {
      return send(reply, 404, renderMessage('Payment link not found', 'Check the address you were given.'));
    }
    const status = effectiveStatus(link, this.settings.clock.now());
    const messages: Record<string, [string, string]> = {
      inactive: ['This payment link is not active', 'The merchant has deactivated this payment link.'],
      completed: ['This payment link is no longer available', 'This payment link has already been paid.'],
      expired: ['This payment link has expired', 'Ask the merchant for a new payment link.'],
    };
    if (messages[status]) return send(reply, 410, renderMessage(...messages[status]));
    return undefined;
  }

  private token(link: PublicLink): string {
    return signCheckoutToken(this.settings.secret, link.id, this.settings.clock.now());
  }
}
