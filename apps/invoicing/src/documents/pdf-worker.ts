// A PDF thread (pdf-rendering.ts): draws the job it is given and answers the bytes. The
// fonts are parsed and the shaped words cached once per thread (pdf-parts.ts).

import { messagesFor } from '@paygrid/platform';
import { drawInvoicePdf } from './invoice-pdf';
import type { PdfJob } from './pdf-rendering';
import { drawReceiptPdf } from './receipt-pdf';

/**
 * A Buffer again: structured clone hands a Buffer over as a plain Uint8Array (pdfkit 0.20 would
 * take either, but the views promise Buffers). No copy: a view on the same memory.
 */
const bytes = (value: Uint8Array): Buffer => Buffer.from(value.buffer, value.byteOffset, value.byteLength);

export function draw(job: PdfJob): Promise<Buffer> {
  const messages = job.preferred ? { messages: messagesFor(job.preferred) } : {};
  const logo = job.view.logo ? { logo: bytes(job.view.logo) } : {};
  if (job.kind === 'receipt') return drawReceiptPdf({ ...job.view, ...logo, ...messages });
  const archive = job.archive && {
    ...job.archive,
    attachments: job.archive.attachments.map((file) => ({ ...file, content: bytes(file.content) })),
  };
  return drawInvoicePdf({ ...job.view, ...logo, ...messages }, archive);
}
