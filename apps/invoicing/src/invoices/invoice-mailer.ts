// What invoices need from the documents module (src/documents, src/mail): queue the e-mail
// of one send action inside the caller's transaction, and render the PDF and e-invoices. Invoices
// depend on this port only; src/invoicing.ts wires the documents module's implementation.

import type { Tx } from '@paygrid/platform';
import type { SerializedInvoice } from './invoice.serializer';

export interface InvoiceMail {
  account: string;
  livemode: boolean;
  /**
   * Unique per send action (`${invoice}:send:${n}`): the queue stores one mail per key, so a
   * retried transaction or job never sends twice.
   */
  sendKey: string;
  to: string;
  invoice: SerializedInvoice;
}

export interface InvoiceDocuments {
  /** Queues the invoice e-mail (link to the hosted page, PDF attached) in `tx`; sent after commit. */
  enqueueInvoiceMail(tx: Tx, mail: InvoiceMail, now: Date): Promise<void>;
  /** The invoice as a PDF document (with the account's logo). */
  renderInvoicePdf(invoice: SerializedInvoice, account: string): Promise<Buffer>;
  /**
   * The invoice as a Factur-X PDF/A-3 with its CII XML embedded (EN 16931 profile); 409
   * invoice_incomplete naming what an e-invoice needs and the invoice lacks.
   */
  renderFacturX(invoice: SerializedInvoice, account: string): Promise<Buffer>;
  /** The invoice as UBL (EN 16931), or 409 invoice_incomplete as renderFacturX. */
  renderUbl(invoice: SerializedInvoice): string;
}
