// How Stripe's answers become our outcomes (pure; stripe-outcomes.spec.ts covers each case).
// The rule that matters most: only a PaymentIntent whose status is `succeeded` is a success.
// `requires_action` (3-D Secure) sends the payer to Stripe's page when the charge has a return
// URL (the hosted forms), and is failed with `authentication_required` when it has none (an
// off-session charge: nobody is there to authenticate); an answer whose outcome is unknown (network error, 5xx, `processing`)
// is neither: it is thrown, so the intent stays pending and is resolved later with the same
// idempotency key, which makes Stripe answer the first outcome again instead of charging twice.

import { ApiError } from '@paygrid/platform';
import {
  ABANDONED_MESSAGE,
  type ConnectorOutcome,
  type DeclineCode,
  type LookupOutcome,
  type RefundOutcome,
  type RequiresAction,
  type SaveCardOutcome,
  type SaveCardRequiresAction,
} from '../connector';

/** The parts of a Stripe PaymentIntent the outcome depends on. */
export interface PaymentIntentLike {
  id: string;
  status: string;
  last_payment_error?: { code?: string | null; decline_code?: string | null } | null;
  next_action?: { redirect_to_url?: { url?: string | null } | null } | null;
  customer?: string | { id: string } | null;
  payment_method?: string | { id: string } | null;
  setup_future_usage?: string | null;
  cancellation_reason?: string | null;
}

/** The parts of a Stripe error the outcome depends on (StripeError's own fields). */
export interface StripeErrorLike {
  type?: string;
  statusCode?: number;
  code?: string;
  decline_code?: string;
  requestId?: string;
  payment_intent?: { id: string };
}

export const DECLINE_MESSAGES: Record<DeclineCode, string> = {
  card_declined: 'The card was declined.',
  insufficient_funds: 'The card has insufficient funds.',
  expired_card: 'The card has expired.',
  incorrect_cvc: "The card's security code is incorrect.",
  authentication_required:
    'The card issuer asked for authentication (3-D Secure), which was not completed; nothing was charged.',
  processing_error: 'An error occurred while processing the card; try again.',
};

/** Raised when Stripe's answer leaves the outcome unknown; the intent must stay pending. */
export class ProcessorOutcomeUnknown extends ApiError {
  constructor(readonly reason: string) {
    super(
      'upstream_unavailable',
      'The payment processor did not give an answer; the payment stays pending until it does. Do not pay again.',
    );
  }
}

const failed = (code: DeclineCode, reference: string): ConnectorOutcome => ({
  status: 'failed',
  code,
  message: DECLINE_MESSAGES[code],
  processor_reference: reference,
});

/** Stripe's error and decline codes -> ours; anything else a card error says is a decline. */
export function declineCodeOf(code?: string | null, declineCode?: string | null): DeclineCode {
  const codes = [declineCode, code];
  if (codes.includes('insufficient_funds')) return 'insufficient_funds';
  if (codes.includes('expired_card')) return 'expired_card';
  if (codes.includes('incorrect_cvc') || codes.includes('invalid_cvc')) return 'incorrect_cvc';
  // Stripe's code for a 3-D Secure challenge the payer failed or abandoned.
  if (codes.includes('authentication_required') || codes.includes('payment_intent_authentication_failure'))
    return 'authentication_required';
  if (codes.includes('processing_error')) return 'processing_error';
  return 'card_declined';
}

/** A confirmed PaymentIntent's outcome. */
export function outcomeOfPaymentIntent(intent: PaymentIntentLike): ConnectorOutcome {
  switch (intent.status) {
    case 'succeeded':
      return { status: 'succeeded', processor_reference: intent.id };
    case 'requires_action':
      return failed('authentication_required', intent.id);
    case 'requires_payment_method': {
      const error = intent.last_payment_error;
      return failed(declineCodeOf(error?.code, error?.decline_code), intent.id);
    }
    case 'processing':
      // Stripe has the payment and has not decided yet: neither success nor failure.
      throw new ProcessorOutcomeUnknown('payment intent processing');
    case 'canceled':
      // Ours, after the payer abandoned 3-D Secure (StripeConnector.cancelAuthentication).
      if (intent.cancellation_reason === 'abandoned') {
        return {
          status: 'failed',
          code: 'authentication_required',
          message: ABANDONED_MESSAGE,
          processor_reference: intent.id,
        };
      }
      return failed('processing_error', intent.id);
    default:
      // requires_confirmation, requires_capture: nothing captured by this call.
      return failed('processing_error', intent.id);
  }
}

/**
 * A confirmed PaymentIntent's outcome for a charge that can send the payer to authenticate:
 * `requires_action` with a redirect becomes RequiresAction, everything else as above.
 */
export function outcomeOfOnSessionIntent(intent: PaymentIntentLike): ConnectorOutcome | RequiresAction {
  const url = intent.next_action?.redirect_to_url?.url;
  if (intent.status === 'requires_action' && url) {
    return { status: 'requires_action', redirect_url: url, processor_reference: intent.id };
  }
  return outcomeOfPaymentIntent(intent);
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : value?.id;

/**
 * What a PaymentIntent found later (recovery, the payer's return) says: still waiting for the
 * payer, or its outcome, with the stored card of a charge that kept it (the mandate's).
 */
export function lookupOfPaymentIntent(intent: PaymentIntentLike): LookupOutcome {
  if (intent.status === 'requires_action')
    return { status: 'requires_action', processor_reference: intent.id };
  const outcome = outcomeOfPaymentIntent(intent);
  const customer = idOf(intent.customer);
  const paymentMethod = idOf(intent.payment_method);
  if (outcome.status !== 'succeeded' || !customer || !paymentMethod || !intent.setup_future_usage)
    return outcome;
  return { ...outcome, credential: `${customer}|${paymentMethod}` };
}

/** The parts of a Stripe SetupIntent the outcome depends on. */
export interface SetupIntentLike {
  id: string;
  status: string;
  last_setup_error?: { code?: string | null; decline_code?: string | null } | null;
  next_action?: { redirect_to_url?: { url?: string | null } | null } | null;
}

/** Why a card asking for 3-D Secure could not be saved (no redirect offered, or not completed). */
export const SAVE_CARD_AUTHENTICATION_MESSAGE =
  'The card issuer asked for authentication (3-D Secure), which was not completed; the card was not saved. Try again or use another card.';

/**
 * A confirmed SetupIntent's outcome (the customer portal's card replacement): only
 * `succeeded` stores the card. `requires_action` (3-D Secure) with a redirect sends the payer
 * to authenticate when the call had a return URL (`onSession`); otherwise it is failed with
 * authentication_required. Nothing is charged in any case, so `processing` or any other
 * status is a processing_error the payer may retry, not an unknown outcome.
 */
export function outcomeOfSetupIntent(
  intent: SetupIntentLike,
  credential: string,
  onSession = false,
): SaveCardOutcome | SaveCardRequiresAction {
  const url = intent.next_action?.redirect_to_url?.url;
  if (onSession && intent.status === 'requires_action' && url) {
    return { status: 'requires_action', redirect_url: url, processor_reference: intent.id, credential };
  }
  switch (intent.status) {
    case 'succeeded':
      return { status: 'succeeded', credential, processor_reference: intent.id };
    case 'requires_action':
      return {
        status: 'failed',
        code: 'authentication_required',
        message: SAVE_CARD_AUTHENTICATION_MESSAGE,
        processor_reference: intent.id,
      };
    case 'requires_payment_method': {
      const error = intent.last_setup_error;
      const code = declineCodeOf(error?.code, error?.decline_code);
      return { status: 'failed', code, message: DECLINE_MESSAGES[code], processor_reference: intent.id };
    }
    default:
      return {
        status: 'failed',
        code: 'processing_error',
        message: DECLINE_MESSAGES.processing_error,
        processor_reference: intent.id,
      };
  }
}

/**
 * A refund's outcome. `pending` (and `requires_action`, which Stripe uses for refunds that
 * need the customer's details) is Stripe accepting the refund without deciding yet: it stays
 * pending with its reference kept, and its refund.updated / refund.failed webhook or a lookup
 * settles it. `failed` and `canceled` gave nothing back.
 */
export function outcomeOfRefund(refund: {
  id: string;
  status: string | null;
  failure_reason?: string | null;
}): RefundOutcome {
  if (refund.status === 'succeeded') return { status: 'succeeded', processor_reference: refund.id };
  if (refund.status === 'pending' || refund.status === 'requires_action')
    return { status: 'pending', processor_reference: refund.id };
  return {
    status: 'failed',
    code: 'processing_error',
    message: `The processor did not refund the payment (${refund.failure_reason ?? refund.status ?? 'no status'}).`,
    processor_reference: refund.id,
  };
}

/**
 * A thrown Stripe error -> a failed outcome, or ProcessorOutcomeUnknown. A 402 card error is a
 * decline. Network errors and 5xx answers (after the SDK's retries with the same key) leave
 * the outcome unknown. Any other 4xx (a refused key, an invalid request, a rate limit) means
 * Stripe did not act on the request: failed, processing_error, not retried.
 */
export function outcomeOfError(error: StripeErrorLike, fallbackReference: string): ConnectorOutcome {
  const reference = error.payment_intent?.id ?? error.requestId ?? fallbackReference;
  if (error.type === 'StripeCardError')
    return failed(declineCodeOf(error.code, error.decline_code), reference);
  if (error.type === 'StripeConnectionError' || error.statusCode === undefined || error.statusCode >= 500) {
    throw new ProcessorOutcomeUnknown(error.type ?? 'no answer');
  }
  return {
    status: 'failed',
    code: 'processing_error',
    message: `The processor refused the request (${error.code ?? error.type ?? error.statusCode}).`,
    processor_reference: reference,
  };
}

/** Why a card was not saved when Stripe gave no answer. */
export const SAVE_CARD_NO_ANSWER_MESSAGE =
  'The payment processor did not answer; the card was not saved. Try again.';

/**
 * A thrown Stripe error while saving a card: a decline or refusal as for a charge; no answer
 * (which leaves a charge pending) is here a processing_error the payer may retry, since
 * nothing is charged and at worst an unused card stays with Stripe.
 */
export function saveCardOutcomeOfError(error: StripeErrorLike, fallbackReference: string): SaveCardOutcome {
  try {
    const outcome = outcomeOfError(error, fallbackReference);
    if (outcome.status === 'failed') return outcome;
  } catch (unknown) {
    if (!(unknown instanceof ProcessorOutcomeUnknown)) throw unknown;
  }
  return {
    status: 'failed',
    code: 'processing_error',
    message: SAVE_CARD_NO_ANSWER_MESSAGE,
    processor_reference: error.requestId ?? fallbackReference,
  };
}
