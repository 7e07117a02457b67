// The items of a subscription as the API sends them, checked and normalized once for
// creation and change (subscriptions.service.ts, change-subscription.ts).

import { ApiError } from '@paygrid/platform';
import type { SubscriptionItem } from './subscription.model';
import type { SubscriptionItemDto } from './subscriptions.dto';

/** One cycle and one currency per subscription (as Stripe): checked here, 400 otherwise. */
export function normalizeItems(items: SubscriptionItemDto[]) {
  const [first] = items;
  const interval = first.interval;
  const intervalCount = first.interval_count ?? 1;
  items.forEach((item, i) => {
    if (item.currency !== first.currency) {
      throw new ApiError(
        'parameter_invalid',
        'Every item of a subscription must have the same currency.',
        `items[${i}].currency`,
      );
    }
    if (item.interval !== interval || (item.interval_count ?? 1) !== intervalCount) {
      throw new ApiError(
        'parameter_invalid',
        'Every item of a subscription must have the same interval and interval_count (one billing cycle per subscription).',
        `items[${i}].interval`,
      );
    }
  });
  return {
    currency: first.currency,
    interval,
    intervalCount,
    items: items.map<SubscriptionItem>((i) => ({
      description: i.description,
      unit_amount: i.unit_amount,
      quantity: i.quantity ?? 1,
    })),
  };
}
