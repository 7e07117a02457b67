// Stripe's webhooks in (POST /hooks/stripe/<connection id>): the signature checked by the SDK's
// own `constructEvent` over the raw bytes (HMAC-SHA256 of `t.body` with the connection's
// `whsec_` secret, 5 minutes of tolerance against replays), then the event mapped onto what the
// platform acts on (pure; stripe-webhooks.spec.ts). Which of our rows an event concerns comes
// from the metadata the connector put on the object (`paygrid_intent`, `paygrid_refund`), or,
// for a dispute, from the PaymentIntent id we recorded as the payment's processor reference.

import Stripe from 'stripe';
import type { ProcessorDispute } from '../connector';
import { WebhookSignatureError, type ProcessorCredentials, type ProcessorEvent } from '../processor';
import { declineCodeOf, DECLINE_MESSAGES, lookupOfPaymentIntent } from './stripe-outcomes';

/** Stripe's own default; an older signature is a replay (or a clock far off). */
export const STRIPE_WEBHOOK_TOLERANCE_S = 300;

// constructEvent needs no API key; a client without one is enough to reach `webhooks`.
const webhooks = new Stripe('sk_test_webhooks_only', { telemetry: false }).webhooks;

export function parseStripeWebhook(
  rawBody: Buffer,
  headers: Readonly<Record<string, string | undefined>>,
  credentials: ProcessorCredentials,
  now: Date,
): ProcessorEvent {
  const signature = headers['stripe-signature'];
  if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing.');
  let event: Stripe.Event;
  try {
    event = webhooks.constructEvent(
      rawBody,
      signature,
      credentials.webhook_signing_secret,
      STRIPE_WEBHOOK_TOLERANCE_S,
      undefined,
      now.getTime(),
    );
  } catch (error) {
    // The SDK's message names the problem (no signature matched, timestamp outside the
    // tolerance); it never contains the secret.
    throw new WebhookSignatureError(error instanceof Error ? error.message : 'invalid signature');
  }
  return mapStripeEvent(event);
}

const metadataOf = (object: { metadata?: Stripe.Metadata | null }, key: string): string | undefined =>
  object.metadata?.[key] ?? undefined;

/** Our terms for one verified Stripe event. */
export function mapStripeEvent(event: Stripe.Event): ProcessorEvent {
  const base = { id: event.id, type: event.type, created: new Date(event.created * 1000) };
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      const ours = metadataOf(intent, 'paygrid_intent');
      if (!ours) return { ...base, kind: 'other' };
      if (event.type === 'payment_intent.succeeded') {
        // A PaymentIntent set up for future use names the Customer and card it kept.
        const found = lookupOfPaymentIntent(intent);
        const credential = 'credential' in found ? found.credential : undefined;
        return {
          ...base,
          kind: 'payment',
          intent: ours,
          outcome: 'succeeded',
          processor_reference: intent.id,
          ...(credential ? { credential } : {}),
        };
      }
      const code = declineCodeOf(intent.last_payment_error?.code, intent.last_payment_error?.decline_code);
      return {
        ...base,
        kind: 'payment',
        intent: ours,
        outcome: 'failed',
        processor_reference: intent.id,
        failure: { code, message: DECLINE_MESSAGES[code] },
      };
    }
    // payment_intent.requires_action: the payer is being asked to authenticate (3-D Secure);
    // the intent stays pending until its succeeded or failed event (or our own answer), so
    // the event is stored and changes nothing.
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed': {
      const refund = event.data.object;
      const ours = metadataOf(refund, 'paygrid_refund');
      // pending / requires_action: Stripe has not decided; a later event will say.
      const outcome =
        refund.status === 'succeeded'
          ? 'succeeded'
          : refund.status === 'failed' || refund.status === 'canceled'
            ? 'failed'
            : undefined;
      if (!ours || !outcome) return { ...base, kind: 'other' };
      return {
        ...base,
        kind: 'refund',
        refund: ours,
        outcome,
        processor_reference: refund.id,
        ...(outcome === 'failed'
          ? { message: `The processor did not make the refund (${refund.failure_reason ?? refund.status}).` }
          : {}),
      };
    }
    // charge.refunded carries the charge; since API version 2022-11-15 its `refunds` list is
    // not included, so the refund itself comes from its refund.* events above.
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.funds_reinstated': {
      const dispute = disputeOf(event.data.object);
      return dispute ? { ...base, kind: 'dispute', dispute } : { ...base, kind: 'other' };
    }
    default:
      return { ...base, kind: 'other' };
  }
}

const STATUSES: Partial<Record<Stripe.Dispute.Status, ProcessorDispute['status']>> = {
  needs_response: 'needs_response',
  under_review: 'under_review',
  won: 'won',
  lost: 'lost',
};

/**
 * A chargeback in our terms, or undefined for what moves no money: an inquiry (`warning_*`
 * statuses: the card network asks, nothing is withdrawn) or a dispute of a charge that no
 * PaymentIntent of ours made.
 */
export function disputeOf(dispute: Stripe.Dispute): ProcessorDispute | undefined {
  const status = STATUSES[dispute.status];
  const paymentIntent =
    typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
  if (!status || !paymentIntent || dispute.amount <= 0) return undefined;
  // The fee is what the processor reports on the dispute's balance transactions: a positive fee
  // when the funds were withdrawn, a negative one if it gave the fee back.
  let fee = 0n;
  let feeReturned = 0n;
  for (const bt of dispute.balance_transactions ?? []) {
    if (bt.fee > 0) fee += BigInt(bt.fee);
    else if (bt.fee < 0) feeReturned += BigInt(-bt.fee);
  }
  return {
    reference: dispute.id,
    payment_reference: paymentIntent,
    amount: BigInt(dispute.amount),
    currency: dispute.currency.toUpperCase(),
    fee,
    fee_returned: feeReturned > fee ? fee : feeReturned,
    reason: dispute.reason,
    status,
    evidence_due_by: dispute.evidence_details?.due_by
      ? new Date(dispute.evidence_details.due_by * 1000)
      : null,
  };
}
