// The contract every payment processor implements. Calls are made outside any database
// transaction (the intent is written first, the outcome recorded after), and every call
// carries an idempotency key so a call retried after a crash is not performed twice.

/** A dispute as the processor reports it, in our terms. */
export interface ProcessorDispute {
  /** The processor's dispute id (Stripe: `du_…`/`dp_…`). */
  reference: string;
  /** The disputed payment: the processor reference we recorded on it (Stripe: `pi_…`). */
  payment_reference: string;
  amount: bigint;
  currency: string;
  /** What the processor charged for the dispute (0 when it reports none). */
  fee: bigint;
  /** What of that fee it gave back (a won dispute, on some processors). */
  fee_returned: bigint;
  reason: string;
  status: 'needs_response' | 'under_review' | 'won' | 'lost';
  evidence_due_by: Date | null;
}

export interface CardDetails {
  /** Digits only; only ever held in memory for the duration of the call. */
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

/** What may be stored about a card: never the full number or the CVC. */
export interface PaymentMethodSummary {
  brand: CardBrand;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';

/**
 * Why a processor did not take a payment. `authentication_required`: the processor asked for
 * customer authentication (3-D Secure) where the payer cannot give it (an off-session charge,
 * a charge without a return URL), or the payer failed or abandoned it: never succeeded.
 */
export type DeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'authentication_required'
  | 'processing_error';

/** Why a payment was canceled when its payer did not complete 3-D Secure in time. */
export const ABANDONED_MESSAGE =
  'The payer did not complete authentication (3-D Secure) in time; the payment was canceled and nothing was charged.';

export type ConnectorOutcome =
  | {
      status: 'succeeded';
      processor_reference: string;
      /**
       * A dispute the processor reports of this charge at once (the sandbox's 4000 0000 0000
       * 0259): opened through the same path as a processor webhook's, with the payment.
       */
      dispute?: ProcessorDispute;
    }
  | { status: 'failed'; code: DeclineCode; message: string; processor_reference: string };

/**
 * The processor asks the payer to authenticate (3-D Secure) before it decides: send the payer
 * to `redirect_url`; they come back to the charge's `return_url`, and `lookup` then answers.
 */
export interface RequiresAction {
  status: 'requires_action';
  redirect_url: string;
  processor_reference: string;
}

/**
 * What a processor answers for a refund: its outcome, or `pending` when it accepted the refund
 * and decides later (Stripe's `pending`, e.g. while the merchant's balance does not cover it):
 * the refund stays pending, with the processor's reference kept, until a webhook or `lookupRefund`
 * gives the outcome. Never reported as succeeded before the processor says so.
 */
export type RefundOutcome = ConnectorOutcome | { status: 'pending'; processor_reference: string };

/** What to look a refund up by: the processor's own id once it accepted it, else our key. */
export interface RefundLookupRequest {
  /** Our refund id, the key the refund was requested with (and tagged with, where possible). */
  idempotency_key: string;
  /** The processor's id of the refund, once it answered one (an accepted, pending refund). */
  refund_reference: string | null;
  /** The processor's id of the refunded charge. */
  payment_reference: string;
  card_last4?: string;
  livemode: boolean;
}

/** What `lookup` finds for an intent: its outcome, still waiting for the payer, or nothing. */
export type LookupOutcome =
  | (ConnectorOutcome & { credential?: string })
  | { status: 'requires_action'; processor_reference: string }
  | { status: 'not_found' };

export interface ChargeRequest {
  /** Stable across retries of the same charge; the processor dedupes on it. */
  idempotency_key: string;
  amount: bigint;
  currency: string;
  livemode: boolean;
}

export interface PaymentConnector {
  readonly name: string;
  /** Authorizes and captures a card, optionally storing it for later mandate charges. */
  /**
   * With `return_url`, a processor asking for authentication answers `requires_action` (the
   * payer is redirected); without it, the charge fails with `authentication_required`.
   */
  charge(
    request: ChargeRequest & { card: CardDetails; store_credential: boolean; return_url?: string },
  ): Promise<(ConnectorOutcome & { credential?: string }) | RequiresAction>;
  /**
   * Stores a card for later charges without charging it (a mandate's card replaced in the
   * customer portal). Optional: a processor without it cannot replace cards (the page says so).
   */
  saveCard?(request: SaveCardRequest): Promise<SaveCardOutcome | SaveCardRequiresAction>;
  /**
   * The processor's record of a card saved with `requires_action` (`processor_reference`, as
   * the processor names it on the payer's return), once the payer is back from authenticating: its outcome, or still waiting. Throws when the
   * processor cannot be asked. Required of a connector whose saveCard can answer
   * requires_action.
   */
  lookupSavedCard?(request: {
    processor_reference: string;
    /** The save's key: a record that does not carry it is not this save's (failed). */
    idempotency_key: string;
    livemode: boolean;
  }): Promise<SaveCardOutcome | { status: 'requires_action'; processor_reference: string }>;
  /** Charges a stored credential (a mandate's later cycles). */
  chargeStored(request: ChargeRequest & { credential: string; attempt: number }): Promise<ConnectorOutcome>;
  /**
   * Refunds (part of) a charge. `card_last4` is the charge's stored summary's, as for `lookup`:
   * for the sandbox, whose refunds of a card that refuses them (4000 0000 0000 5126) fail.
   */
  refund(
    request: ChargeRequest & { processor_reference: string; card_last4?: string },
  ): Promise<RefundOutcome>;
  /**
   * The processor's own record of a refund: its outcome, still `pending`, or `not_found` (the
   * processor never made it: a retry under the same key is safe). What the recovery of a
   * pending refund settles by, instead of asking for the refund again: a processor forgets
   * idempotency keys (Stripe after 24 hours), so a second request could refund twice. Throws
   * when the processor cannot be asked (the refund stays pending). Optional: a connector
   * without it is re-asked with the same key (the sandbox has one: it keeps no state, so it answers as `refund` does).
   */
  lookupRefund?(request: RefundLookupRequest): Promise<RefundOutcome | { status: 'not_found' }>;
  /**
   * The processor's own record of a charge, found by the intent's reference when one was
   * recorded (a requires_action answer) or else by our idempotency key: what recovery and the
   * return from authentication settle by, so neither ever reports a charge the processor made
   * as failed. Throws when the processor cannot be asked (the intent stays as it is).
   * `card_last4` is the stored summary's, for a connector whose answers are a function of the
   * card (the sandbox); a processor that keeps state ignores it.
   */
  lookup(request: LookupRequest): Promise<LookupOutcome>;
  /**
   * Cancels a charge still waiting for the payer's authentication (3-D Secure) when the payer
   * never came back (docs/api.md Part 2, 3-D Secure: abandoned), with an idempotency key
   * derived from the intent's, so a retry after a crash cancels nothing twice. Answers the
   * processor's record afterwards, like `lookup`: `failed` (canceled, nothing charged), the
   * outcome the payment reached meanwhile (the payer authenticated just before: it stands), or
   * still `requires_action` (the cancel did not take; asked again later). Throws when the
   * processor cannot be asked.
   */
  cancelAuthentication(request: LookupRequest & { processor_reference: string }): Promise<LookupOutcome>;
  /** Origins the payer may be redirected to for authentication (the checkout's form-action). */
  readonly authenticationOrigins: readonly string[];
}

export interface SaveCardRequest {
  /** Stable across retries of the same form post; the processor dedupes on it. */
  idempotency_key: string;
  card: CardDetails;
  livemode: boolean;
  /**
   * Where the processor sends the payer back after authenticating (3-D Secure); without it a
   * card asking for authentication is failed with `authentication_required`.
   */
  return_url?: string;
  /**
   * The mandate's current credential, so a processor that keeps cards under a customer of its
   * own (Stripe) stores the new card under the same one. A credential it does not recognise is
   * ignored.
   */
  credential?: string;
}

/**
 * A card stored without a charge, or why not. Nothing is charged either way, so an unknown
 * outcome (no answer) is a `processing_error` the payer may retry, never an exception.
 */
export type SaveCardOutcome =
  | { status: 'succeeded'; credential: string; processor_reference: string }
  | { status: 'failed'; code: DeclineCode; message: string; processor_reference: string };

/**
 * The processor asks the payer to authenticate before it keeps the card: send them to
 * `redirect_url`; `credential` is what the mandate takes once `lookupSavedCard` says succeeded.
 */
export interface SaveCardRequiresAction {
  status: 'requires_action';
  redirect_url: string;
  processor_reference: string;
  credential: string;
}

export interface LookupRequest {
  idempotency_key: string;
  processor_reference: string | null;
  livemode: boolean;
  card_last4?: string;
}
