// The invoice row and its public JSON (docs/api.md §6), mapped in one place. pg returns
// bigint columns as strings; they go through toMinor/minorToJson, never through a float.

import { fullSellerSnapshot, type SellerSnapshot } from '../account/account-profile';
import { isoOrNull, minorToJson, toMinor, iso } from '@paygrid/platform';
import {
  fullCustomerSnapshot,
  serializeLinesAndTotals,
  type CustomerSnapshot,
  type StoredLine,
} from './document-parts';
import type { CollectionMethod, Invoice, InvoiceStatus } from './invoices.internal';
import type { Invoice as InvoiceObject } from '@paygrid/contracts';

export interface LastPayment {
  status: 'pending' | 'succeeded' | 'failed';
  transaction: string | null;
  reference: string | null;
  failure_code: string | null;
  failure_message: string | null;
  at: string;
}

export interface InvoiceRow {
  id: string;
  account_id: string;
  livemode: boolean;
  customer_id: string;
  status: InvoiceStatus;
  number: string | null;
  currency: string;
  collection_method: CollectionMethod;
  days_until_due: number | null;
  due_date: Date | null;
  description: string | null;
  lines: StoredLine[];
  discount: { percent_bps: number } | { amount: number } | null;
  subtotal: string;
  discount_total: string;
  tax_total: string;
  total: string;
  amount_paid: string;
  amount_due: string;
  subscription_id: string | null;
  period_start: Date | null;
  period_end: Date | null;
  estimate_id: string | null;
  test_clock: string | null;
  seller_name: string | null;
  seller: Partial<SellerSnapshot> | null;
  customer_snapshot: CustomerSnapshot | null;
  page_token: string;
  attempt_count: number;
  send_count: number;
  last_payment: LastPayment | null;
  paid_out_of_band: boolean;
  finalized_at: Date | null;
  sent_at: Date | null;
  paid_at: Date | null;
  voided_at: Date | null;
  marked_uncollectible_at: Date | null;
  overdue_at: Date | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

const money = (value: string) => minorToJson(toMinor(value));

/** `Invoice-INV-0001.pdf`: a file name safe in a Content-Disposition header. */
export const invoicePdfFilename = (row: Pick<InvoiceRow, 'number' | 'id'>) =>
  `Invoice-${(row.number ?? row.id).replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;

/** The public URLs of a finalized invoice (a draft has none). */
export function invoiceUrls(row: Pick<InvoiceRow, 'status' | 'page_token'>, publicBaseUrl: string) {
  if (row.status === 'draft') return { hosted_url: null, pdf_url: null };
  const page = `${publicBaseUrl}/i/${row.page_token}`;
  return { hosted_url: page, pdf_url: `${page}/pdf` };
}

export function serializeInvoice(row: InvoiceRow, publicBaseUrl: string): InvoiceObject {
  return {
    id: row.id,
    object: 'invoice' as const,
    livemode: row.livemode,
    customer: row.customer_id,
    status: row.status,
    number: row.number,
    currency: row.currency,
    description: row.description,
    ...serializeLinesAndTotals(row),
    amount_paid: money(row.amount_paid),
    amount_due: money(row.amount_due),
    collection_method: row.collection_method,
    days_until_due: row.days_until_due,
    due_date: isoOrNull(row.due_date),
    ...invoiceUrls(row, publicBaseUrl),
    subscription: row.subscription_id,
    period_start: isoOrNull(row.period_start),
    period_end: isoOrNull(row.period_end),
    estimate: row.estimate_id,
    test_clock: row.test_clock,
    seller: row.seller ? fullSellerSnapshot(row.seller) : null,
    customer_details: fullCustomerSnapshot(row.customer_snapshot),
    status_transitions: {
      finalized_at: isoOrNull(row.finalized_at),
      paid_at: isoOrNull(row.paid_at),
      voided_at: isoOrNull(row.voided_at),
      marked_uncollectible_at: isoOrNull(row.marked_uncollectible_at),
    },
    sent_at: isoOrNull(row.sent_at),
    overdue: row.overdue_at !== null,
    attempt_count: row.attempt_count,
    last_payment_error:
      row.last_payment?.status === 'failed'
        ? {
            code: row.last_payment.failure_code,
            message: row.last_payment.failure_message,
            transaction: row.last_payment.transaction,
          }
        : null,
    paid_out_of_band: row.paid_out_of_band,
    metadata: row.metadata,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The invoice as the API returns it, the contract's type (ADR 0014). */
export type SerializedInvoice = InvoiceObject;

/** The internal view (bigint amounts) handed to other modules. */
export function toInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    account_id: row.account_id,
    livemode: row.livemode,
    customer_id: row.customer_id,
    status: row.status,
    number: row.number,
    currency: row.currency,
    collection_method: row.collection_method,
    subtotal: toMinor(row.subtotal),
    discount_total: toMinor(row.discount_total),
    tax_total: toMinor(row.tax_total),
    total: toMinor(row.total),
    amount_paid: toMinor(row.amount_paid),
    amount_due: toMinor(row.amount_due),
    due_date: row.due_date,
    subscription_id: row.subscription_id,
    test_clock: row.test_clock,
    attempt_count: row.attempt_count,
    created_at: row.created_at,
  };
}
