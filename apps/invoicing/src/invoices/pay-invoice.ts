// POST /v1/invoices/:id/pay: charge the customer's default mandate now, or record a payment
// made elsewhere (paid_out_of_band).

import { ApiError, toMinor, type Tenant, type Tx } from '@paygrid/platform';
import { invalid } from './create-invoice';
import { chargeInvoice } from './collect-invoice';
import { transition } from './invoice-state';
import type { InvoiceRow } from './invoice.serializer';
import type { InvoiceStore } from './invoice.sql';
import type { PayInvoiceDto } from './invoices.dto';

export async function payRequested(
  store: InvoiceStore,
  tx: Tx,
  tenant: Tenant,
  id: string,
  body: PayInvoiceDto,
): Promise<InvoiceRow> {
  const current = await store.lock(tx, tenant, id);
  const now = await store.nowFor(tx, current.test_clock);
  if (body.paid_out_of_band) {
    transition(id, current.status, 'pay');
    return store.move(tx, current, 'pay', now, {
      amount_paid: (toMinor(current.amount_paid) + toMinor(current.amount_due)).toString(),
      amount_due: '0',
      paid_out_of_band: true,
    });
  }
  transition(id, current.status, 'charge');
  if (current.last_payment?.status === 'pending') {
    throw new ApiError(
      'invalid_state_transition',
      `A payment of invoice '${id}' is in progress; wait for its outcome (invoice.paid or invoice.payment_failed).`,
    );
  }
  const customer = await store.customer(tx, tenant, current.customer_id);
  if (!customer.default_mandate) {
    throw invalid(
      `Customer '${customer.id}' has no default_mandate to charge; the customer can pay on the hosted page, or pass paid_out_of_band: true.`,
      'customer',
    );
  }
  return chargeInvoice(tx, current, customer.default_mandate, current.attempt_count + 1, now);
}
