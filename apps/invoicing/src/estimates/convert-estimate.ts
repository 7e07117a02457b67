// Converting an accepted estimate (accepted -> invoiced): the invoice (a draft, or finalized
// and collected with `send: true`) is created through the invoices module in this very
// transaction, so the invoice, its events and the estimate's `invoiced` state commit together.

import type { Tenant, Tx } from '@paygrid/platform';
import type { CreateInvoiceInput, InvoicesInternal } from '../invoices/invoices.internal';
import type { DiscountInput } from '../invoices/totals';
import { KIND_TITLE } from './estimate-document';
import { transition } from './estimate-state';
import type { EstimateRow } from './estimate.serializer';
import type { EstimateStore } from './estimate.sql';
import type { ConvertEstimateDto } from './estimates.dto';

export async function convertEstimate(
  store: EstimateStore,
  invoices: InvoicesInternal,
  tx: Tx,
  tenant: Tenant,
  id: string,
  sellerName: string,
  body: ConvertEstimateDto,
): Promise<EstimateRow> {
  const current = await store.lock(tx, tenant, id);
  transition(current.id, current.status, 'convert');
  const now = store.clock.now();
  // The invoice lives on its customer's test clock, if any (its dates follow the clock).
  const invoiceNow = await store.customerTime(tx, tenant, current.customer_id, now);
  const input: CreateInvoiceInput = {
    customer: current.customer_id,
    currency: current.currency,
    lines: current.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unit_amount: line.unit_amount,
      tax_rate_bps: line.tax_rate_bps,
      tax_category: line.tax_category ?? null,
      tax_exemption_reason: line.tax_exemption_reason ?? null,
    })),
    discount: current.discount as DiscountInput | null,
    estimate: current.id,
    seller_name: sellerName,
    description: current.description ?? `${KIND_TITLE[current.kind]} ${current.number ?? current.id}`,
    ...(body.days_until_due !== undefined ? { days_until_due: body.days_until_due } : {}),
    now: invoiceNow,
  };
  const invoice = body.send
    ? (await invoices.createAndCollectInTx(tx, tenant, input, 1)).invoice
    : await invoices.createInTx(tx, tenant, input);
  return store.move(tx, current, 'convert', now, { invoice_id: invoice.id });
}
