// Creating and editing an estimate or quote draft: server-computed totals (invoices/totals.ts
// through invoices/document-parts.ts), expiry on the customer's time, estimate.created.

import { randomBytes } from 'node:crypto';
import { ApiError, newId, type Tenant, type Tx } from '@paygrid/platform';
import { checkDiscount, pricedLines } from '../invoices/document-parts';
import type { DiscountInput, LineInput } from '../invoices/totals';
import { transition } from './estimate-state';
import type { EstimateRow } from './estimate.serializer';
import type { EstimateStore } from './estimate.sql';
import type { CreateEstimateDto, EstimateDraftFieldsDto } from './estimates.dto';

export const invalid = (message: string, param: string) => new ApiError('parameter_invalid', message, param);

interface DraftFields {
  lines: LineInput[];
  discount: DiscountInput | null;
}

/** Validates a draft's lines and discount and computes its totals (as on invoices). */
function priced(fields: DraftFields) {
  checkDiscount(fields.discount);
  return pricedLines(fields.lines, fields.discount, 'estimate');
}

function futureExpiry(value: string | null | undefined, now: Date): Date | null {
  if (value === undefined || value === null) return null;
  const at = new Date(value);
  if (at.getTime() <= now.getTime()) throw invalid('expires_at must be in the future.', 'expires_at');
  return at;
}

export async function createEstimate(
  store: EstimateStore,
  tx: Tx,
  tenant: Tenant,
  sellerName: string,
  body: CreateEstimateDto,
): Promise<EstimateRow> {
  const now = store.clock.now();
  const customer = await store.customer(tx, tenant, body.customer);
  if (customer.deleted_at) throw invalid(`Customer '${customer.id}' is archived.`, 'customer');
  const currency = body.currency ?? customer.currency;
  if (!currency) {
    throw new ApiError('parameter_missing', 'currency is required when the customer has none.', 'currency');
  }
  if (customer.currency && currency !== customer.currency) {
    throw invalid(`The customer is billed in ${customer.currency}.`, 'currency');
  }
  const discount = (body.discount ?? null) as DiscountInput | null;
  const { totals, lines } = priced({ lines: body.lines ?? [], discount });
  const [row] = await tx.query<EstimateRow>(
    `insert into invoicing.estimates (id, account_id, livemode, kind, customer_id, status, currency, description,
       lines, discount, subtotal, discount_total, tax_total, total, expires_at, page_token, seller_name,
       metadata, created_at, updated_at)
     values ($1, $2, $3, $4, $5, 'draft', $6, $7, $8::jsonb, $9::jsonb, $10, $11, $12, $13, $14, $15, $16,
       $17::jsonb, $18, $18)
     returning *`,
    [
      newId('est'),
      tenant.account,
      tenant.livemode,
      body.kind ?? 'estimate',
      customer.id,
      currency,
      body.description ?? null,
      JSON.stringify(lines),
      discount ? JSON.stringify(discount) : null,
      totals.subtotal.toString(),
      totals.discount_total.toString(),
      totals.tax_total.toString(),
      totals.total.toString(),
      // Expiry is on the customer's time: its test clock's frozen time, if any.
      futureExpiry(body.expires_at, await store.customerTime(tx, tenant, body.customer, now)),
      // 32 random bytes: the customer's page address is the credential, as for invoices.
      randomBytes(32).toString('base64url'),
      sellerName,
      JSON.stringify(body.metadata ?? {}),
      now,
    ],
  );
  await store.emit(tx, 'estimate.created', row, now);
  return row;
}

export async function updateEstimate(
  store: EstimateStore,
  tx: Tx,
  tenant: Tenant,
  id: string,
  body: EstimateDraftFieldsDto,
): Promise<EstimateRow> {
  const current = await store.lock(tx, tenant, id);
  transition(current.id, current.status, 'edit');
  const now = store.clock.now();
  const changes: Record<string, unknown> = {};
  if (body.currency !== undefined && body.currency !== current.currency) {
    const customer = await store.customer(tx, tenant, current.customer_id);
    if (customer.currency && body.currency !== customer.currency) {
      throw invalid(`The customer is billed in ${customer.currency}.`, 'currency');
    }
    changes.currency = body.currency;
  }
  if (body.lines !== undefined || body.discount !== undefined) {
    const discount = (body.discount === undefined ? current.discount : body.discount) as DiscountInput | null;
    const { totals, lines } = priced({ lines: body.lines ?? current.lines, discount });
    Object.assign(changes, {
      lines: JSON.stringify(lines),
      discount: discount ? JSON.stringify(discount) : null,
      subtotal: totals.subtotal.toString(),
      discount_total: totals.discount_total.toString(),
      tax_total: totals.tax_total.toString(),
      total: totals.total.toString(),
    });
  }
  if (body.expires_at !== undefined) {
    const customerNow = await store.customerTime(tx, tenant, current.customer_id, now);
    changes.expires_at = futureExpiry(body.expires_at, customerNow);
  }
  if (body.description !== undefined) changes.description = body.description;
  if (body.metadata !== undefined)
    changes.metadata = JSON.stringify({ ...current.metadata, ...body.metadata });
  if (!Object.keys(changes).length) return current;
  return store.patch(tx, current, changes, now);
}
