// The customer portal's card change (card-update.controller.ts renders it; ADR 0013): the
// mandate must be the customer's and active; "remove" cancels it (mandate.canceled);
// "replace" stores the posted card with the processor without a charge (the connector's
// optional saveCard, keyed by the form token so a repeated post stores it once) and puts it on
// the mandate (mandate.updated); a card whose issuer asks for 3-D Secure sends the payer to
// the processor and is put on the mandate by `complete` when they come back
// (card-update-return.ts). The card lives only in this call's memory.

import { ApiError, CATALOGUES, type Clock } from '@paygrid/platform';
import type { CardUpdateTokenPayload } from '@paygrid/contracts';
import { CARD_INCOMPLETE, parseCard } from '../card-form/card-form';
import { summarizeCard, validateCard } from '../connectors/cards';
import type { DeclineCode } from '../connectors/connector';
import type { ConnectorRouter } from '../connectors/connector-router';
import type { MandatesService } from '../mandates/mandates.service';
import type { CardUpdateReturns } from './card-update-return';

/** What a posted card page did: back to the portal, or the form again, or a refusal page. */
export type CardUpdateResult =
  | { kind: 'done' }
  | { kind: 'invalid'; message: string }
  | { kind: 'declined'; code: DeclineCode; message: string }
  | { kind: 'authenticate'; url: string }
  | { kind: 'link_invalid' }
  | { kind: 'unsupported' };

export class UpdateMandateCard {
  constructor(
    private readonly mandates: MandatesService,
    private readonly connectors: ConnectorRouter,
    private readonly clock: Clock,
    private readonly returns: CardUpdateReturns,
  ) {}

  /** Where the page's form may send the payer (the processor's 3-D Secure origins). */
  authenticationOrigins(request: CardUpdateTokenPayload): Promise<readonly string[]> {
    return this.connectors.authenticationOrigins(tenantOf(request));
  }

  /** Whether the page still has a card to change (else it sends the payer back to the portal). */
  async isOpen(request: CardUpdateTokenPayload): Promise<boolean> {
    const mandate = await this.mandates.forCustomer(tenantOf(request), request.mandate, request.customer);
    return mandate?.status === 'active';
  }

  /**
   * Applies the posted form; `formKey` (the CSRF token's hash) names this attempt, and
   * `pageToken` is the page's own token (the return from 3-D Secure comes back to it).
   */
  async submit(
    request: CardUpdateTokenPayload,
    form: Record<string, unknown>,
    formKey: string,
    pageToken: string,
  ): Promise<CardUpdateResult> {
    const tenant = tenantOf(request);
    const mandate = await this.mandates.forCustomer(tenant, request.mandate, request.customer);
    if (!mandate || mandate.status !== 'active') return { kind: 'done' };
    if (request.action === 'remove') {
      await this.mandates.cancel(tenant, mandate.id);
      return { kind: 'done' };
    }
    const card = parseCard(form);
    if (!card) return { kind: 'invalid', message: CARD_INCOMPLETE };
    const problem = validateCard(card, this.clock.now());
    if (problem) return { kind: 'invalid', message: problem.message };
    const connector = await this.connectors.forTenant(tenant);
    if (!connector.saveCard) return { kind: 'unsupported' };
    const summary = summarizeCard(card);
    const key = `card-update:${mandate.id}:${formKey}`;
    const saved = await connector.saveCard({
      idempotency_key: key,
      card,
      livemode: request.livemode,
      credential: mandate.credential,
      // Only a connector that can settle a save on return is given one (else it refuses 3DS).
      ...(connector.lookupSavedCard
        ? { return_url: this.returns.url(pageToken, { mandate: mandate.id, key, card: summary }) }
        : {}),
    });
    if (saved.status === 'requires_action') {
      // The payer authenticates at the processor and comes back to this page with the state
      // (which SetupIntent, which card); nothing changes on the mandate before that.
      return { kind: 'authenticate', url: saved.redirect_url };
    }
    if (saved.status !== 'succeeded') return { kind: 'declined', code: saved.code, message: saved.message };
    await this.mandates.replaceCard(tenant, mandate.id, request.customer, {
      payment_method: summary,
      credential: saved.credential,
    });
    return { kind: 'done' };
  }

  /**
   * The payer is back from authenticating a card being saved: `sealed` is our state,
   * `reference` the processor's (Stripe's `setup_intent`). The processor's record decides:
   * succeeded puts the card on the mandate, as a save without authentication does.
   */
  async complete(
    request: CardUpdateTokenPayload,
    sealed: unknown,
    reference: unknown,
  ): Promise<CardUpdateResult> {
    const state = this.returns.open(request.mandate, sealed);
    if (!state || typeof reference !== 'string' || !/^[A-Za-z0-9_]{1,255}$/.test(reference)) {
      return { kind: 'link_invalid' };
    }
    const tenant = tenantOf(request);
    const mandate = await this.mandates.forCustomer(tenant, request.mandate, request.customer);
    if (!mandate || mandate.status !== 'active') return { kind: 'done' };
    const connector = await this.connectors.forTenant(tenant);
    if (!connector.lookupSavedCard) return { kind: 'unsupported' };
    const found = await connector
      .lookupSavedCard({
        processor_reference: reference,
        idempotency_key: state.key,
        livemode: request.livemode,
      })
      .catch((error: unknown) => {
        // No answer: nothing is decided; the payer may come back through the same URL again.
        if (error instanceof ApiError && error.code === 'upstream_unavailable') return undefined;
        throw error;
      });
    if (!found) {
      return {
        kind: 'declined',
        code: 'processing_error',
        message: CATALOGUES.en['decline.processing_error'],
      };
    }
    if (found.status === 'requires_action') {
      return {
        kind: 'declined',
        code: 'authentication_required',
        message: CATALOGUES.en['decline.save_card_authentication'],
      };
    }
    if (found.status !== 'succeeded') return { kind: 'declined', code: found.code, message: found.message };
    await this.mandates.replaceCard(tenant, mandate.id, request.customer, {
      payment_method: state.card,
      credential: found.credential,
    });
    return { kind: 'done' };
  }
}

const tenantOf = (request: CardUpdateTokenPayload) => ({
  account: request.account,
  livemode: request.livemode,
});
