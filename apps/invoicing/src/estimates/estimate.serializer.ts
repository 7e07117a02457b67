// The estimate row and its public JSON (docs/api.md §6), mapped in one place. Amounts are
// bigint columns (strings from pg) and go through toMinor/minorToJson, never a float.

import { isoOrNull, iso } from '@paygrid/platform';
import { fullCustomerSnapshot, serializeLinesAndTotals } from '../invoices/document-parts';
import type { CustomerSnapshot, StoredLine } from '../invoices/document-parts';
import type { EstimateKind, EstimateStatus } from './estimate-state';
import type { Estimate } from '@paygrid/contracts';

export interface EstimateRow {
  id: string;
  account_id: string;
  livemode: boolean;
  kind: EstimateKind;
  customer_id: string;
  status: EstimateStatus;
  number: string | null;
  currency: string;
  description: string | null;
  lines: StoredLine[];
  discount: { percent_bps: number } | { amount: number } | null;
  subtotal: string;
  discount_total: string;
  tax_total: string;
  total: string;
  expires_at: Date | null;
  page_token: string;
  seller_name: string | null;
  customer_snapshot: CustomerSnapshot | null;
  invoice_id: string | null;
  send_count: number;
  sent_at: Date | null;
  accepted_at: Date | null;
  declined_at: Date | null;
  expired_at: Date | null;
  canceled_at: Date | null;
  invoiced_at: Date | null;
  decided_via: 'api' | 'page' | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

/** The customer's page: only once sent (a draft has none). */
export const estimatePublicUrl = (row: Pick<EstimateRow, 'status' | 'page_token'>, publicBaseUrl: string) =>
  row.status === 'draft' ? null : `${publicBaseUrl}/q/${row.page_token}`;

export function serializeEstimate(row: EstimateRow, publicBaseUrl: string): Estimate {
  return {
    id: row.id,
    object: 'estimate' as const,
    livemode: row.livemode,
    kind: row.kind,
    customer: row.customer_id,
    status: row.status,
    number: row.number,
    currency: row.currency,
    description: row.description,
    ...serializeLinesAndTotals(row),
    expires_at: isoOrNull(row.expires_at),
    public_url: estimatePublicUrl(row, publicBaseUrl),
    invoice: row.invoice_id,
    seller: row.seller_name ? { name: row.seller_name } : null,
    customer_details: fullCustomerSnapshot(row.customer_snapshot),
    status_transitions: {
      sent_at: isoOrNull(row.sent_at),
      accepted_at: isoOrNull(row.accepted_at),
      declined_at: isoOrNull(row.declined_at),
      expired_at: isoOrNull(row.expired_at),
      canceled_at: isoOrNull(row.canceled_at),
      invoiced_at: isoOrNull(row.invoiced_at),
    },
    decided_via: row.decided_via,
    metadata: row.metadata,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The estimate as the API returns it, the contract's type (ADR 0014). */
export type SerializedEstimate = Estimate;
