// A payment link's row as the payments schema holds it, what the API answers for it
// (serializePaymentLink), and the link as its hosted checkout page reads it (PublicLink).
// The use cases on links are payment-links.service.ts.

import type { PaymentLink } from '@paygrid/contracts';
import { isoOrNull, minorToJson, toMinor } from '@paygrid/platform';
import type { LineItem } from './totals';

export type PaymentLinkStatus = 'active' | 'inactive' | 'completed' | 'expired';

export interface PaymentLinkRow {
  id: string;
  account_id: string;
  livemode: boolean;
  merchant_id: string | null;
  type: 'one_time' | 'recurring';
  amount: string | null;
  currency: string;
  line_items: LineItem[] | null;
  amount_total: string;
  recurring: PaymentLink['recurring'];
  description: string | null;
  max_completions: number | null;
  completions_count: number;
  expires_at: Date | null;
  after_completion_redirect_url: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  status: PaymentLinkStatus;
  created_at: Date;
  updated_at: Date;
}

/** A link past its expires_at is `expired` even before anything rewrites its row. */
export function effectiveStatus(link: PaymentLinkRow, now: Date): PaymentLinkStatus {
  if (link.status === 'active' && link.expires_at && new Date(link.expires_at) <= now) return 'expired';
  return link.status;
}

/**
 * A link's row as to_jsonb wrote it (IntentSaga's `withSuccess` answer), typed as pg reads the
 * row: amounts as strings (bigint; JSON numbers are exact below 2^53, and amounts are at most
 * MAX_AMOUNT, about 10^11: anything else is refused), timestamps as Dates.
 */
export function linkOfJson(json: Record<string, unknown>): PaymentLinkRow {
  const minor = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      throw new Error(`payment link ${String(json.id)}: amount ${String(value)} is not an exact integer`);
    }
    return String(value);
  };
  const date = (value: unknown): Date => new Date(value as string);
  // Object.assign, not a leading spread: Node 20's slow path (docs/style.md, finding 56).
  return Object.assign({}, json as unknown as PaymentLinkRow, {
    amount: json.amount === null ? null : minor(json.amount),
    amount_total: minor(json.amount_total),
    expires_at: json.expires_at === null ? null : date(json.expires_at),
    created_at: date(json.created_at),
    updated_at: date(json.updated_at),
  });
}

export function serializePaymentLink(link: PaymentLinkRow, publicBaseUrl: string, now: Date): PaymentLink {
  return {
    id: link.id,
    object: 'payment_link',
    livemode: link.livemode,
    merchant: link.merchant_id,
    type: link.type,
    amount: link.amount === null ? null : minorToJson(toMinor(link.amount)),
    currency: link.currency,
    line_items: link.line_items
      ? link.line_items.map((i) => ({
          description: i.description,
          quantity: i.quantity,
          unit_amount: minorToJson(toMinor(String(i.unit_amount))),
        }))
      : null,
    amount_total: minorToJson(toMinor(link.amount_total)),
    recurring: link.recurring,
    description: link.description,
    max_completions: link.max_completions,
    completions_count: link.completions_count,
    expires_at: isoOrNull(link.expires_at),
    after_completion: link.after_completion_redirect_url
      ? { redirect_url: link.after_completion_redirect_url }
      : null,
    client_reference_id: link.client_reference_id,
    url: `${publicBaseUrl.replace(/\/+$/, '')}/pay/${link.id}`,
    status: effectiveStatus(link, now),
    metadata: link.metadata,
    created_at: isoOrNull(link.created_at) as string,
    updated_at: isoOrNull(link.updated_at) as string,
  };
}

export interface PublicLink extends PaymentLinkRow {
  business_name: string | null;
  /** Whether the link's merchant is the account's default one (named by the business profile). */
  merchant_is_default: boolean | null;
  /** The account's business profile, as projected from account.updated (docs/adr/0011). */
  seller: {
    name: string | null;
    logo_url: string | null;
    brand_color: string | null;
    support_email: string | null;
    support_phone: string | null;
    /** The `receipts.payments` switch: a payer who gave an address is e-mailed a receipt. */
    receipts_payments: boolean;
  } | null;
}
