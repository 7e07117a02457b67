// Finalizing an invoice (draft -> open): the gapless number, the seller and customer
// snapshots, the due date; a zero invoice is paid at once. One function for every caller:
// POST /:id/finalize and /:id/send, and creation with collection (create-invoice.ts).

import { toMinor, type Tenant, type Tx } from '@paygrid/platform';
import { profileOf, sellerSnapshot } from '../account/account-profile';
import { profileInTx } from '../account/account.service';
import type { CustomerRow } from '../customers/customers.service';
import { customerSnapshot } from './document-parts';
import { transition } from './invoice-state';
import type { InvoiceRow } from './invoice.serializer';
import type { InvoiceStore } from './invoice.sql';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS_UNTIL_DUE = 30;

/**
 * Finalizes `current`, a row this transaction holds locked; `customer` is read when the
 * caller has not read it already.
 */
export async function finalizeInvoice(
  store: InvoiceStore,
  tx: Tx,
  tenant: Tenant,
  current: InvoiceRow,
  now: Date,
  customer?: CustomerRow,
): Promise<InvoiceRow> {
  transition(current.id, current.status, 'finalize');
  const buyer = customer ?? (await store.customer(tx, tenant, current.customer_id));
  // The seller as the profile reads now (docs/adr/0011): kept with the invoice, which never
  // changes its seller again; its payment terms are the default due date.
  const profileRow = await profileInTx(tx, tenant.account);
  const profile = profileOf(profileRow);
  let dueDate = current.due_date;
  let daysUntilDue = current.days_until_due;
  if (current.collection_method === 'send_invoice' && !dueDate) {
    daysUntilDue ??= profile.payment_terms_days ?? DEFAULT_DAYS_UNTIL_DUE;
    dueDate = new Date(now.getTime() + daysUntilDue * DAY_MS);
  }
  // The number in the finalization's own statement, after every read: its counter row stays
  // locked until this transaction ends, and every finalization of the account and mode waits
  // for it (invoice.sql.ts finalizeNumbered).
  const row = await store.finalizeNumbered(tx, tenant, current, now, {
    due_date: dueDate,
    days_until_due: daysUntilDue,
    seller: JSON.stringify(sellerSnapshot(profile, current.seller_name ?? profileRow?.account_name ?? null)),
    customer_snapshot: JSON.stringify(customerSnapshot(buyer)),
  });
  // Nothing to collect: a zero invoice is paid when finalized.
  if (toMinor(row.amount_due) === 0n) return store.move(tx, row, 'settle', now, {});
  return row;
}

/** POST /:id/finalize: the seller named as the account is named now, then finalized. */
export async function finalizeRequested(
  store: InvoiceStore,
  tx: Tx,
  tenant: Tenant,
  id: string,
  sellerName: string,
): Promise<InvoiceRow> {
  let current = await store.lock(tx, tenant, id);
  if (current.status === 'draft') current = await store.nameSeller(tx, id, sellerName);
  return finalizeInvoice(store, tx, tenant, current, await store.nowFor(tx, current.test_clock));
}
