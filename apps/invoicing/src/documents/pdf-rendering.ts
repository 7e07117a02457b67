// Where PDFs are drawn: on worker threads (piscina), not on the event loop that answers the
// API, consumes the bus and sends the mail. An invoice PDF is about 4 ms of CPU alone and
// 8 to 12 under load (pdfkit, fontkit's shaping and subsetting of the embedded Noto Sans:
// bench/README.md findings 32 and 33), and the mail worker draws one for every invoice it
// sends: on the event loop that held the invoicing process at one core under invoice
// creates while the machine's other core had room (bench/README.md finding 21).
// A thread also keeps a long document from delaying every request queued behind it.
//
// The view crosses to the thread by structured clone: bigints and Dates survive, Buffers arrive
// as Uint8Arrays (made Buffers again in pdf-worker.ts), and `messages`, which holds functions,
// travels as the locales it was made from. With no threads (PDF_THREADS=0), or when the
// compiled worker is absent (the app run from its TypeScript sources, as the tests do), the
// PDF is drawn here, as before. The drawing modules (pdfkit, fontkit) are imported then, at the
// first PDF drawn here: a process whose threads draw them never loads them on its main thread.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Piscina from 'piscina';
import type { Logger } from '@paygrid/platform';
import type { InvoiceDocumentView, PdfArchive } from './invoice-pdf';
import type { ReceiptView } from './receipt-pdf';

/** What a PDF thread draws: a view without its `messages`, and the locales to make them from. */
export type PdfJob =
  | {
      kind: 'invoice';
      view: Omit<InvoiceDocumentView, 'messages'>;
      preferred?: string[];
      archive?: PdfArchive;
    }
  | { kind: 'receipt'; view: Omit<ReceiptView, 'messages'>; preferred?: string[] };

/** A thread that has drawn nothing for this long exits; the next PDF starts one again. */
const IDLE_THREAD_MS = 60_000;

let pool: Piscina | undefined;

/**
 * Gives this process `threads` PDF threads (0: PDFs are drawn on the event loop). One process
 * has one invoicing service, so the pool is the module's; the part stops it (after HTTP and
 * the mail queue, whose work uses it).
 */
export function startPdfThreads(
  threads: number,
  logger: Logger,
  filename = join(__dirname, 'pdf-worker.js'),
): { stop(): Promise<void> } {
  if (threads > 0 && existsSync(filename)) {
    pool = new Piscina({ filename, minThreads: 0, maxThreads: threads, idleTimeout: IDLE_THREAD_MS });
  } else if (threads > 0) {
    logger.info(
      { filename },
      'no compiled PDF worker (running from sources): PDFs are drawn on the event loop',
    );
  }
  return {
    async stop() {
      const running = pool;
      pool = undefined;
      await running?.destroy();
    },
  };
}

/** The PDFs the threads have drawn since they started (0 without threads). */
export function pdfsDrawnOnThreads(): number {
  return pool?.completed ?? 0;
}

function onThread(job: PdfJob): Promise<Buffer> | undefined {
  return pool
    ?.run(job, { name: 'draw' })
    .then((bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** The invoice (or quote, estimate) as a PDF; archival (PDF/A-3) with `archive`. */
export function renderInvoicePdf(view: InvoiceDocumentView, archive?: PdfArchive): Promise<Buffer> {
  const { messages, ...rest } = view;
  return (
    onThread({
      kind: 'invoice',
      view: rest,
      ...(messages ? { preferred: [...messages.preferred] } : {}),
      ...(archive ? { archive } : {}),
    }) ?? import('./invoice-pdf').then(({ drawInvoicePdf }) => drawInvoicePdf(view, archive))
  );
}

/** The payment receipt as a PDF. */
export function renderReceiptPdf(view: ReceiptView): Promise<Buffer> {
  const { messages, ...rest } = view;
  return (
    onThread({ kind: 'receipt', view: rest, ...(messages ? { preferred: [...messages.preferred] } : {}) }) ??
    import('./receipt-pdf').then(({ drawReceiptPdf }) => drawReceiptPdf(view))
  );
}
