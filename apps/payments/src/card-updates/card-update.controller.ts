// The customer portal's saved-card page at /pay/cards/<token> (libs/contracts commands.ts,
// CARD_UPDATE_TOKEN_PURPOSE; docs/adr/0013): invoicing's portal seals which mandate of which
// customer, and whether to replace or remove its card. HTTP only: GET renders the card form
// (replace) or a confirmation (remove) with a CSRF token bound to this token; POST hands the
// form to UpdateMandateCard (update-card.ts), then 303 to the portal with
// ?card=replaced|removed, to the processor's 3-D Secure page (the payer comes back to this
// page with ?saved=, card-update-return.ts), or the form again with the reason (400, 402). In the portal's
// language (the token carries it); a forged or expired token's page in the browser's.

import { Body, Controller, Get, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { CARD_UPDATE_TOKEN_PURPOSE, type CardUpdateTokenPayload } from '@paygrid/contracts';
import {
  escapeHtml,
  formField,
  formOf,
  type MessageKey,
  messagesFor,
  messagesForAcceptLanguage,
  type Messages,
  Public,
  sendPage,
  sendSeeOther,
  tokenHash,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { formExpiredPage, localizedError } from '../card-form/card-form';
import { cardFields, errorAlert, layout, messagePage, testModeNote } from '../card-form/card-form.page';
import { SealedForm, type SealedFormSettings } from '../card-form/sealed-form';
import { UpdateMandateCard, type CardUpdateResult } from './update-card';

export const CARD_UPDATE_SETTINGS = 'paygrid:card-update-settings';
export type CardUpdateSettings = SealedFormSettings;

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

const languageOf = (request: CardUpdateTokenPayload) => messagesFor([request.locale]);

@Controller('pay/cards')
export class CardUpdateController {
  private readonly forms: SealedForm<CardUpdateTokenPayload>;

  constructor(
    @Inject(UpdateMandateCard) private readonly cards: UpdateMandateCard,
    @Inject(CARD_UPDATE_SETTINGS) settings: CardUpdateSettings,
  ) {
    this.forms = new SealedForm(settings, {
      tokenPurpose: CARD_UPDATE_TOKEN_PURPOSE,
      formPurpose: 'paygrid-card-update-form',
      isPayload,
    });
  }

  /** The page, or (with `saved`) the return from 3-D Secure: Stripe adds `setup_intent`. */
  @Get('*')
  @Public()
  async page(@Param('*') token: string, @Query() query: Record<string, unknown>, @Res() reply: FastifyReply) {
    const request = this.forms.open(token);
    if (!request) return this.invalid(reply);
    if (query.saved !== undefined)
      return this.render(
        reply,
        request,
        token,
        await this.cards.complete(request, query.saved, query.setup_intent),
      );
    if (!(await this.cards.isOpen(request))) return this.done(reply, request);
    return this.form(reply, 200, request, token);
  }

  @Post('*')
  @Public()
  async submit(@Param('*') token: string, @Body() body: unknown, @Res() reply: FastifyReply) {
    const request = this.forms.open(token);
    if (!request) return this.invalid(reply);
    const form = formOf(body);
    const csrf = formField(form, 'csrf_token');
    if (!this.forms.csrfValid(token, csrf)) return sendPage(reply, 403, formExpiredPage(languageOf(request)));
    return this.render(reply, request, token, await this.cards.submit(request, form, tokenHash(csrf), token));
  }

  private render(
    reply: FastifyReply,
    request: CardUpdateTokenPayload,
    token: string,
    result: CardUpdateResult,
  ) {
    const m = languageOf(request);
    switch (result.kind) {
      case 'done':
        return this.done(reply, request);
      case 'invalid':
        return this.form(reply, 400, request, token, localizedError(result.message, m));
      case 'declined':
        return this.form(reply, 402, request, token, localizedError(result.message, m, result.code));
      case 'authenticate':
        return sendSeeOther(reply, result.url);
      case 'link_invalid':
        return sendPage(reply, 404, messagePage(m, 'pay.card_link_invalid'));
      case 'unsupported':
        return sendPage(
          reply,
          409,
          messagePage(m, 'pay.cards_not_supported', { seller: request.merchant_name }),
        );
    }
  }

  /** Back to the portal, which shows the card as the mandate events now describe it. */
  private done(reply: FastifyReply, request: CardUpdateTokenPayload) {
    const target = new URL(request.return_url);
    target.searchParams.set('card', request.action === 'remove' ? 'removed' : 'replaced');
    return sendSeeOther(reply, target.toString());
  }

  private async form(
    reply: FastifyReply,
    status: number,
    request: CardUpdateTokenPayload,
    token: string,
    error?: string,
  ) {
    const m = languageOf(request);
    const action = `/pay/cards/${encodeURIComponent(token)}`;
    // The form posts here; the answer redirects to the portal or to the processor's 3-D Secure
    // page (their origins must be allowed).
    const origins = await this.cards.authenticationOrigins(request);
    const formAction = ["'self'", new URL(request.return_url).origin, ...origins].join(' ');
    const heading = m.t(
      request.action === 'replace' ? 'card_update.replace_title' : 'card_update.remove_title',
    );
    const body = renderCardUpdateBody(request, m, action, this.forms.csrf(token), error);
    return sendPage(reply, status, layout(heading, body, undefined, m.locale), formAction);
  }

  private invalid(reply: FastifyReply) {
    const m = messagesForAcceptLanguage(reply.request.headers['accept-language']);
    return sendPage(reply, 404, messagePage(m, 'pay.card_link_invalid'));
  }
}

/** The card page's body: the new card's fields (replace) or a confirmation (remove). */
function renderCardUpdateBody(
  request: CardUpdateTokenPayload,
  m: Messages,
  action: string,
  csrf: string,
  error?: string,
): string {
  const t = (key: MessageKey, params?: Record<string, string>) => escapeHtml(m.t(key, params));
  const seller = request.merchant_name;
  const replace = request.action === 'replace';
  const fields = replace
    ? `<fieldset>\n<legend>${t('card_update.new_card')}</legend>\n${cardFields(m)}\n</fieldset>\n<button type="submit">${t('card_update.replace_button')}</button>`
    : `<button type="submit">${t('card_update.remove_button')}</button>`;
  const heading = m.t(replace ? 'card_update.replace_title' : 'card_update.remove_title');
  return `<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(seller)}: ${escapeHtml(request.card_label)}</p>
<p>${t(replace ? 'card_update.replace_note' : 'card_update.remove_note', { seller })}</p>
${errorAlert(error)}
<form method="post" action="${escapeHtml(action)}" autocomplete="on"${error ? ' aria-describedby="form-error"' : ''}>
<input type="hidden" name="csrf_token" value="${escapeHtml(csrf)}">
${fields}
</form>
<p class="muted"><a href="${escapeHtml(request.return_url)}">${t('card_update.back')}</a></p>
${replace ? testModeNote(request.livemode, m) : ''}`;
}
