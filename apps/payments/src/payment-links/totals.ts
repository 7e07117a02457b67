// The amount a payment link charges, computed by the server in bigint (docs/api.md §1).

import { MAX_AMOUNT } from '@paygrid/platform';

export interface LineItem {
  description: string;
  quantity: number;
  unit_amount: number | string | bigint;
}

/** Sum of quantity x unit_amount; undefined when it exceeds the largest amount accepted. */
export function lineItemsTotal(items: readonly LineItem[]): bigint | undefined {
  let total = 0n;
  for (const item of items) {
    total += BigInt(item.quantity) * BigInt(item.unit_amount);
    if (total > MAX_AMOUNT) return undefined;
  }
  return total;
}

/** How many successful payments complete a link: max_completions, else 1 for one_time links. */
export function completionLimit(link: { type: string; max_completions: number | null }): number | null {
  return link.max_completions ?? (link.type === 'one_time' ? 1 : null);
}
