// The subscription.* events, written in the caller's transaction (the outbox): by the
// subscription actions (subscriptions.service.ts) and by the billing engine (billing/).

import { TOPICS } from '@paygrid/contracts';
import { emitEvent, type Tx } from '@paygrid/platform';
import { serializeSubscription, type SubscriptionRow } from './subscription.model';

export type SubscriptionEvent =
  | 'subscription.created'
  | 'subscription.updated'
  | 'subscription.renewed'
  | 'subscription.past_due'
  | 'subscription.paused'
  | 'subscription.resumed'
  | 'subscription.canceled'
  | 'subscription.trial_will_end';

export async function emitSubscriptionEvent(
  tx: Tx,
  type: SubscriptionEvent,
  row: SubscriptionRow,
  at: Date,
  previous?: Record<string, unknown>,
): Promise<void> {
  await emitEvent(tx, TOPICS.invoicingEvents, {
    type,
    account: row.account_id,
    livemode: row.livemode,
    object: serializeSubscription(row),
    ...(previous ? { previous_attributes: previous } : {}),
    at,
  });
}
