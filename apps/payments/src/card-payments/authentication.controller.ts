// 3-D Secure over HTTP, HTTP only (docs/api.md §5, 3-D Secure): the payer's return from the
// processor (GET /pay/return/<transaction>?token=...), which SettleAuthentication settles,
// and the sandbox's challenge page (GET/POST /pay/sandbox/challenge/<reference>), where the
// test card 4000 0027 6000 3184 is approved or failed so the whole flow runs offline.

import { Body, Controller, Get, Inject, Param, Post, Query, Res } from '@nestjs/common';
import {
  formField,
  formOf,
  messagesForAcceptLanguage,
  Public,
  sendPage as send,
  sendSeeOther,
  signFormToken,
  verifyFormToken,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { formExpiredPage, notCompletedMessage } from '../card-form/card-form';
import { messagePage, renderMessage } from '../card-form/card-form.page';
import { sandboxChallengePath } from '../connectors/sandbox.connector';
import type { SandboxChallenges } from '../connectors/sandbox-challenges';
import { mandatePageOf } from '../mandate-pages/mandate-page-token';
import { renderSuccess } from '../payment-links/checkout.page';
import { PaymentLinksService } from '../payment-links/payment-links.service';
import type { TransactionRow } from '../transactions/transaction';
import type { AuthenticationReturns } from './authentication-return';
import { renderSandboxChallenge } from './authentication.page';
import type { SettleAuthentication } from './settle-authentication';

export const AUTHENTICATION = 'paygrid:authentication';
export interface Authentication {
  returns: AuthenticationReturns;
  settle: SettleAuthentication;
  challenges: SandboxChallenges;
  /** Signs the challenge form's CSRF token (INTERNAL_SIGNING_SECRET). */
  secret: string;
  now(): Date;
}

const CHALLENGE_PURPOSE = 'paygrid-sandbox-challenge';

/** The payer's language: the return from 3-D Secure has no customer to ask (docs/api.md Part 2). */
const languageOf = (reply: FastifyReply) =>
  messagesForAcceptLanguage(reply.request.headers['accept-language']);

@Controller('pay')
export class AuthenticationController {
  constructor(
    @Inject(AUTHENTICATION) private readonly auth: Authentication,
    @Inject(PaymentLinksService) private readonly links: PaymentLinksService,
  ) {}

  @Get('return/:id')
  @Public()
  async returned(@Param('id') id: string, @Query('token') token: unknown, @Res() reply: FastifyReply) {
    const payload = this.auth.returns.open(id, token);
    if (!payload) return send(reply, 403, messagePage(languageOf(reply), 'pay.auth_forged'));
    const row = await this.auth.settle.settle(id);
    if (!row) return send(reply, 404, messagePage(languageOf(reply), 'pay.auth_not_found'));
    return this.outcome(reply, row, payload.after);
  }

  @Get('sandbox/challenge/:reference')
  @Public()
  async challenge(
    @Param('reference') reference: string,
    @Query('return_url') returnUrl: unknown,
    @Res() reply: FastifyReply,
  ) {
    const url = typeof returnUrl === 'string' ? returnUrl : '';
    if (!this.auth.returns.isOurs(url) || !(await this.auth.challenges.waiting(reference))) {
      return send(reply, 404, messagePage(languageOf(reply), 'pay.auth_challenge_invalid'));
    }
    const csrf = signFormToken(this.auth.secret, CHALLENGE_PURPOSE, reference, this.auth.now());
    return send(reply, 200, renderSandboxChallenge(sandboxChallengePath(reference), csrf, url));
  }

  @Post('sandbox/challenge/:reference')
  @Public()
  async decide(
    @Param('reference') reference: string,
    @Body() body: Record<string, unknown> | undefined,
    @Res() reply: FastifyReply,
  ) {
    const form = formOf(body);
    const csrf = formField(form, 'csrf_token');
    if (!verifyFormToken(this.auth.secret, CHALLENGE_PURPOSE, reference, csrf, this.auth.now())) {
      return send(reply, 403, formExpiredPage(languageOf(reply)));
    }
    const url = formField(form, 'return_url');
    const decision = formField(form, 'decision');
    if (!this.auth.returns.isOurs(url) || (decision !== 'approved' && decision !== 'failed')) {
      return send(reply, 400, messagePage(languageOf(reply), 'pay.auth_challenge_invalid'));
    }
    // A decision on a payment already settled changes nothing; the return shows its outcome.
    if (await this.auth.challenges.waiting(reference)) await this.auth.challenges.decide(reference, decision);
    // Back on the origin the payer is on (the return URL is ours: its path and query suffice).
    const back = new URL(url);
    return sendSeeOther(reply, `${back.pathname}${back.search}`);
  }

  private async outcome(reply: FastifyReply, row: TransactionRow, after: string | undefined) {
    if (row.status === 'failed') {
      const m = languageOf(reply);
      return send(
        reply,
        402,
        renderMessage(m.t('pay.not_completed.title'), notCompletedMessage(row, m), m.locale),
      );
    }
    if (row.status !== 'succeeded')
      return send(reply, 202, messagePage(languageOf(reply), 'pay.auth_waiting'));
    if (after) {
      const target = new URL(after);
      target.searchParams.set('payment', row.id);
      return sendSeeOther(reply, target.toString());
    }
    const link = row.payment_link ? await this.links.findPublic(row.payment_link) : undefined;
    if (link?.after_completion_redirect_url) return sendSeeOther(reply, link.after_completion_redirect_url);
    // The same success page as without 3-D Secure: where the receipt went, in the browser's language.
    const m = languageOf(reply);
    if (link) {
      const manage = mandatePageOf(this.auth.secret, this.auth.now(), link, row);
      return send(reply, 200, renderSuccess(link, row.id, row.receipt_email, m, manage));
    }
    return send(reply, 200, messagePage(m, 'pay.auth_succeeded'));
  }
}
