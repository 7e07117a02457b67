// The customer portal (docs/adr/0013) at /portal/<token>, reached through the gateway's
// /portal/* forward with a signed `public` context; the sealed token (portal-token.ts) names
// the customer. GET renders it in the customer's language; POST carries one subscription
// change (cancel at period end, or undo it) with a single-use CSRF token bound to the
// customer, then renders the page again with a notice. Saved cards link to the payments
// service's card page (CARD_UPDATE_TOKEN_PURPOSE), which returns here with ?card=... .

import { Body, Controller, Get, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { CARD_UPDATE_TOKEN_PURPOSE, type CardUpdateTokenPayload } from '@paygrid/contracts';
import {
  formField,
  formOf,
  messagesFor,
  type Messages,
  Public,
  sealToken,
  sendPage,
  sendStylesheet,
  signFormToken,
  tokenHash,
  verifyFormToken,
} from '@paygrid/platform';
import type { FastifyReply } from 'fastify';
import { sellerBranding } from '../account/account-profile';
import { AccountProfileService } from '../account/account.service';
import { PORTAL_PAGE_CSS, cardLabel, renderPortalMessage, renderPortalPage } from './portal-page';
import type { CustomerCardRow } from './portal.service';
import { PortalService, type PortalAction } from './portal.service';
import { openPortalToken, type PortalTokenPayload } from './portal-token';
import type { PortalSettings } from './portal-sessions';

export const PORTAL_SETTINGS = 'paygrid:portal-settings';

const FORM_PURPOSE = 'paygrid-portal-form';
/** A card page link stays valid this long after the portal was rendered. */
const CARD_TOKEN_TTL_MS = 3_600_000;

/** Forms post to the portal itself. */
const send = (reply: FastifyReply, status: number, html: string) => sendPage(reply, status, html, "'self'");

@Controller('portal')
export class PortalPageController {
  constructor(
    @Inject(PortalService) private readonly portal: PortalService,
    @Inject(PORTAL_SETTINGS) private readonly settings: PortalSettings,
    @Inject(AccountProfileService) private readonly profiles: AccountProfileService,
  ) {}

  @Get('assets/portal.css')
  @Public()
  stylesheet(@Res() reply: FastifyReply) {
    return sendStylesheet(reply, PORTAL_PAGE_CSS);
  }

  // A wildcard, not `:token`: the sealed token is longer than the router's 100-character limit
  // for a path parameter.
  @Get('*')
  @Public()
  async page(@Param('*') token: string, @Query('card') card: unknown, @Res() reply: FastifyReply) {
    const session = this.open(token);
    if (!session) return this.expired(reply);
    const m = await this.messages(session);
    const notice =
      card === 'replaced' || card === 'removed'
        ? { kind: 'success' as const, text: m.t(`portal.card.${card}_notice`) }
        : undefined;
    return this.render(reply, 200, token, session, notice);
  }

  @Post('*')
  @Public()
  async act(@Param('*') token: string, @Body() body: unknown, @Res() reply: FastifyReply) {
    const session = this.open(token);
    if (!session) return this.expired(reply);
    const m = await this.messages(session);
    const form = formOf(body);
    const csrf = formField(form, 'csrf_token');
    const action = formField(form, 'action');
    const subscription = formField(form, 'subscription');
    const now = this.settings.clock.now();
    if (!verifyFormToken(this.settings.secret, FORM_PURPOSE, session.customer, csrf, now)) {
      return send(reply, 403, renderPortalMessage(m, 'portal.form_expired', 'portal.form_expired_detail'));
    }
    if ((action !== 'cancel' && action !== 'resume') || !/^sub_[0-9A-Za-z]{8,64}$/.test(subscription)) {
      return this.render(reply, 400, token, session, {
        kind: 'error',
        text: m.t('portal.not_allowed_detail'),
      });
    }
    const tenant = { account: session.account, livemode: session.livemode };
    const result = await this.portal.act(
      tenant,
      session.customer,
      subscription,
      action as PortalAction,
      tokenHash(csrf),
      now,
    );
    if (result.kind === 'not_allowed') {
      return this.render(reply, 409, token, session, {
        kind: 'error',
        text: m.t('portal.not_allowed_detail'),
      });
    }
    if (result.kind === 'repeated') return this.render(reply, 200, token, session);
    const sub = result.subscription;
    const end = sub.current_period_end ?? sub.trial_end;
    const date = end ? m.date(end) : '';
    const text =
      action === 'cancel'
        ? m.t('portal.subscription.canceled_notice', { date })
        : m.t('portal.subscription.resumed_notice', { date });
    return this.render(reply, 200, token, session, { kind: 'success', text });
  }

  private async render(
    reply: FastifyReply,
    status: number,
    token: string,
    session: PortalTokenPayload,
    notice?: { kind: 'success' | 'error'; text: string },
  ) {
    const m = await this.messages(session);
    const tenant = { account: session.account, livemode: session.livemode };
    const data = await this.portal.load(tenant, session.customer);
    if (!data) return this.expired(reply, m);
    const profile = await this.profiles.get(session.account);
    const branding = sellerBranding(profile, this.profiles.publicUrl, profile?.account_name ?? null);
    const seller = branding.name ?? '';
    const portalUrl = `${this.settings.publicBaseUrl}/portal/${token}`;
    const now = this.settings.clock.now();
    return send(
      reply,
      status,
      renderPortalPage({
        data,
        messages: m,
        seller,
        branding,
        action: `/portal/${token}`,
        formToken: signFormToken(this.settings.secret, FORM_PURPOSE, session.customer, now),
        invoiceUrl: (invoice) => `/i/${invoice.page_token}`,
        cardUrl: (card, action) => this.cardUrl(session, card, action, seller, portalUrl, m, now),
        returnUrl: session.return_url,
        ...(notice ? { notice } : {}),
      }),
    );
  }

  private cardUrl(
    session: PortalTokenPayload,
    card: CustomerCardRow,
    action: 'replace' | 'remove',
    seller: string,
    portalUrl: string,
    m: Messages,
    now: Date,
  ): string {
    const payload: CardUpdateTokenPayload = {
      account: session.account,
      livemode: session.livemode,
      customer: session.customer,
      mandate: card.mandate_id,
      action,
      merchant_name: seller,
      card_label: cardLabel(m, card),
      return_url: portalUrl,
      locale: m.locale,
    };
    const sealed = sealToken(
      this.settings.secret,
      CARD_UPDATE_TOKEN_PURPOSE,
      payload,
      new Date(now.getTime() + CARD_TOKEN_TTL_MS),
    );
    return `/pay/cards/${sealed}`;
  }

  /** The session's language, else the customer's `preferred_locales` as they are now. */
  private async messages(session: PortalTokenPayload): Promise<Messages> {
    if (session.locale) return messagesFor([session.locale]);
    const tenant = { account: session.account, livemode: session.livemode };
    return messagesFor(await this.portal.localesOf(tenant, session.customer));
  }

  private open(token: string): PortalTokenPayload | null {
    return openPortalToken(this.settings.secret, token, this.settings.clock.now());
  }

  private expired(reply: FastifyReply, m: Messages = messagesFor([])) {
    return send(reply, 404, renderPortalMessage(m, 'portal.expired', 'portal.expired_detail'));
  }
}
