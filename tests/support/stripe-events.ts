// Stripe webhook events as a test sends them to POST /hooks/stripe/<connection>: Stripe-shaped
// objects (only the fields our mapping reads, plus their ids), signed with the connection's
// signing secret by the official package's generateTestHeaderString, as Stripe signs them.

import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { ApiResponse, Platform } from './platform';

const webhooks = new Stripe('sk_test_events_only', { telemetry: false }).webhooks;

export const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export interface SignedEvent {
  id: string;
  body: string;
  signature: string;
}

/** A Stripe event around `object`, signed at `at` (default now) with `secret`. */
export function signedEvent(
  secret: string,
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; at?: Date } = {},
): SignedEvent {
  const at = Math.floor((options.at ?? new Date()).getTime() / 1000);
  const id = options.id ?? stripeId('evt');
  const body = JSON.stringify({
    id,
    object: 'event',
    api_version: '2025-09-30.clover',
    created: at,
    livemode: true,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  return { id, body, signature: webhooks.generateTestHeaderString({ payload: body, secret, timestamp: at }) };
}

/** Posts a signed event to the connection's hook, through the gateway. */
export function postEvent(platform: Platform, connection: string, event: SignedEvent): Promise<ApiResponse> {
  return platform.api(undefined, 'POST', `/hooks/stripe/${connection}`, event.body, {
    'stripe-signature': event.signature,
  });
}

export const paymentIntent = (
  id: string,
  intent: string,
  status: string,
  amount: number,
  currency: string,
) => ({
  id,
  object: 'payment_intent',
  amount,
  currency: currency.toLowerCase(),
  status,
  metadata: { paygrid_intent: intent },
  last_payment_error:
    status === 'requires_payment_method'
      ? { code: 'card_declined', decline_code: 'insufficient_funds' }
      : null,
});

export const refund = (id: string, ours: string, status: string, amount: number, currency: string) => ({
  id,
  object: 'refund',
  amount,
  currency: currency.toLowerCase(),
  status,
  failure_reason: status === 'failed' ? 'expired_or_canceled_card' : null,
  metadata: { paygrid_refund: ours },
});

/** A chargeback; `fee` (and `feeBack` once won) as Stripe reports them on its balance transactions. */
export const dispute = (
  id: string,
  paymentIntentId: string,
  amount: number,
  currency: string,
  fee = 0,
  feeBack = 0,
  status = 'needs_response',
) => ({
  id,
  object: 'dispute',
  amount,
  currency: currency.toLowerCase(),
  status,
  reason: 'fraudulent',
  charge: stripeId('ch'),
  payment_intent: paymentIntentId,
  evidence_details: { due_by: Math.floor(Date.now() / 1000) + 7 * 86_400 },
  balance_transactions: [
    ...(fee ? [{ id: stripeId('txn'), amount: -amount, fee, currency: currency.toLowerCase() }] : []),
    ...(feeBack ? [{ id: stripeId('txn'), amount, fee: -feeBack, currency: currency.toLowerCase() }] : []),
  ],
});
