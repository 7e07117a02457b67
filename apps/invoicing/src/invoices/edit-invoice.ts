// Editing and deleting a draft (PATCH and DELETE /v1/invoices/:id); finalized invoices are
// never edited (invoice-state.ts).

import type { DeletedInvoice } from '@paygrid/contracts';
import type { Tenant, Tx } from '@paygrid/platform';
import { checkDraft, type DraftFields, invalid } from './create-invoice';
import { transition } from './invoice-state';
import type { InvoiceRow } from './invoice.serializer';
import type { InvoiceStore } from './invoice.sql';
import type { InvoiceDraftFieldsDto } from './invoices.dto';
import type { DiscountInput } from './totals';

export async function updateDraft(
  store: InvoiceStore,
  tx: Tx,
  tenant: Tenant,
  id: string,
  body: InvoiceDraftFieldsDto,
): Promise<InvoiceRow> {
  const current = await store.lock(tx, tenant, id);
  transition(id, current.status, 'edit');
  const now = await store.nowFor(tx, current.test_clock);
  const fields: DraftFields = {
    currency: body.currency ?? current.currency,
    lines: body.lines ?? current.lines,
    discount: body.discount === undefined ? current.discount : (body.discount as DiscountInput | null),
    collection_method: body.collection_method ?? current.collection_method,
    days_until_due: body.days_until_due ?? (body.due_date !== undefined ? null : current.days_until_due),
    due_date: body.due_date
      ? new Date(body.due_date)
      : body.days_until_due !== undefined
        ? null
        : current.due_date,
  };
  if (
    body.collection_method === 'charge_automatically' &&
    body.days_until_due === undefined &&
    !body.due_date
  ) {
    fields.days_until_due = null;
    fields.due_date = null;
  }
  const customer = await store.customer(tx, tenant, current.customer_id);
  if (customer.currency && fields.currency !== customer.currency) {
    throw invalid(`The customer is billed in ${customer.currency}.`, 'currency');
  }
  const { totals, lines } = checkDraft(fields, now);
  const [row] = await tx.query<InvoiceRow>(
    `update invoicing.invoices set currency = $2, lines = $3::jsonb, discount = $4::jsonb,
       collection_method = $5, days_until_due = $6, due_date = $7, subtotal = $8, discount_total = $9,
       tax_total = $10, total = $11, amount_due = $11, description = coalesce($12, description),
       metadata = metadata || $13::jsonb, updated_at = $14
     where id = $1 returning *`,
    [
      id,
      fields.currency,
      JSON.stringify(lines),
      fields.discount ? JSON.stringify(fields.discount) : null,
      fields.collection_method,
      fields.days_until_due,
      fields.due_date,
      totals.subtotal.toString(),
      totals.discount_total.toString(),
      totals.tax_total.toString(),
      totals.total.toString(),
      body.description ?? null,
      JSON.stringify(body.metadata ?? {}),
      now,
    ],
  );
  return row;
}

export async function deleteDraft(
  store: InvoiceStore,
  tx: Tx,
  tenant: Tenant,
  id: string,
): Promise<DeletedInvoice> {
  const current = await store.lock(tx, tenant, id);
  transition(id, current.status, 'delete');
  await tx.query('delete from invoicing.invoices where id = $1', [id]);
  return { id, object: 'invoice', deleted: true };
}
