// What a claimed batch of the billing engine reads once, after the claim and under its row
// locks, instead of once per renewal: the subscriptions' earliest dunning retries, their
// customers and their pending prorations (bench/README.md findings 41 and 43).

import type { Tx } from '@paygrid/platform';
import type { CustomerRow } from '../customers/customers.service';
import type { SubscriptionRow } from '../subscriptions/subscription.model';
import { PENDING_PRORATIONS, type PendingProration } from './renew-subscription';

/**
 * The earliest dunning retry of each claimed subscription, in one statement for the batch
 * (subscription_periods_retry). A statement of its own after the claim, not a column of it:
 * under READ COMMITTED it reads after the claim's locks are held, so a payment outcome that
 * committed while the claim ran (it locks the subscription before it touches its periods,
 * dunning.ts) is seen; a subquery of the claim would read the claim's older snapshot.
 */
const RETRIES = `
  select subscription_id, min(next_retry_at) as at from invoicing.subscription_periods
   where subscription_id = any($1) and next_retry_at is not null
   group by subscription_id`;

/** The claimed batch's customers (their account and mode are checked against each subscription's). */
const CUSTOMERS = `select * from invoicing.customers where id = any($1)`;

/** What a batch read for one subscription after the claim: its customer, its pending prorations. */
export interface Known {
  customer?: CustomerRow;
  /** Taken by the first period this claim bills (emptied then). */
  prorations?: readonly PendingProration[];
}

/** The batch's reads, three statements; answers each claimed subscription's share of them. */
export async function readBatch(
  tx: Tx,
  claimed: readonly SubscriptionRow[],
): Promise<(row: SubscriptionRow) => { retryAt: Date | null; known: Known }> {
  const ids = claimed.map((r) => r.id);
  const retries = await tx.query<{ subscription_id: string; at: Date }>(RETRIES, [ids]);
  const retryOf = new Map(retries.map((r) => [r.subscription_id, new Date(r.at)]));
  const customers = await tx.query<CustomerRow>(CUSTOMERS, [[...new Set(claimed.map((r) => r.customer_id))]]);
  const customerOf = new Map(customers.map((c) => [c.id, c]));
  const pending = await tx.query<PendingProration & { subscription_id: string }>(PENDING_PRORATIONS, [ids]);
  const prorationsOf = new Map<string, PendingProration[]>();
  for (const p of pending)
    prorationsOf.set(p.subscription_id, [...(prorationsOf.get(p.subscription_id) ?? []), p]);
  return (row) => {
    const c = customerOf.get(row.customer_id);
    return {
      retryAt: retryOf.get(row.id) ?? null,
      known: {
        // A customer is kept only for subscriptions of its own account and mode.
        customer: c && c.account_id === row.account_id && c.livemode === row.livemode ? c : undefined,
        prorations: prorationsOf.get(row.id) ?? [],
      },
    };
  };
}
