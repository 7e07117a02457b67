// A recurring payer's page for a mandate of a recurring payment link, at /pay/mandates/<token>
// (mandate-page-token.ts; docs/api.md Part 2, ADR 0013). HTTP only: GET shows the mandate with
// a cancel form (CSRF token bound to this link); POST cancels it (MandatePage) and shows the
// page again, canceled. A forged or expired link is 404. In the browser's language.

import { Body, Controller, Get, Inject, Param, Post, Res } from '@nestjs/common';
import { formField, formOf, messagesForAcceptLanguage, Public, sendPage } from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { formExpiredPage } from '../card-form/card-form';
import { messagePage } from '../card-form/card-form.page';
import { SealedForm, type SealedFormSettings } from '../card-form/sealed-form';
import type { MandateRow } from '../mandates/mandate';
import { MandatePage } from './mandate-page';
import { renderMandatePage } from './mandate-page.page';
import {
  isMandatePagePayload,
  MANDATE_PAGE_TOKEN_PURPOSE,
  type MandatePageTokenPayload,
} from './mandate-page-token';

export const MANDATE_PAGE_SETTINGS = 'paygrid:mandate-page-settings';

const languageOf = (reply: FastifyReply) =>
  messagesForAcceptLanguage(reply.request.headers['accept-language']);

@Controller('pay/mandates')
export class MandatePageController {
  private readonly forms: SealedForm<MandatePageTokenPayload>;

  constructor(
    @Inject(MandatePage) private readonly mandates: MandatePage,
    @Inject(MANDATE_PAGE_SETTINGS) settings: SealedFormSettings,
  ) {
    this.forms = new SealedForm(settings, {
      tokenPurpose: MANDATE_PAGE_TOKEN_PURPOSE,
      formPurpose: 'paygrid-mandate-page-form',
      isPayload: isMandatePagePayload,
    });
  }

  @Get('*')
  @Public()
  async page(@Param('*') token: string, @Res() reply: FastifyReply) {
    const link = this.forms.open(token);
    if (!link) return this.invalid(reply);
    return this.render(reply, token, link, await this.mandates.find(link));
  }

  @Post('*')
  @Public()
  async cancel(@Param('*') token: string, @Body() body: unknown, @Res() reply: FastifyReply) {
    const link = this.forms.open(token);
    if (!link) return this.invalid(reply);
    if (!this.forms.csrfValid(token, formField(formOf(body), 'csrf_token')))
      return sendPage(reply, 403, formExpiredPage(languageOf(reply)));
    return this.render(reply, token, link, await this.mandates.cancel(link), 'canceled');
  }

  private render(
    reply: FastifyReply,
    token: string,
    link: MandatePageTokenPayload,
    mandate: MandateRow | null,
    notice?: 'canceled',
  ) {
    if (!mandate) return this.invalid(reply);
    const form = { action: `/pay/mandates/${encodeURIComponent(token)}`, csrf: this.forms.csrf(token) };
    const html = renderMandatePage(mandate, link.merchant_name, languageOf(reply), form, notice);
    return sendPage(reply, 200, html, "'self'");
  }

  private invalid(reply: FastifyReply) {
    return sendPage(reply, 404, messagePage(languageOf(reply), 'pay.mandate_link_invalid'));
  }
}
