// PDFs drawn on a PDF thread (the compiled worker, as the built app runs it) are the PDFs drawn
// on the event loop: the same text in the customer's language (the messages travel as their
// locales), the seller's logo (the test fails when the thread draws without it), and an
// archival rendering's attachment, byte for byte.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import { createLogger, messagesFor } from '@paygrid/platform';
import { drawInvoicePdf, type InvoiceDocumentView } from '../../apps/invoicing/src/documents/invoice-pdf';
import {
  pdfsDrawnOnThreads,
  renderInvoicePdf,
  renderReceiptPdf,
  startPdfThreads,
} from '../../apps/invoicing/src/documents/pdf-rendering';
import { drawReceiptPdf, type ReceiptView } from '../../apps/invoicing/src/documents/receipt-pdf';
import { computeTotals } from '../../apps/invoicing/src/invoices/totals';
import { pngLogo } from '../support/png';

// The first test starts the PDF thread and loads pdfkit and the fonts twice (in the thread, and
// on this thread since pdfkit loads on first use): 1.4 s alone, over the unit project's 5 s
// default in CI's npm test (three Jest workers on two cores). Nothing here measures speed.
jest.setTimeout(30_000);

const run = promisify(execFile);
const WORKER = join(__dirname, '../../apps/invoicing/dist/documents/pdf-worker.js');
let dir: string;
let threads: { stop(): Promise<void> };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paygrid-pdf-threads-'));
  threads = startPdfThreads(1, createLogger('test', 'silent'), WORKER);
});
afterAll(async () => {
  await threads.stop();
  await rm(dir, { recursive: true, force: true });
});

async function textOf(pdf: Buffer): Promise<string> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run('pdftotext', ['-layout', file, '-']);
  return stdout;
}

const images = (pdf: Buffer) => pdf.toString('latin1').match(/\/Subtype \/Image/g)?.length ?? 0;

function invoiceView(): InvoiceDocumentView {
  const totals = computeTotals([
    { description: 'Beratung (Stunden)', quantity: 3, unit_amount: 12_500, tax_rate_bps: 1900 },
  ]);
  return {
    number: 'RE-0042',
    status: 'open',
    currency: 'EUR',
    issue_date: new Date('2026-03-01T10:00:00Z'),
    due_date: new Date('2026-03-31T10:00:00Z'),
    seller: {
      name: 'Nordwind Händler GmbH',
      address: { line1: 'Hafenstraße 5', city: 'Köln', country: 'DE' },
    },
    customer: { name: 'Zoë Łukasiewicz', email: 'zoe@example.test' },
    lines: totals.lines,
    subtotal: totals.subtotal,
    discount_total: totals.discount_total,
    tax_total: totals.tax_total,
    total: totals.total,
    amount_paid: 0n,
    amount_due: totals.total,
    link_url: 'http://localhost:3000/i/tok_abc123',
    logo: pngLogo(64, 16),
    messages: messagesFor(['de-AT']),
  };
}

it('draws an invoice on the thread as on the event loop: German words and money, the logo', async () => {
  const before = pdfsDrawnOnThreads();
  const threaded = await renderInvoicePdf(invoiceView());
  expect(pdfsDrawnOnThreads()).toBe(before + 1);
  expect(Buffer.isBuffer(threaded)).toBe(true);
  const inline = await drawInvoicePdf(invoiceView());
  const text = await textOf(threaded);
  expect(text).toBe(await textOf(inline));
  // German: the words and the money ("375,00 €" before tax, "446,25 €" with 19 %).
  expect(text).toContain('Rechnung');
  expect(text).toContain('446,25 €');
  expect(text).toContain('Zoë Łukasiewicz');
  expect(images(threaded)).toBe(images(inline));
  expect(images(threaded)).toBeGreaterThan(0);
});

it('draws a receipt on the thread as on the event loop', async () => {
  const view: ReceiptView = {
    messages: messagesFor(['fr']),
    number: 'RCPT-0007',
    seller_name: 'Nordwind',
    seller_lines: ['Köln'],
    paid_at: new Date('2026-03-02T09:30:00Z'),
    amount: 44_625n,
    amount_refunded: 0n,
    currency: 'EUR',
    payment_method: 'Visa ending in 4242',
    invoice_number: 'RE-0042',
    email: 'zoe@example.test',
    logo: pngLogo(64, 16),
  };
  const before = pdfsDrawnOnThreads();
  const threaded = await renderReceiptPdf(view);
  expect(pdfsDrawnOnThreads()).toBe(before + 1);
  const inline = await drawReceiptPdf(view);
  expect(await textOf(threaded)).toBe(await textOf(inline));
  expect((await textOf(threaded)).replace(/\s+/g, ' ')).toContain('446,25 €');
  expect(images(threaded)).toBe(images(inline));
  expect(images(threaded)).toBeGreaterThan(0);
});

it("keeps an archival rendering's attachment, byte for byte", async () => {
  const xml = Buffer.from('<?xml version="1.0"?><x>Zoë</x>', 'utf8');
  const archive = {
    attachments: [
      {
        name: 'factur-x.xml',
        content: xml,
        mime: 'text/xml',
        description: 'invoice data',
        relationship: 'Alternative' as const,
      },
    ],
    xmp: '',
  };
  const threaded = await renderInvoicePdf(invoiceView(), archive);
  const source = threaded.toString('latin1');
  expect(source).toContain('(factur-x.xml)');
  expect(source).toContain('/AFRelationship /Alternative');
  // The embedded file's stream, inflated, is the XML given.
  const streams = [...source.matchAll(/\/Type \/EmbeddedFile[^]*?stream\n([^]*?)\nendstream/g)];
  expect(streams).toHaveLength(1);
  const start = source.indexOf(streams[0][1]);
  const bytes = threaded.subarray(start, start + Buffer.byteLength(streams[0][1], 'latin1'));
  expect(inflateSync(bytes).equals(xml)).toBe(true);
});
