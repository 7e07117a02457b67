// A subscription's invoice as the invoices module takes it (CreateInvoiceInput): a period's
// renewal (billing/renew-subscription.ts) and a change's always_invoice
// (change-subscription.ts) bill the customer on the same terms.

import { minorToJson } from '@paygrid/platform';
import type { CreateInvoiceInput } from '../invoices/invoices.internal';
import type { composeInvoice, SubscriptionRow } from './subscription.model';

export function subscriptionInvoice(
  row: SubscriptionRow,
  composed: ReturnType<typeof composeInvoice>,
  description: string,
  now: Date,
  period?: { start: Date; end: Date },
): CreateInvoiceInput {
  return {
    customer: row.customer_id,
    currency: row.currency,
    lines: composed.lines,
    discount: composed.discount > 0n ? { amount: minorToJson(composed.discount) } : null,
    collection_method: row.collection_method,
    ...(row.days_until_due !== null ? { days_until_due: row.days_until_due } : {}),
    description,
    subscription: row.id,
    ...(period ? { period_start: period.start, period_end: period.end } : {}),
    now,
  };
}
