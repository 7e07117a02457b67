// The invoice PDF read back with pdftotext (poppler-utils): every figure a reader needs is
// there, formatted with the currency's ISO 4217 exponent, and long documents paginate.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { computeTotals } from '../../apps/invoicing/src/invoices/totals';
import type { InvoiceDocumentView } from '../../apps/invoicing/src/documents/invoice-pdf';
import { renderInvoicePdf } from '../../apps/invoicing/src/documents/pdf-rendering';

// The first test loads pdfkit and the embedded fonts (pdfkit loads on first use): 0.8 s alone,
// several times that in CI's npm test (three Jest workers on two cores). Nothing here measures speed.
jest.setTimeout(30_000);

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paygrid-pdf-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function textOf(pdf: Buffer): Promise<string> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run('pdftotext', ['-layout', file, '-']);
  return stdout;
}

function viewFor(
  currency: string,
  lines: { description: string; quantity: number; unit_amount: number; tax_rate_bps: number }[],
  discount?: { percent_bps: number },
): InvoiceDocumentView {
  const totals = computeTotals(lines, discount);
  return {
    number: 'INV-0042',
    status: 'open',
    currency,
    issue_date: new Date('2026-03-01T10:00:00Z'),
    due_date: new Date('2026-03-31T10:00:00Z'),
    seller: {
      name: 'Northwind Traders',
      email: 'billing@northwind.test',
      address: { line1: '5 Harbour Road', city: 'Bristol', postal_code: 'BS1 4RN', country: 'GB' },
    },
    customer: {
      name: 'Jenny Rosen',
      email: 'jenny@example.test',
      tax_id: 'GB123456789',
      address: { line1: '1 High Street', city: 'London', postal_code: 'N1 9GU', country: 'GB' },
    },
    lines: totals.lines,
    subtotal: totals.subtotal,
    discount_total: totals.discount_total,
    discount_label: discount ? '10%' : null,
    tax_total: totals.tax_total,
    total: totals.total,
    amount_paid: 0n,
    amount_due: totals.total,
    link_url: 'http://localhost:3000/i/tok_abc123',
  };
}

it('renders seller, customer, number, dates, lines, tax by rate, totals, amount due and the payment link', async () => {
  const view = viewFor(
    'USD',
    [
      { description: 'Consulting (hours)', quantity: 3, unit_amount: 12_500, tax_rate_bps: 2000 },
      { description: 'Licence', quantity: 1, unit_amount: 99_999, tax_rate_bps: 500 },
      { description: 'Support plan', quantity: 2, unit_amount: 1_050, tax_rate_bps: 2000 },
    ],
    { percent_bps: 1000 },
  );
  const pdf = await renderInvoicePdf(view);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const text = await textOf(pdf);
  // subtotal 37 500 + 99 999 + 2 100 = 139 599; discount 10 % = 13 960 (half-even of 13 959.9)
  expect(view.subtotal).toBe(139_599n);
  expect(view.discount_total).toBe(13_960n);
  for (const expected of [
    'INVOICE',
    'No. INV-0042',
    'Northwind Traders',
    'BILL TO',
    'Jenny Rosen',
    '1 High Street',
    'N1 9GU London',
    'Tax ID: GB123456789',
    'Issue date',
    '1 March 2026',
    'Due date',
    '31 March 2026',
    'Consulting (hours)',
    '125.00 USD',
    '375.00 USD',
    '999.99 USD',
    '20%',
    '5%',
    'Subtotal',
    '1,395.99 USD',
    'Discount (10%)',
    '-139.60 USD',
    'http://localhost:3000/i/tok_abc123',
    'Page 1 of 1',
  ]) {
    expect(text).toContain(expected);
  }
  const line = (label: string) => text.split('\n').find((l) => l.includes(label)) ?? '';
  expect(line('Total')).toContain(
    `${(Number(view.total) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} USD`,
  );
  expect(line('Amount due')).toContain(
    `${(Number(view.amount_due) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} USD`,
  );
  const taxLines = text.split('\n').filter((l) => /Tax \d+% on/.test(l));
  expect(taxLines).toHaveLength(2);
  const taxSum = view.lines.reduce((sum, l) => sum + (l.tax_amount ?? 0n), 0n);
  expect(taxSum).toBe(view.tax_total);
  expect(view.total).toBe(view.subtotal - view.discount_total + view.tax_total);
});

it('formats amounts with the currency exponent (JPY 0, KWD 3)', async () => {
  const jpy = await textOf(
    await renderInvoicePdf(
      viewFor('JPY', [{ description: 'Tea', quantity: 2, unit_amount: 1_500, tax_rate_bps: 1000 }]),
    ),
  );
  expect(jpy).toContain('1,500 JPY');
  expect(jpy).toContain('3,300 JPY');
  const kwd = await textOf(
    await renderInvoicePdf(
      viewFor('KWD', [{ description: 'Dates', quantity: 1, unit_amount: 12_345, tax_rate_bps: 0 }]),
    ),
  );
  expect(kwd).toContain('12.345 KWD');
});

it('continues the table on further pages with page numbers, and titles quotes as quotes', async () => {
  const lines = Array.from({ length: 80 }, (_, i) => ({
    description: `Item ${i + 1}`,
    quantity: 1,
    unit_amount: 100,
    tax_rate_bps: 0,
  }));
  const view = {
    ...viewFor('EUR', lines),
    title: 'Quote',
    amount_paid: null,
    amount_due: null,
    due_date: null,
    valid_until: new Date('2026-04-15T00:00:00Z'),
  };
  const text = await textOf(await renderInvoicePdf(view));
  expect(text).toContain('QUOTE');
  expect(text).toContain('Valid until');
  expect(text).toContain('Item 80');
  expect(text).toMatch(/Page 2 of \d/);
  expect(text).toContain('80.00 EUR');
  expect(text).not.toContain('Amount due');
});

it('writes every European script exactly: the text reads back unchanged (embedded Noto Sans)', async () => {
  // Names of issue 17's customers: Helvetica (WinAnsi) turned the first into "Zoë V¶6–Pwicz Ltd".
  const names = {
    polish: 'Zoë Łukasiewicz Sp. z o.o.',
    polishStreet: 'ul. Świętokrzyska 12',
    czech: 'Příliš žluťoučký kůň s.r.o.',
    greek: 'Ελληνική Εταιρεία Α.Ε.',
    turkish: 'İstanbul Şirketi Ğüç A.Ş.',
    german: 'Größe & Söhne GmbH, Straße',
  };
  const view = viewFor('EUR', [
    { description: names.czech, quantity: 1, unit_amount: 1000, tax_rate_bps: 2100 },
    { description: names.greek, quantity: 2, unit_amount: 500, tax_rate_bps: 2400 },
    { description: names.turkish, quantity: 1, unit_amount: 250, tax_rate_bps: 2000 },
  ]);
  view.customer = {
    name: names.polish,
    email: 'biuro@lukasiewicz.example',
    tax_id: 'PL5260250274',
    address: { line1: names.polishStreet, city: 'Warszawa', postal_code: '00-116', country: 'PL' },
  };
  view.seller = { ...view.seller, name: names.german };
  const text = await textOf(await renderInvoicePdf({ ...view, lang: 'pl' }));
  for (const [script, name] of Object.entries(names)) {
    expect({ script, found: text.includes(name) }).toEqual({ script, found: true });
  }
});
