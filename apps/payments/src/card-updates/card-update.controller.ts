// The customer portal's saved-card page at /pay/cards/<token> (libs/contracts commands.ts,
// CARD_UPDATE_TOKEN_PURPOSE; docs/adr/0013): invoicing's portal seals which mandate of which
// customer, and whether to replace or remove its card. Card data stays here: GET renders the
// card form (replace) or a confirmation (remove) with a CSRF token bound to this token; POST
// stores the new card with the processor without charging it and puts it on the mandate
// (mandate.updated), or cancels the mandate (mandate.canceled); then 303 to the portal with
// ?card=replaced|removed. A declined card re-renders the form (402) with the reason.

import { Body, Controller, Get, Inject, Param, Post, Res } from '@nestjs/common';
import { CARD_UPDATE_TOKEN_PURPOSE, type CardUpdateTokenPayload } from '@paygrid/contracts';
import {
  escapeHtml,
  formField,
  type MessageKey,
  messagesFor,
  formOf,
  openToken,
  Public,
  sendPage,
  sendSeeOther,
  signFormToken,
  tokenHash,
  verifyFormToken,
  type Clock,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { CARD_INCOMPLETE, formExpiredPage, parseCard } from '../card-form/card-form';
import { cardFields, errorAlert, layout, renderMessage, testModeNote } from '../card-form/card-form.page';
import { summarizeCard, validateCard } from '../connectors/cards';
import { ConnectorRouter } from '../connectors/connector-router';
import { MandatesService } from '../mandates/mandates.service';

export const CARD_UPDATE_SETTINGS = 'paygrid:card-update-settings';
export interface CardUpdateSettings {
  secret: string;
  clock: Clock;
}

const FORM_PURPOSE = 'paygrid-card-update-form';

function isPayload(value: unknown): value is CardUpdateTokenPayload {
  const p = value as Partial<CardUpdateTokenPayload> | null;
  return (
    !!p &&
    typeof p.account === 'string' &&
    typeof p.livemode === 'boolean' &&
    typeof p.customer === 'string' &&
    typeof p.mandate === 'string' &&
    (p.action === 'replace' || p.action === 'remove') &&
    typeof p.merchant_name === 'string' &&
    typeof p.card_label === 'string' &&
    typeof p.return_url === 'string' &&
    typeof p.locale === 'string' &&
    /^https?:\/\//.test(p.return_url)
  );
}

@Controller('pay/cards')
export class CardUpdateController {
  constructor(
    @Inject(MandatesService) private readonly mandates: MandatesService,
    @Inject(ConnectorRouter) private readonly connectors: ConnectorRouter,
    @Inject(CARD_UPDATE_SETTINGS) private readonly settings: CardUpdateSettings,
  ) {}

  @Get('*')
  @Public()
  async page(@Param('*') token: string, @Res() reply: FastifyReply) {
    const request = this.open(token);
    if (!request) return this.invalid(reply);
    const mandate = await this.mandates.forCustomer(this.tenant(request), request.mandate, request.customer);
    if (!mandate || mandate.status !== 'active') return this.done(reply, request);
    return this.form(reply, 200, request, token);
  }

  @Post('*')
  @Public()
  async submit(@Param('*') token: string, @Body() body: unknown, @Res() reply: FastifyReply) {
    const request = this.open(token);
    if (!request) return this.invalid(reply);
    const form = formOf(body);
    const csrf = formField(form, 'csrf_token');
    if (
      !verifyFormToken(this.settings.secret, FORM_PURPOSE, tokenHash(token), csrf, this.settings.clock.now())
    ) {
      return sendPage(reply, 403, formExpiredPage());
    }
    const tenant = this.tenant(request);
    const mandate = await this.mandates.forCustomer(tenant, request.mandate, request.customer);
    if (!mandate || mandate.status !== 'active') return this.done(reply, request);
    if (request.action === 'remove') {
      await this.mandates.cancel(tenant, mandate.id);
      return this.done(reply, request);
    }
    const card = parseCard(form);
    if (!card) return this.form(reply, 400, request, token, CARD_INCOMPLETE);
    const problem = validateCard(card, this.settings.clock.now());
    if (problem) return this.form(reply, 400, request, token, problem.message);
    const connector = await this.connectors.forTenant(tenant);
    if (!connector.saveCard) {
      return sendPage(
        reply,
        409,
        renderMessage(
          'Cards cannot be replaced here',
          `The payment processor of ${request.merchant_name} does not support it yet. Contact the seller.`,
        ),
      );
    }
    // The form token names the attempt: a repeated post stores the card once at the processor.
    const saved = await connector.saveCard({
      idempotency_key: `card-update:${mandate.id}:${tokenHash(csrf)}`,
      card,
      livemode: request.livemode,
      credential: mandate.credential,
    });
    if (saved.status !== 'succeeded') return this.form(reply, 402, request, token, saved.message);
    await this.mandates.replaceCard(tenant, mandate.id, request.customer, {
      payment_method: summarizeCard(card),
      credential: saved.credential,
    });
    return this.done(reply, request);
  }

  private tenant(request: CardUpdateTokenPayload) {
    return { account: request.account, livemode: request.livemode };
  }

  private open(token: string): CardUpdateTokenPayload | undefined {
    const payload = openToken<CardUpdateTokenPayload>(
      this.settings.secret,
      CARD_UPDATE_TOKEN_PURPOSE,
      token,
      this.settings.clock.now(),
    );
    return isPayload(payload) ? payload : undefined;
  }

  /** Back to the portal, which shows the card as the mandate events now describe it. */
  private done(reply: FastifyReply, request: CardUpdateTokenPayload) {
    const target = new URL(request.return_url);
    target.searchParams.set('card', request.action === 'remove' ? 'removed' : 'replaced');
    return sendSeeOther(reply, target.toString());
  }

  private form(
    reply: FastifyReply,
    status: number,
    request: CardUpdateTokenPayload,
    token: string,
    error?: string,
  ) {
    // The portal's language (the token carries it); the processor's decline reasons stay English.
    const m = messagesFor([request.locale]);
    const t = (key: MessageKey, params?: Record<string, string>) => escapeHtml(m.t(key, params));
    const csrf = signFormToken(
      this.settings.secret,
      FORM_PURPOSE,
      tokenHash(token),
      this.settings.clock.now(),
    );
    const action = `/pay/cards/${encodeURIComponent(token)}`;
    const seller = request.merchant_name;
    const replace = request.action === 'replace';
    const fields = replace
      ? `<fieldset>\n<legend>${t('card_update.new_card')}</legend>\n${cardFields(m)}\n</fieldset>\n<button type="submit">${t('card_update.replace_button')}</button>`
      : `<button type="submit">${t('card_update.remove_button')}</button>`;
    const heading = m.t(replace ? 'card_update.replace_title' : 'card_update.remove_title');
    const body = `<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(seller)}: ${escapeHtml(request.card_label)}</p>
<p>${t(replace ? 'card_update.replace_note' : 'card_update.remove_note', { seller })}</p>
${errorAlert(error)}
<form method="post" action="${escapeHtml(action)}" autocomplete="on"${error ? ' aria-describedby="form-error"' : ''}>
<input type="hidden" name="csrf_token" value="${escapeHtml(csrf)}">
${fields}
</form>
<p class="muted"><a href="${escapeHtml(request.return_url)}">${t('card_update.back')}</a></p>
${replace ? testModeNote(request.livemode, m) : ''}`;
    // The form posts here; the answer redirects to the portal (its origin must be allowed).
    const formAction = ["'self'", new URL(request.return_url).origin].join(' ');
    return sendPage(reply, status, layout(heading, body, undefined, m.locale), formAction);
  }

  private invalid(reply: FastifyReply) {
    return sendPage(
      reply,
      404,
      renderMessage('This link is not valid', 'It may have expired. Go back to your account and try again.'),
    );
  }
}
