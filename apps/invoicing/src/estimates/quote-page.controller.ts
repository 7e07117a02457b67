// The customer's page for an estimate or quote (docs/api.md §6) at /q/<token>, reached
// through the gateway's /q/* forward with a signed `public` context. The token is 32 random
// bytes stored with the estimate (the address is the credential); drafts have no page.
// Accept and decline are POST forms with a signed CSRF token bound to the estimate; each token
// decides at most once (its hash is recorded in the decision's transaction), so a double
// click answers with the first decision.

import { Body, Controller, Get, Inject, Param, Post, Res } from '@nestjs/common';
import {
  type Clock,
  formField,
  formOf,
  Public,
  sendPage,
  sendPdf,
  sendStylesheet,
  signFormToken,
  tokenHash,
  verifyFormToken,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { estimatePdfFilename, EstimatesService } from './estimates.service';
import {
  decisionNotice,
  QUOTE_PAGE_CSS,
  renderQuoteMessage,
  renderQuotePage,
  type QuotePageView,
} from './quote-page';
import type { EstimateRow } from './estimate.serializer';
import { profileOf, sellerBranding, sellerSnapshot } from '../account/account-profile';
import { AccountProfileService } from '../account/account.service';

export const QUOTE_PAGE_SETTINGS = 'paygrid:quote-page-settings';
export interface QuotePageSettings {
  /** INTERNAL_SIGNING_SECRET: signs the forms' CSRF tokens. */
  secret: string;
  clock: Clock;
}

/** The accept/decline forms' CSRF token: a platform form token bound to the estimate id. */
const FORM_PURPOSE = 'paygrid-quote-form';

/** The forms post to this page's own /accept and /decline. */
const send = (reply: FastifyReply, status: number, html: string) => sendPage(reply, status, html, "'self'");

const notFoundPage = () =>
  renderQuoteMessage(
    'Page not found',
    'This estimate or quote does not exist. Check the link you were sent.',
  );

@Controller('q')
export class QuotePageController {
  constructor(
    @Inject(EstimatesService) private readonly estimates: EstimatesService,
    @Inject(QUOTE_PAGE_SETTINGS) private readonly settings: QuotePageSettings,
    @Inject(AccountProfileService) private readonly profiles: AccountProfileService,
  ) {}

  /** The seller as its profile reads now: quotes keep no snapshot beyond the name. */
  private async seller(row: EstimateRow): Promise<Pick<QuotePageView, 'seller' | 'branding'>> {
    const profileRow = await this.profiles.get(row.account_id);
    const fallback = row.seller_name ?? profileRow?.account_name ?? null;
    return {
      seller: sellerSnapshot(profileOf(profileRow), fallback),
      branding: sellerBranding(profileRow, this.profiles.publicUrl, fallback),
    };
  }

  @Get('assets/quote.css')
  @Public()
  stylesheet(@Res() reply: FastifyReply) {
    return sendStylesheet(reply, QUOTE_PAGE_CSS);
  }

  @Get(':token')
  @Public()
  async page(@Param('token') token: string, @Res() reply: FastifyReply) {
    const found = await this.estimates.findByPageToken(token);
    if (!found) return send(reply, 404, notFoundPage());
    return send(
      reply,
      200,
      renderQuotePage({
        ...found,
        formToken: this.formToken(found.estimate.id),
        ...(await this.seller(found.estimate)),
      }),
    );
  }

  @Get(':token/pdf')
  @Public()
  async pdf(@Param('token') token: string, @Res() reply: FastifyReply) {
    const found = await this.estimates.findByPageToken(token);
    if (!found) return send(reply, 404, notFoundPage());
    return sendPdf(reply, estimatePdfFilename(found.estimate), await this.estimates.pdf(found.estimate));
  }

  @Post(':token/accept')
  @Public()
  accept(@Param('token') token: string, @Body() body: unknown, @Res() reply: FastifyReply) {
    return this.decide(token, 'accept', body, reply);
  }

  @Post(':token/decline')
  @Public()
  decline(@Param('token') token: string, @Body() body: unknown, @Res() reply: FastifyReply) {
    return this.decide(token, 'decline', body, reply);
  }

  private async decide(token: string, action: 'accept' | 'decline', body: unknown, reply: FastifyReply) {
    const found = await this.estimates.findByPageToken(token);
    if (!found) return send(reply, 404, notFoundPage());
    const csrf = formField(formOf(body), 'csrf_token');
    const id = found.estimate.id;
    if (!verifyFormToken(this.settings.secret, FORM_PURPOSE, id, csrf, this.settings.clock.now())) {
      return send(
        reply,
        403,
        renderQuoteMessage(
          'This form has expired',
          'For your security, the form can only be used for a limited time. Go back, reload the page and try again; nothing was recorded.',
        ),
      );
    }
    const result = await this.estimates.decideFromPage(id, action, tokenHash(csrf));
    const { estimate: row, expired } = result;
    if (result.outcome === 'not_allowed') {
      return send(reply, 409, renderQuotePage({ estimate: row, expired, ...(await this.seller(row)) }));
    }
    const notice = decisionNotice(row);
    return send(
      reply,
      200,
      renderQuotePage({ estimate: row, expired, ...(notice ? { notice } : {}), ...(await this.seller(row)) }),
    );
  }

  private formToken(estimateId: string): string {
    return signFormToken(this.settings.secret, FORM_PURPOSE, estimateId, this.settings.clock.now());
  }
}
