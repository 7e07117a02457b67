// The contract every payment processor implements. Calls are made outside any database
// transaction (the intent is written first, the outcome recorded after), and every call
// carries an idempotency key so a call retried after a crash is not performed twice.

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
 * customer authentication (3-D Secure), which the platform cannot complete yet, so the payment
 * is reported failed, never succeeded.
 */
export type DeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'authentication_required'
  | 'processing_error';

export type ConnectorOutcome =
  | { status: 'succeeded'; processor_reference: string }
  | { status: 'failed'; code: DeclineCode; message: string; processor_reference: string };

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
  charge(
    request: ChargeRequest & { card: CardDetails; store_credential: boolean },
  ): Promise<ConnectorOutcome & { credential?: string }>;
  /** Charges a stored credential (a mandate's later cycles). */
  chargeStored(request: ChargeRequest & { credential: string; attempt: number }): Promise<ConnectorOutcome>;
  refund(request: ChargeRequest & { processor_reference: string }): Promise<ConnectorOutcome>;
}
