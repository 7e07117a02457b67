// The invoice row and its public JSON (docs/api.md §6), mapped in one place. pg returns
// bigint columns as strings; they go through toMinor/minorToJson, never through a float.

import { fullSellerSnapshot, type SellerSnapshot } from '../account/account-profile';
import {
  isoOrNull,
  jsonBool,
  jsonText,
  jsonTimestamp,
  minorToJson,
  toMinor,
  iso,
  type TextRow,
} from '@paygrid/platform';
import {
  fullCustomerSnapshot,
  serializeLine,
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

/** What the invoice shows of its last payment: its failure, when it failed. */
function lastPaymentError(last: LastPayment | null) {
  return last?.status === 'failed'
    ? { code: last.failure_code, message: last.failure_message, transaction: last.transaction }
    : null;
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
    last_payment_error: lastPaymentError(row.last_payment),
    paid_out_of_band: row.paid_out_of_band,
    metadata: row.metadata,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The columns invoiceJson reads, in its order: a list page's select list (textRows). */
export const INVOICE_TEXT_COLUMNS =
  'id, livemode, customer_id, status, number, currency, description, lines, discount, subtotal, ' +
  'discount_total, tax_total, total, amount_paid, amount_due, collection_method, days_until_due, ' +
  'due_date, page_token, subscription_id, period_start, period_end, estimate_id, test_clock, seller, ' +
  'customer_snapshot, finalized_at, paid_at, voided_at, marked_uncollectible_at, sent_at, overdue_at, ' +
  'attempt_count, last_payment, paid_out_of_band, metadata, created_at, updated_at';

/** A jsonb column's text as the value `shape` makes of it (null stays null; so does `shape`'s null). */
function reshaped<T>(text: string | null, shape: (stored: T) => unknown): string {
  const stored = text === null ? null : (JSON.parse(text) as T | null);
  return stored ? JSON.stringify(shape(stored)) : 'null';
}

/**
 * serializeInvoice's JSON, written from a text row of INVOICE_TEXT_COLUMNS: amounts as
 * PostgreSQL wrote their digits, dates as `iso` writes them, the discount and the metadata as
 * their jsonb text; only the stored parts with an older shape (lines, seller, customer, last
 * payment) are parsed, to be brought to today's. A list page's invoices are written this way
 * instead of parsed into rows and objects and serialised again (bench/README.md finding 59).
 * tests/integration/invoice-json.test.ts holds it to GET /v1/invoices/:id for generated stored
 * parts, on PostgreSQL and on PGlite.
 */
export function invoiceJson(row: TextRow, publicBaseUrl: string): string {
  const [id, livemode, customer, status, number, currency, description, lines, discount] = row;
  const urls = invoiceUrls({ status: status as InvoiceStatus, page_token: row[18] as string }, publicBaseUrl);
  return (
    `{"id":${jsonText(id)},"object":"invoice","livemode":${jsonBool(livemode)},"customer":${jsonText(customer)},` +
    `"status":${jsonText(status)},"number":${jsonText(number)},"currency":${jsonText(currency)},` +
    `"description":${jsonText(description)},` +
    `"lines":${JSON.stringify((JSON.parse(lines as string) as StoredLine[]).map(serializeLine))},` +
    `"discount":${discount ?? 'null'},"subtotal":${row[9]},"discount_total":${row[10]},"tax_total":${row[11]},` +
    `"total":${row[12]},"amount_paid":${row[13]},"amount_due":${row[14]},` +
    `"collection_method":${jsonText(row[15])},"days_until_due":${row[16] ?? 'null'},` +
    `"due_date":${jsonTimestamp(row[17])},"hosted_url":${jsonText(urls.hosted_url)},` +
    `"pdf_url":${jsonText(urls.pdf_url)},"subscription":${jsonText(row[19])},` +
    `"period_start":${jsonTimestamp(row[20])},"period_end":${jsonTimestamp(row[21])},` +
    `"estimate":${jsonText(row[22])},"test_clock":${jsonText(row[23])},` +
    `"seller":${reshaped(row[24], fullSellerSnapshot)},` +
    `"customer_details":${reshaped(row[25], fullCustomerSnapshot)},` +
    `"status_transitions":{"finalized_at":${jsonTimestamp(row[26])},"paid_at":${jsonTimestamp(row[27])},` +
    `"voided_at":${jsonTimestamp(row[28])},"marked_uncollectible_at":${jsonTimestamp(row[29])}},` +
    `"sent_at":${jsonTimestamp(row[30])},"overdue":${row[31] !== null},"attempt_count":${row[32]},` +
    `"last_payment_error":${reshaped(row[33], lastPaymentError)},"paid_out_of_band":${jsonBool(row[34])},` +
    `"metadata":${row[35]},` +
    `"created_at":${jsonTimestamp(row[36])},"updated_at":${jsonTimestamp(row[37])}}`
  );
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
