// Creating an invoice: the draft's checks and its row (emits invoice.created), and the
// request that creates, finalizes and collects in one transaction (POST /v1/invoices; the
// billing engine's renewal and estimates' /convert through InvoicesInternal).

import { randomBytes } from 'node:crypto';
import { ApiError, newId, type Tenant, type Tx } from '@paygrid/platform';
import type { CustomerRow } from '../customers/customers.service';
import { checkDiscount, pricedLines } from './document-parts';
import { collectInvoice, type Collected } from './collect-invoice';
import { finalizeInvoice } from './finalize-invoice';
import type { InvoiceDocuments } from './invoice-mailer';
import type { InvoiceRow } from './invoice.serializer';
import type { InvoiceStore } from './invoice.sql';
import type { InvoiceDraftFieldsDto } from './invoices.dto';
import type { CreateInvoiceInput } from './invoices.internal';
import type { DiscountInput, LineInput } from './totals';

export const invalid = (message: string, param: string) => new ApiError('parameter_invalid', message, param);

/** The draft's fields after validation: what insertDraft and updateDraft store. */
export interface DraftFields {
  currency: string;
  lines: LineInput[];
  discount: DiscountInput | null;
  collection_method: 'send_invoice' | 'charge_automatically';
  days_until_due: number | null;
  due_date: Date | null;
}

export function checkDraft(fields: DraftFields, now: Date) {
  checkDiscount(fields.discount);
  if (fields.days_until_due !== null && fields.due_date !== null) {
    throw invalid('Pass days_until_due or due_date, not both.', 'due_date');
  }
  if (
    fields.collection_method === 'charge_automatically' &&
    (fields.days_until_due !== null || fields.due_date)
  ) {
    throw invalid(
      'charge_automatically invoices are charged at once and take no due date.',
      'collection_method',
    );
  }
  if (fields.due_date && fields.due_date.getTime() <= now.getTime()) {
    throw invalid('due_date must be in the future.', 'due_date');
  }
  return pricedLines(fields.lines, fields.discount, 'invoice');
}

/**
 * The draft row (emits invoice.created) and the customer it was checked against: `known`, when
 * the caller has read `input.customer`'s row in this transaction, else read here.
 */
export async function insertDraft(
  store: InvoiceStore,
  tx: Tx,
  tenant: Tenant,
  input: CreateInvoiceInput,
  known?: CustomerRow,
): Promise<{ row: InvoiceRow; customer: CustomerRow }> {
  const customer = known ?? (await store.customer(tx, tenant, input.customer, 'customer'));
  if (customer.deleted_at) throw invalid(`Customer '${customer.id}' is archived.`, 'customer');
  const currency = input.currency ?? customer.currency;
  if (!currency) {
    throw new ApiError('parameter_missing', 'currency is required when the customer has none.', 'currency');
  }
  if (customer.currency && currency !== customer.currency) {
    throw invalid(`The customer is billed in ${customer.currency}.`, 'currency');
  }
  const fields: DraftFields = {
    currency,
    lines: input.lines,
    discount: input.discount ?? null,
    collection_method: input.collection_method ?? 'send_invoice',
    days_until_due: input.days_until_due ?? null,
    due_date: input.due_date ?? null,
  };
  const { totals, lines } = checkDraft(fields, input.now);
  const [row] = await tx.query<InvoiceRow>(
    `insert into invoicing.invoices (id, account_id, livemode, customer_id, status, currency, collection_method,
       days_until_due, due_date, description, lines, discount, subtotal, discount_total, tax_total, total,
       amount_due, subscription_id, period_start, period_end, estimate_id, test_clock, seller_name, page_token,
       metadata, created_at, updated_at)
     values ($1, $2, $3, $4, 'draft', $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12, $13, $14, $15, $15, $16,
       $17, $18, $19, $20, $21, $22, $23::jsonb, $24, $24)
     returning *`,
    [
      newId('inv'),
      tenant.account,
      tenant.livemode,
      customer.id,
      currency,
      fields.collection_method,
      fields.days_until_due,
      fields.due_date,
      input.description ?? null,
      JSON.stringify(lines),
      fields.discount ? JSON.stringify(fields.discount) : null,
      totals.subtotal.toString(),
      totals.discount_total.toString(),
      totals.tax_total.toString(),
      totals.total.toString(),
      input.subscription ?? null,
      input.period_start ?? null,
      input.period_end ?? null,
      input.estimate ?? null,
      customer.test_clock,
      input.seller_name ?? null,
      // 32 random bytes: the hosted page's unguessable address.
      randomBytes(32).toString('base64url'),
      JSON.stringify(input.metadata ?? {}),
      input.now,
    ],
  );
  await store.emit(tx, 'invoice.created', row, input.now);
  return { row, customer };
}

/**
 * The draft, finalized and collected (attempt `attempt`) in the caller's transaction. The
 * rows just written are returned by the statements that wrote them (this transaction holds
 * their locks), so nothing is read back.
 */
export async function createAndCollect(
  store: InvoiceStore,
  documents: InvoiceDocuments,
  tx: Tx,
  tenant: Tenant,
  input: CreateInvoiceInput,
  attempt: number,
  known?: CustomerRow,
): Promise<Collected> {
  const draft = await insertDraft(store, tx, tenant, input, known);
  const open = await finalizeInvoice(store, tx, tenant, draft.row, input.now, draft.customer);
  return collectInvoice(store, documents, tx, open, draft.customer, attempt, input.now);
}

/** POST /v1/invoices: a draft, then (unless `send: false`) finalized and collected. */
export async function createRequested(
  store: InvoiceStore,
  documents: InvoiceDocuments,
  tx: Tx,
  tenant: Tenant,
  sellerName: string,
  body: InvoiceDraftFieldsDto & { customer: string; send?: boolean },
): Promise<InvoiceRow> {
  // Read once: its test clock sets the time, and the draft is checked against it.
  const customer = await store.customer(tx, tenant, body.customer, 'customer');
  const now = await store.nowFor(tx, customer.test_clock);
  const input: CreateInvoiceInput = {
    customer: body.customer,
    lines: body.lines ?? [],
    now,
    seller_name: sellerName,
    ...(body.currency ? { currency: body.currency } : {}),
    ...(body.discount ? { discount: body.discount as DiscountInput } : {}),
    ...(body.collection_method ? { collection_method: body.collection_method } : {}),
    ...(body.days_until_due !== undefined ? { days_until_due: body.days_until_due } : {}),
    ...(body.due_date ? { due_date: new Date(body.due_date) } : {}),
    ...(body.description ? { description: body.description } : {}),
    ...(body.metadata ? { metadata: body.metadata } : {}),
  };
  if (body.send === false) return (await insertDraft(store, tx, tenant, input, customer)).row;
  return (await createAndCollect(store, documents, tx, tenant, input, 1, customer)).row;
}
