// The Stripe connector (docs/connectors.md): one-off card charges, refunds and stored cards for
// mandates, on the official `stripe` package. The card entered on our hosted page becomes a
// PaymentMethod, then a PaymentIntent confirmed server-side with it (Stripe refuses raw card
// data on the PaymentIntent itself). Every call carries an Idempotency-Key derived from our
// intent id (the PaymentIntent's is the intent id itself), and the SDK retries network errors
// and 5xx answers with that same key, so a retried or recovered intent never charges twice.
// Every PaymentIntent carries metadata.paygrid_intent = our intent id: `lookup` finds one whose
// answer was lost through the Search API (no extra call or commit on the way to a charge: the
// PaymentIntent's id is not known before Stripe answers), and one that asked for 3-D Secure by
// the id recorded with requires_action.

import Stripe from 'stripe';
import type {
  CardDetails,
  ChargeRequest,
  ConnectorOutcome,
  LookupOutcome,
  LookupRequest,
  PaymentConnector,
  RefundLookupRequest,
  RefundOutcome,
  RequiresAction,
  SaveCardOutcome,
  SaveCardRequest,
  SaveCardRequiresAction,
} from '../connector';
import {
  lookupOfPaymentIntent,
  outcomeOfError,
  outcomeOfOnSessionIntent,
  outcomeOfPaymentIntent,
  outcomeOfRefund,
  outcomeOfSetupIntent,
  ProcessorOutcomeUnknown,
  saveCardOutcomeOfError,
  type StripeErrorLike,
} from './stripe-outcomes';

/** Where Stripe sends a payer to authenticate (3-D Secure). */
export const STRIPE_AUTHENTICATION_ORIGINS = ['https://hooks.stripe.com'] as const;

/**
 * Currencies whose minor unit on Stripe differs from ISO 4217's exponent (Stripe's "special
 * cases"). Refused rather than risk charging a hundred times the amount.
 */
const UNSUPPORTED_CURRENCIES = new Set(['ISK', 'HUF', 'TWD', 'UGX']);
/** Stripe's largest amount for a charge (eight digits). */
const MAX_AMOUNT = 99_999_999n;

/** A stored card: the Stripe Customer and the PaymentMethod attached to it. */
export function storedCredential(customer: string, paymentMethod: string): string {
  return `${customer}|${paymentMethod}`;
}

function parseCredential(credential: string): { customer: string; payment_method: string } | undefined {
  const [customer, paymentMethod, ...rest] = credential.split('|');
  if (rest.length || !customer?.startsWith('cus_') || !paymentMethod?.startsWith('pm_')) return undefined;
  return { customer, payment_method: paymentMethod };
}

export class StripeConnector implements PaymentConnector {
  readonly name = 'stripe';
  readonly authenticationOrigins = STRIPE_AUTHENTICATION_ORIGINS;

  constructor(private readonly stripe: Stripe) {}

  async charge(
    request: ChargeRequest & { card: CardDetails; store_credential: boolean; return_url?: string },
  ): Promise<(ConnectorOutcome & { credential?: string }) | RequiresAction> {
    const refused = this.refuseAmount(request);
    if (refused) return refused;
    const key = request.idempotency_key;
    return this.calling(key, async () => {
      const paymentMethod = await this.createPaymentMethod(request.card, key);
      // A card kept for a mandate's later cycles needs a Customer to attach it to.
      const customer = request.store_credential
        ? (
            await this.stripe.customers.create(
              { metadata: { paygrid_intent: key } },
              { idempotencyKey: `${key}-cus` },
            )
          ).id
        : undefined;
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: Number(request.amount),
          currency: request.currency.toLowerCase(),
          payment_method: paymentMethod.id,
          payment_method_types: ['card'],
          confirm: true,
          metadata: { paygrid_intent: key },
          // Where Stripe sends the payer back after 3-D Secure; without it a requires_action
          // answer is failed (authentication_required): nobody could complete it.
          ...(request.return_url ? { return_url: request.return_url } : {}),
          ...(customer ? { customer, setup_future_usage: 'off_session' as const } : {}),
        },
        { idempotencyKey: key },
      );
      const outcome = request.return_url ? outcomeOfOnSessionIntent(intent) : outcomeOfPaymentIntent(intent);
      if (outcome.status !== 'succeeded' || !customer) return outcome;
      return { ...outcome, credential: storedCredential(customer, paymentMethod.id) };
    });
  }

  /** The card entered on our page as a Stripe PaymentMethod (keyed, so a retry makes no second one). */
  private createPaymentMethod(card: CardDetails, key: string) {
    return this.stripe.paymentMethods.create(
      {
        type: 'card',
        card: { number: card.number, exp_month: card.exp_month, exp_year: card.exp_year, cvc: card.cvc },
      },
      { idempotencyKey: `${key}-pm` },
    );
  }

  /**
   * The customer portal's card replacement: the card entered on our page becomes a
   * PaymentMethod, confirmed for later off-session charges by a SetupIntent under the mandate's
   * own Stripe Customer (a new one when the credential is not a Stripe card), so the credential
   * keeps its `cus_…|pm_…` form and chargeStored needs nothing new. The SetupIntent attaches
   * the card to the Customer only once it succeeds: attaching first would leave a declined or
   * unauthenticated card on the Customer. Keys: `<key>-pm`, `<key>-cus`, and the key itself
   * for the SetupIntent, so a repeated post is Stripe's first answer again.
   */
  async saveCard(request: SaveCardRequest): Promise<SaveCardOutcome | SaveCardRequiresAction> {
    const key = request.idempotency_key;
    try {
      const paymentMethod = await this.createPaymentMethod(request.card, key);
      const customer =
        (request.credential ? parseCredential(request.credential)?.customer : undefined) ??
        (
          await this.stripe.customers.create(
            { metadata: { paygrid_card_update: key } },
            { idempotencyKey: `${key}-cus` },
          )
        ).id;
      const intent = await this.stripe.setupIntents.create(
        {
          customer,
          payment_method: paymentMethod.id,
          payment_method_types: ['card'],
          usage: 'off_session',
          confirm: true,
          metadata: { paygrid_card_update: key },
          // Where Stripe sends the payer back after 3-D Secure; without it a requires_action
          // answer is failed (authentication_required): nobody could complete it.
          ...(request.return_url ? { return_url: request.return_url } : {}),
        },
        { idempotencyKey: key },
      );
      return outcomeOfSetupIntent(intent, storedCredential(customer, paymentMethod.id), !!request.return_url);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      return saveCardOutcomeOfError(error as StripeErrorLike, key);
    }
  }

  /**
   * The SetupIntent of a card saved with requires_action, once the payer is back: its outcome
   * (the credential read from the SetupIntent itself), or still waiting. No answer, or a
   * refused retrieve, throws: nothing is decided, the payer may come back again.
   */
  async lookupSavedCard(request: {
    processor_reference: string;
    idempotency_key: string;
    livemode: boolean;
  }): Promise<SaveCardOutcome | { status: 'requires_action'; processor_reference: string }> {
    let intent: Stripe.SetupIntent;
    try {
      intent = await this.stripe.setupIntents.retrieve(request.processor_reference);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      throw new ProcessorOutcomeUnknown(`setup intent lookup refused (${error.code ?? error.type})`);
    }
    // The id comes back in the payer's URL: only a SetupIntent this save created counts (else
    // another customer's card of the same Stripe account could be put on this mandate).
    if (intent.metadata?.paygrid_card_update !== request.idempotency_key) {
      return {
        status: 'failed',
        code: 'processing_error',
        message: 'The processor did not name the saved card.',
        processor_reference: intent.id,
      };
    }
    if (intent.status === 'requires_action')
      return { status: 'requires_action', processor_reference: intent.id };
    const customer = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
    const paymentMethod =
      typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
    const outcome = outcomeOfSetupIntent(intent, storedCredential(customer ?? '', paymentMethod ?? ''));
    if (outcome.status === 'succeeded' && !parseCredential(outcome.credential)) {
      return {
        status: 'failed',
        code: 'processing_error',
        message: 'The processor did not name the saved card.',
        processor_reference: intent.id,
      };
    }
    return outcome as SaveCardOutcome;
  }

  async chargeStored(
    request: ChargeRequest & { credential: string; attempt: number },
  ): Promise<ConnectorOutcome> {
    const refused = this.refuseAmount(request);
    if (refused) return refused;
    const stored = parseCredential(request.credential);
    if (!stored) {
      return {
        status: 'failed',
        code: 'processing_error',
        message: 'The stored card is not a Stripe card of this connection.',
        processor_reference: request.idempotency_key,
      };
    }
    // Off-session: the customer is not there to authenticate; an issuer asking for it fails
    // the attempt with authentication_required (the billing engine's dunning takes over).
    return this.calling(request.idempotency_key, async () =>
      outcomeOfPaymentIntent(
        await this.stripe.paymentIntents.create(
          {
            amount: Number(request.amount),
            currency: request.currency.toLowerCase(),
            customer: stored.customer,
            payment_method: stored.payment_method,
            payment_method_types: ['card'],
            off_session: true,
            confirm: true,
            metadata: { paygrid_intent: request.idempotency_key },
          },
          { idempotencyKey: request.idempotency_key },
        ),
      ),
    );
  }

  async refund(request: ChargeRequest & { processor_reference: string }): Promise<RefundOutcome> {
    return this.calling(request.idempotency_key, async () =>
      outcomeOfRefund(
        await this.stripe.refunds.create(
          {
            payment_intent: request.processor_reference,
            amount: Number(request.amount),
            metadata: { paygrid_refund: request.idempotency_key },
          },
          { idempotencyKey: request.idempotency_key },
        ),
      ),
    );
  }

  /**
   * A refund by its Stripe id when Stripe answered one, else among the PaymentIntent's refunds
   * by the `paygrid_refund` metadata it was created with (Stripe has no search for refunds;
   * one payment has few): `not_found` means Stripe never made it, so asking again is safe even
   * after Stripe forgot the Idempotency-Key (24 hours).
   */
  async lookupRefund(request: RefundLookupRequest): Promise<RefundOutcome | { status: 'not_found' }> {
    try {
      if (request.refund_reference?.startsWith('re_')) {
        return outcomeOfRefund(await this.stripe.refunds.retrieve(request.refund_reference));
      }
      for await (const refund of this.stripe.refunds.list({
        payment_intent: request.payment_reference,
        limit: 100,
      })) {
        if (refund.metadata?.paygrid_refund === request.idempotency_key) return outcomeOfRefund(refund);
      }
      return { status: 'not_found' };
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      throw new ProcessorOutcomeUnknown(`refund lookup refused (${error.code ?? error.type})`);
    }
  }

  async lookup(request: LookupRequest): Promise<LookupOutcome> {
    try {
      if (request.processor_reference?.startsWith('pi_')) {
        return lookupOfPaymentIntent(await this.stripe.paymentIntents.retrieve(request.processor_reference));
      }
      // Our intent id is not Stripe's: the PaymentIntent is found by the metadata it was
      // created with. Search is eventually consistent (Stripe: usually under a minute), so
      // `not_found` is only believed for an intent old enough (transactions.service.ts).
      const found = await this.stripe.paymentIntents.search({
        query: `metadata['paygrid_intent']:'${request.idempotency_key.replace(/[^A-Za-z0-9_]/g, '')}'`,
        limit: 10,
      });
      if (found.data.length === 0) return { status: 'not_found' };
      // One Idempotency-Key makes one PaymentIntent; should several carry the key, a
      // succeeded one wins: reporting it failed would be the wrong that matters.
      const intent = found.data.find((i) => i.status === 'succeeded') ?? found.data[0];
      return lookupOfPaymentIntent(intent);
    } catch (error) {
      if (error instanceof ProcessorOutcomeUnknown || !(error instanceof Stripe.errors.StripeError))
        throw error;
      // A refused lookup (4xx) is no answer either: the intent stays as it is.
      throw new ProcessorOutcomeUnknown(`lookup refused (${error.code ?? error.type})`);
    }
  }

  /**
   * Cancels a PaymentIntent whose payer never completed 3-D Secure (`cancellation_reason:
   * abandoned`, key `<intent>-cancel`: a retry after a crash gets Stripe's first answer again).
   * A PaymentIntent that left requires_action meanwhile cannot be canceled (Stripe answers
   * 400 payment_intent_unexpected_state): then its own outcome is what counts, read back.
   */
  async cancelAuthentication(
    request: LookupRequest & { processor_reference: string },
  ): Promise<LookupOutcome> {
    try {
      return lookupOfPaymentIntent(
        await this.stripe.paymentIntents.cancel(
          request.processor_reference,
          { cancellation_reason: 'abandoned' },
          { idempotencyKey: `${request.idempotency_key}-cancel` },
        ),
      );
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      if (error.code === 'payment_intent_unexpected_state') return this.lookup(request);
      // No answer, or a refused call: nothing was canceled; asked again on the next run.
      throw new ProcessorOutcomeUnknown(`cancel refused (${error.code ?? error.type})`);
    }
  }

  private refuseAmount(request: ChargeRequest): ConnectorOutcome | undefined {
    const currency = request.currency.toUpperCase();
    if (!UNSUPPORTED_CURRENCIES.has(currency) && request.amount > 0n && request.amount <= MAX_AMOUNT)
      return undefined;
    return {
      status: 'failed',
      code: 'processing_error',
      message: UNSUPPORTED_CURRENCIES.has(currency)
        ? `${currency} is not supported by the Stripe connector yet; nothing was charged.`
        : 'The amount is outside what Stripe accepts for one charge; nothing was charged.',
      processor_reference: request.idempotency_key,
    };
  }

  /** Runs Stripe calls; a thrown StripeError becomes an outcome (or stays unknown: rethrown). */
  private async calling<T extends RefundOutcome | RequiresAction>(
    key: string,
    call: () => Promise<T>,
  ): Promise<T | ConnectorOutcome> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      return outcomeOfError(error as StripeErrorLike, key);
    }
  }
}
