// Collecting an open invoice: a `payment.charge_mandate` command to the payments service
// (charge_automatically with a card on file) or the invoice e-mail (send_invoice, or no card
// yet). Both are written in the caller's transaction: the command through the outbox, the
// mail through the mail queue, so neither leaves unless the invoice's change commits.

import { lastValueFrom } from 'rxjs';
import { type ChargeMandateCommand, type CommandEnvelope, TOPICS } from '@paygrid/contracts';
import {
  ApiError,
  minorToJson,
  newSortableId,
  OutboxClient,
  toMinor,
  type Tenant,
  type Tx,
} from '@paygrid/platform';
import type { CustomerRow } from '../customers/customers.service';
import { finalizeInvoice } from './finalize-invoice';
import type { InvoiceDocuments } from './invoice-mailer';
import { transition } from './invoice-state';
import type { InvoiceRow, LastPayment } from './invoice.serializer';
import type { InvoiceStore } from './invoice.sql';

export interface Collected {
  row: InvoiceRow;
  action: 'charge_requested' | 'sent' | 'nothing_due';
}

/** Collects `current`, locked by this transaction (`customer` is needed when something is due). */
export async function collectInvoice(
  store: InvoiceStore,
  documents: InvoiceDocuments,
  tx: Tx,
  current: InvoiceRow,
  customer: CustomerRow | undefined,
  attempt: number,
  now: Date,
): Promise<Collected> {
  if (current.status !== 'open' || toMinor(current.amount_due) === 0n || !customer) {
    return { row: current, action: 'nothing_due' };
  }
  if (current.collection_method === 'charge_automatically' && customer.default_mandate) {
    const row = await chargeInvoice(tx, current, customer.default_mandate, attempt, now);
    return { row, action: 'charge_requested' };
  }
  // send_invoice, or no card on file yet: the customer pays on the hosted page.
  const row = await sendInvoice(store, documents, tx, current, now);
  return { row, action: 'sent' };
}

/** collectInvoice of the invoice `id` (the billing engine's retries, by attempt number). */
export async function collectById(
  store: InvoiceStore,
  documents: InvoiceDocuments,
  tx: Tx,
  tenant: Tenant,
  id: string,
  attempt: number,
  now: Date,
): Promise<Collected> {
  const current = await store.lock(tx, tenant, id);
  const nothingDue = current.status !== 'open' || toMinor(current.amount_due) === 0n;
  const customer = nothingDue ? undefined : await store.customer(tx, tenant, current.customer_id);
  return collectInvoice(store, documents, tx, current, customer, attempt, now);
}

/** E-mails the invoice (invoice.sent); each send is its own mail (`sendKey`). */
export async function sendInvoice(
  store: InvoiceStore,
  documents: InvoiceDocuments,
  tx: Tx,
  current: InvoiceRow,
  now: Date,
): Promise<InvoiceRow> {
  transition(current.id, current.status, 'send');
  const email = current.customer_snapshot?.email;
  if (!email) {
    throw new ApiError(
      'parameter_invalid',
      `Customer '${current.customer_id}' has no email address to send the invoice to.`,
      'customer',
    );
  }
  const sendCount = current.send_count + 1;
  const row = await store.patch(tx, current, { send_count: sendCount, sent_at: now }, now);
  await documents.enqueueInvoiceMail(
    tx,
    {
      account: row.account_id,
      livemode: row.livemode,
      sendKey: `${row.id}:send:${sendCount}`,
      to: email,
      invoice: store.serialize(row),
    },
    now,
  );
  await store.emit(tx, 'invoice.sent', row, now);
  return row;
}

/** POST /:id/send: e-mails the invoice (a draft is finalized first). */
export async function sendRequested(
  store: InvoiceStore,
  documents: InvoiceDocuments,
  tx: Tx,
  tenant: Tenant,
  id: string,
  sellerName: string,
): Promise<InvoiceRow> {
  let current = await store.lock(tx, tenant, id);
  const now = await store.nowFor(tx, current.test_clock);
  if (current.status === 'draft') {
    current = await store.nameSeller(tx, id, sellerName);
    current = await finalizeInvoice(store, tx, tenant, current, now);
  }
  return sendInvoice(store, documents, tx, current, now);
}

/**
 * Asks the payments service to charge `mandate` for the amount due, as attempt `attempt`
 * (reference `${invoice}:${attempt}`: the same attempt twice is charged once).
 */
export async function chargeInvoice(
  tx: Tx,
  current: InvoiceRow,
  mandate: string,
  attempt: number,
  now: Date,
): Promise<InvoiceRow> {
  transition(current.id, current.status, 'charge');
  const reference = `${current.id}:${attempt}`;
  const pending: LastPayment = {
    status: 'pending',
    transaction: null,
    reference,
    failure_code: null,
    failure_message: null,
    at: now.toISOString(),
  };
  const attemptCount = Math.max(attempt, current.attempt_count);
  // Nothing in this transaction reads or writes the invoice after its charge is asked for
  // (the renewal, a retry, /pay and create-and-send all end here): the write goes with the
  // commit (Tx.writeAtCommit), a round trip fewer, and the row is returned as it will read.
  tx.writeAtCommit(
    'update invoicing.invoices set attempt_count = $2, last_payment = $3::jsonb, updated_at = $4 where id = $1',
    [current.id, attemptCount, JSON.stringify(pending), now],
  );
  const row: InvoiceRow = Object.assign({}, current, {
    attempt_count: attemptCount,
    last_payment: pending,
    updated_at: now,
  });
  const command: CommandEnvelope<ChargeMandateCommand> = {
    id: newSortableId('cmd'),
    type: 'payment.charge_mandate',
    created_at: now.toISOString(),
    livemode: row.livemode,
    account: row.account_id,
    data: {
      mandate,
      amount: minorToJson(toMinor(row.amount_due)),
      currency: row.currency,
      invoice: row.id,
      customer: row.customer_id,
      reference,
      description: `Invoice ${row.number ?? row.id}`,
    },
  };
  // Sent if and only if this transaction commits (the outbox; the relay publishes it).
  await lastValueFrom(new OutboxClient(tx).emit(TOPICS.paymentsCommands, command));
  return row;
}
