// Internal commands on `payments.commands.v1` (CommandEnvelope<...>, key = account id) and the
// signed token the invoicing service hands to the payments service for hosted-invoice card
// payments. Not public API: never delivered to webhooks, never in the OpenAPI document.
//
// The invoicing service asks the payments service to charge a customer's mandate for an
// invoice ("charge mandate X for invoice Y"). The payments service answers with the public
// events it emits anyway: `payment.succeeded` or `payment.failed`, whose transaction object
// carries `invoice`, `customer`, `mandate` and the command's `reference`.

/** Command types on TOPICS.paymentsCommands. */
export const PAYMENTS_COMMAND_TYPES = ['payment.charge_mandate'] as const;
export type PaymentsCommandType = (typeof PAYMENTS_COMMAND_TYPES)[number];

/**
 * `payment.charge_mandate`: charge `amount` `currency` to `mandate` (which must belong to the
 * command's account and mode and be `active`).
 *
 * Exactly-once: `reference` is unique per account and mode; a second command with the same
 * reference (a redelivery, or a retry by the sender) charges nothing and re-emits nothing new.
 * Invoicing uses `${invoice}:${attempt}` (attempt = 1, 2, ... per collection attempt), so a
 * dunning retry is a new reference and a redelivered command is not.
 *
 * Outcome: one `payment` transaction (with `invoice`, `customer`, `mandate`, `reference` set)
 * and the event `payment.succeeded` or `payment.failed` (consumer group `payments.commands`).
 * A command that cannot be charged at all (unknown, other account's or mode's, canceled or
 * failed mandate, currency mismatch) also ends as `payment.failed` on a failed transaction
 * with `failure_code` `mandate_invalid`, so the sender always gets an answer. A malformed
 * command (not an integer amount, a field missing) is logged and dropped.
 */
export interface ChargeMandateCommand {
  mandate: string;
  /** Minor units, as a JSON number (<= 99,999,999,999 fits a double exactly). */
  amount: number;
  currency: string;
  invoice: string;
  customer: string | null;
  reference: string;
  description?: string;
}

export interface PaymentsCommandData {
  'payment.charge_mandate': ChargeMandateCommand;
}

/**
 * The hosted invoice page (invoicing, under `/i/...`) links its "Pay" button to the payments
 * service's card form page at `/pay/invoices/<token>` (GET renders the form in payments, POST
 * charges), so card data never reaches invoicing or Kafka. `token` is
 * `sealToken(INTERNAL_SIGNING_SECRET, INVOICE_PAYMENT_TOKEN_PURPOSE, payload, expiresAt)`
 * (libs/platform signed-token.ts). The payments service charges the card
 * (write intent -> connector -> record outcome, as a checkout does), records a `payment`
 * transaction with `invoice` and `customer`, emits `payment.succeeded|failed` (the invoicing
 * service settles the invoice from that event) and, when the payer ticked "save card" and the
 * charge succeeded, creates a mandate for the customer (`mandate.created`, with `customer`).
 * It then redirects (303) to `return_url` with `?payment=<txn id>` appended; a decline
 * re-renders the form (402). Each rendered form is single-use (a double click pays once) and
 * an invoice token pays at most once: after a success its page redirects to `return_url`.
 */
export const INVOICE_PAYMENT_TOKEN_PURPOSE = 'paygrid.invoice-payment.v1';

export interface InvoicePaymentTokenPayload {
  account: string;
  livemode: boolean;
  invoice: string;
  customer: string;
  /** amount_due at render time, minor units. */
  amount: number;
  currency: string;
  /** Shown on the card form: "Invoice INV-0007 from Acme". */
  description: string;
  /** Seller name shown on the form. */
  merchant_name: string;
  /** Absolute URL of the hosted invoice page to return to. */
  return_url: string;
  /** Offer "save this card for future invoices" (charge_automatically customers). */
  offer_save_card: boolean;
}

/**
 * The customer portal (invoicing, `/portal/...`) hands a saved card to the payments service,
 * which owns mandates and card data (docs/adr/0013): its "Replace card" and "Remove card"
 * buttons link to `/pay/cards/<token>`, `token` being
 * `sealToken(INTERNAL_SIGNING_SECRET, CARD_UPDATE_TOKEN_PURPOSE, payload, expiresAt)`. The
 * payments page checks that the mandate is the customer's, asks for the new card (or a
 * confirmation), stores it with the processor without charging it and puts it on the mandate
 * (`mandate.updated`), or cancels the mandate (`mandate.canceled`); then 303 to `return_url`
 * with `?card=replaced|removed`. Invoicing learns the change from those events.
 */
export const CARD_UPDATE_TOKEN_PURPOSE = 'paygrid.card-update.v1';

export interface CardUpdateTokenPayload {
  account: string;
  livemode: boolean;
  customer: string;
  mandate: string;
  action: 'replace' | 'remove';
  /** Seller name shown on the form. */
  merchant_name: string;
  /** The card as the portal showed it: "Visa ending in 4242". */
  card_label: string;
  /** The portal page to return to (absolute). */
  return_url: string;
  /** The customer's language (libs/platform i18n): the form's words. */
  locale: string;
}
