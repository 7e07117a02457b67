// Sending an estimate (draft|sent -> sent): the number at the first send, the seller and
// customer snapshots, the e-mail (page link + PDF) queued in this transaction, estimate.sent.

import { ApiError, type Tenant, type Tx } from '@paygrid/platform';
import { sellerNameInTx } from '../account/account.service';
import { customerSnapshot } from '../invoices/document-parts';
import type { MailService } from '../mail/mail.service';
import { invalid } from './create-estimate';
import { queueEstimateMail } from './estimate-document';
import { transition } from './estimate-state';
import type { EstimateRow } from './estimate.serializer';
import { type EstimateStore, pastExpiry } from './estimate.sql';

export async function sendEstimate(
  store: EstimateStore,
  mail: MailService,
  tx: Tx,
  tenant: Tenant,
  id: string,
  sellerName: string,
): Promise<EstimateRow> {
  const current = await store.lock(tx, tenant, id);
  transition(current.id, current.status, 'send');
  const now = store.clock.now();
  if (pastExpiry(current, await store.customerTime(tx, tenant, current.customer_id, now))) {
    throw invalid('expires_at has passed; set a later one before sending.', 'expires_at');
  }
  if (!current.lines.length)
    throw new ApiError('parameter_missing', 'An estimate needs lines to be sent.', 'lines');
  const customer = await store.customer(tx, tenant, current.customer_id);
  if (customer.deleted_at) throw invalid(`Customer '${customer.id}' is archived.`, 'customer');
  if (!customer.email) {
    throw invalid(`Customer '${customer.id}' has no email address to send the estimate to.`, 'customer');
  }
  const sendCount = current.send_count + 1;
  const changes: Record<string, unknown> = {
    send_count: sendCount,
    // The name customers know the seller by (the business profile), as of this send.
    seller_name: (await sellerNameInTx(tx, tenant.account, sellerName)) ?? sellerName,
    customer_snapshot: JSON.stringify(customerSnapshot(customer)),
  };
  if (!current.number) changes.number = await store.nextNumber(tx, current);
  const row = await store.move(tx, current, 'send', now, changes);
  const sendKey = `${row.id}:send:${sendCount}`;
  await queueEstimateMail(mail, store.settings.publicBaseUrl, tx, row, customer.email, sendKey, now);
  return row;
}
