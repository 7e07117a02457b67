// What the subscription actions (subscriptions.service.ts) ask of the billing engine: the
// steps that time or an action makes due, run inline in the action's transaction. The engine
// (billing/billing-engine.ts) implements it and billing/billing.module.ts passes it in, so
// this folder never imports billing/ (billing is the layer above subscriptions).

import type { Tx } from '@paygrid/platform';
import type { SubscriptionStatus } from './subscription-states';
import type { SubscriptionRow } from './subscription.model';

export interface SubscriptionEngine {
  /** The time of a test clock (frozen), or the service's clock. */
  nowFor(tx: Tx, testClock: string | null): Promise<Date>;
  /** Bills the subscription's next period (the ledger row, the invoice, its collection). */
  billPeriod(tx: Tx, row: SubscriptionRow, now: Date): Promise<SubscriptionRow>;
  /** A status change checked against subscription-states.ts, with its event. */
  transition(
    tx: Tx,
    row: SubscriptionRow,
    to: SubscriptionStatus,
    now: Date,
    extra?: { ended_at?: Date | null; paused_at?: Date | null },
  ): Promise<SubscriptionRow>;
  /** Performs the actions due at `now` of `sub` (locked by the caller) and stores the next one. */
  stepInTx(tx: Tx, sub: SubscriptionRow, now: Date): Promise<SubscriptionRow>;
  /** Stores when the subscription next needs the engine. */
  saveNextAction(tx: Tx, row: SubscriptionRow, knownRetryAt?: Date | null): Promise<SubscriptionRow>;
}
