// The customer portal's card change (card-update.controller.ts renders it; ADR 0013): the
// mandate must be the customer's and active; "remove" cancels it (mandate.canceled);
// "replace" stores the posted card with the processor without a charge (the connector's
// optional saveCard, keyed by the form token so a repeated post stores it once) and puts it on
// the mandate (mandate.updated). The card lives only in this call's memory.

import type { Clock } from '@paygrid/platform';
import type { CardUpdateTokenPayload } from '@paygrid/contracts';
import { CARD_INCOMPLETE, parseCard } from '../card-form/card-form';
import { summarizeCard, validateCard } from '../connectors/cards';
import type { DeclineCode } from '../connectors/connector';
import type { ConnectorRouter } from '../connectors/connector-router';
import type { MandatesService } from '../mandates/mandates.service';

/** What a posted card page did: back to the portal, or the form again, or a refusal page. */
export type CardUpdateResult =
  | { kind: 'done' }
  | { kind: 'invalid'; message: string }
  | { kind: 'declined'; code: DeclineCode; message: string }
  | { kind: 'unsupported' };

export class UpdateMandateCard {
  constructor(
    private readonly mandates: MandatesService,
    private readonly connectors: ConnectorRouter,
    private readonly clock: Clock,
  ) {}

  /** Whether the page still has a card to change (else it sends the payer back to the portal). */
  async isOpen(request: CardUpdateTokenPayload): Promise<boolean> {
    const mandate = await this.mandates.forCustomer(tenantOf(request), request.mandate, request.customer);
    return mandate?.status === 'active';
  }

  /** Applies the posted form; `formKey` (the CSRF token's hash) names this attempt. */
  async submit(
    request: CardUpdateTokenPayload,
    form: Record<string, unknown>,
    formKey: string,
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
    const saved = await connector.saveCard({
      idempotency_key: `card-update:${mandate.id}:${formKey}`,
      card,
      livemode: request.livemode,
      credential: mandate.credential,
    });
    if (saved.status !== 'succeeded') return { kind: 'declined', code: saved.code, message: saved.message };
    await this.mandates.replaceCard(tenant, mandate.id, request.customer, {
      payment_method: summarizeCard(card),
      credential: saved.credential,
    });
    return { kind: 'done' };
  }
}

const tenantOf = (request: CardUpdateTokenPayload) => ({
  account: request.account,
  livemode: request.livemode,
});
