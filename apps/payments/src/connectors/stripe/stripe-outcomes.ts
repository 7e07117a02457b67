// How Stripe's answers become our outcomes (pure; stripe-outcomes.spec.ts covers each case).
// The rule that matters most: only a PaymentIntent whose status is `succeeded` is a success.
// `requires_action` (3-D Secure) is reported failed with `authentication_required` until the
// redirect flow exists; an answer whose outcome is unknown (network error, 5xx, `processing`)
// is neither: it is thrown, so the intent stays pending and is resolved later with the same
// idempotency key, which makes Stripe answer the first outcome again instead of charging twice.

import { ApiError } from '@paygrid/platform';
import type { ConnectorOutcome, DeclineCode } from '../connector';

/** The parts of a Stripe PaymentIntent the outcome depends on. */
export interface PaymentIntentLike {
  id: string;
  status: string;
  last_payment_error?: { code?: string | null; decline_code?: string | null } | null;
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
    'The card issuer asked for authentication (3-D Secure), which is not supported yet; nothing was charged.',
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
  if (codes.includes('authentication_required')) return 'authentication_required';
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
    default:
      // requires_confirmation, requires_capture, canceled: nothing captured by this call.
      return failed('processing_error', intent.id);
  }
}

/** A refund's outcome: `pending` is Stripe accepting it (cards settle it later). */
export function outcomeOfRefund(refund: { id: string; status: string | null }): ConnectorOutcome {
  if (refund.status === 'succeeded' || refund.status === 'pending') {
    return { status: 'succeeded', processor_reference: refund.id };
  }
  return {
    status: 'failed',
    code: 'processing_error',
    message: `The processor did not refund the payment (${refund.status ?? 'no status'}).`,
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
