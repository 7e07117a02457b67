// EN 16931 e-invoices (issue 17 item 3), in both modes: a finalized invoice with two standard
// rates, a zero-rated line, an exempt line and a discount, a reverse-charge invoice and an
// intra-community supply, from a Polish seller (with a logo) to a German customer with a VAT
// number, are served as UBL 2.1 (PEPPOL BIS Billing 3.0 shape) and as Factur-X PDF/A-3b with
// the CII XML embedded, whose totals are the invoices'; the Mustang project's validator
// (scripts/einvoice/validate.sh, from Maven Central) finds every UBL, every Factur-X PDF (its
// PDF/A part and its XML) and the CII extracted from them completely valid against EN 16931,
// while a copy with its amount due changed by one cent is refused. One validator run for all
// the files (one JVM start). Line VAT categories are checked when the invoice is written;
// drafts and invoices missing what EN 16931 requires are 409 invoice_incomplete naming it.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, startPlatform, type Platform, type TestAccount } from '../support/platform';
import { pngLogo } from '../support/png';

let platform: Platform;
let account: TestAccount;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paygrid-e-invoice-'));
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
  await rm(dir, { recursive: true, force: true });
});

const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);
const run = promisify(execFile);

/** GETs a binary document into `dir/name`: the response and the file's path. */
async function download(path: string, name: string) {
  const response = await fetch(`${platform.url}${path}`, {
    headers: { authorization: `Bearer ${account.testKey}` },
  });
  const file = join(dir, name);
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
  return { response, file };
}

/** The Factur-X PDF of an invoice and the CII XML detached from it (pdfdetach, poppler-utils). */
async function facturX(invoiceId: string, name: string) {
  const { response, file } = await download(`/v1/invoices/${invoiceId}/pdf?format=facturx`, `${name}.pdf`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  const { stdout: attachments } = await run('pdfdetach', ['-list', file]);
  expect(attachments).toContain('1: factur-x.xml');
  const cii = join(dir, `${name}-cii.xml`);
  await run('pdfdetach', ['-save', '1', '-o', cii, file]);
  return { pdf: file, cii, xml: await readFile(cii, 'utf8') };
}

/** Runs the validator on `files`: its exit code and its reports. */
function validate(files: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      join(ROOT, 'scripts', 'einvoice', 'validate.sh'),
      files,
      { maxBuffer: 32 * 1024 * 1024, timeout: 240_000 },
      (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout }),
    );
  });
}

it('serves a finalized invoice as UBL that the EN 16931 validator accepts, and a tampered copy it refuses', async () => {
  const profile = await api('POST', '/v1/account', {
    legal_name: 'Zoë Łukasiewicz Sp. z o.o.',
    trading_name: 'Zoë Studio',
    address: { line1: 'ul. Świętokrzyska 12', city: 'Warszawa', postal_code: '00-916', country: 'PL' },
    tax_ids: [{ type: 'eu_vat', value: 'PL5260250274' }],
    support_email: 'billing@zoe.example',
  });
  expect(profile.status).toBe(200);
  const logo = await api('POST', '/v1/account/logo', { file: pngLogo(60, 20).toString('base64') });
  expect(logo.status).toBe(200);
  const customer = await api('POST', '/v1/customers', {
    // '&' and '<' reach the PDF's XMP metadata (the document's subject names the customer).
    name: 'Jürgen Weiß & Söhne <Berlin> GmbH',
    email: 'buchhaltung@weiss.example',
    currency: 'EUR',
    tax_id: 'DE 136 695 976',
    address: { line1: 'Hauptstraße 5', city: 'Berlin', postal_code: '10115', country: 'DE' },
  });
  expect(customer.status).toBe(200);
  const created = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    lines: [
      { description: 'Design <days> & "workshops"', quantity: 3, unit_amount: 120_000, tax_rate_bps: 2300 },
      { description: 'Hosting (months)', quantity: 12, unit_amount: 2_499, tax_rate_bps: 2300 },
      { description: 'Printed manual', quantity: 2, unit_amount: 1_550, tax_rate_bps: 800 },
      { description: 'Export shipping', quantity: 1, unit_amount: 4_000, tax_rate_bps: 0 },
      {
        description: 'Language course',
        quantity: 1,
        unit_amount: 30_000,
        tax_category: 'E',
        tax_exemption_reason: 'Exempt under Article 132(1)(i) of Directive 2006/112/EC',
      },
    ],
    discount: { percent_bps: 500 },
  });
  expect(created.status).toBe(200);
  const invoice = created.body;
  expect(invoice.status).toBe('open');

  const ubl = await api('GET', `/v1/invoices/${invoice.id}/ubl`);
  expect(ubl.status).toBe(200);
  expect(ubl.headers.get('content-type')).toBe('application/xml');
  const xml = String(ubl.body);
  expect(xml).toContain(`<cbc:ID>${invoice.number}</cbc:ID>`);
  expect(xml).toContain('<cbc:CompanyID>PL5260250274</cbc:CompanyID>');
  expect(xml).toContain('<cbc:CompanyID>DE136695976</cbc:CompanyID>');
  expect(xml).toContain('Design &lt;days&gt; &amp; &quot;workshops&quot;');
  const euros = (minor: number) => (minor / 100).toFixed(2);
  expect(xml).toContain(
    `<cbc:PayableAmount currencyID="EUR">${euros(invoice.amount_due)}</cbc:PayableAmount>`,
  );
  expect(xml).toContain(`<cbc:TaxAmount currencyID="EUR">${euros(invoice.tax_total)}</cbc:TaxAmount>`);
  // Four VAT breakdowns: 23 % and 8 % standard rated, zero rated, exempt (with its reason).
  expect(xml.match(/<cac:TaxSubtotal>/g)).toHaveLength(4);
  expect(xml).toContain(
    '<cbc:ID>E</cbc:ID><cbc:Percent>0</cbc:Percent><cbc:TaxExemptionReason>Exempt under Article 132(1)(i) of Directive 2006/112/EC</cbc:TaxExemptionReason>',
  );

  // Reverse charge: services to a VAT-registered business in another member state.
  const reverse = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    lines: [
      {
        description: 'Consulting',
        quantity: 10,
        unit_amount: 15_000,
        tax_category: 'AE',
        tax_exemption_reason: 'Reverse charge',
      },
      {
        description: 'Travel',
        quantity: 1,
        unit_amount: 8_000,
        tax_category: 'AE',
        tax_exemption_reason: 'Reverse charge',
      },
    ],
    discount: { amount: 1_000 },
  });
  expect(reverse.status).toBe(200);
  expect(reverse.body.tax_total).toBe(0);
  expect(reverse.body.lines[0]).toMatchObject({ tax_category: 'AE', tax_exemption_reason: 'Reverse charge' });
  const reverseXml = String((await api('GET', `/v1/invoices/${reverse.body.id}/ubl`)).body);
  expect(reverseXml).toContain('<cbc:ID>AE</cbc:ID>');
  // The PDF says so, as the law asks of a reverse-charge invoice.
  const pdf = await fetch(`${platform.url}/v1/invoices/${reverse.body.id}/pdf`, {
    headers: { authorization: `Bearer ${account.testKey}` },
  });
  const pdfFile = join(dir, 'reverse.pdf');
  await writeFile(pdfFile, Buffer.from(await pdf.arrayBuffer()));
  const { stdout: pdfText } = await run('pdftotext', ['-layout', pdfFile, '-']);
  expect(pdfText).toContain('Reverse charge: Reverse charge');
  // The seller's logo is drawn on the PDF: a 60 x 20 RGB image with its alpha as a soft mask.
  const { stdout: images } = await run('pdfimages', ['-list', pdfFile]);
  expect(images).toMatch(/\n\s+1\s+0\s+image\s+60\s+20\s+rgb/);
  expect(images).toMatch(/\n\s+1\s+1\s+smask\s+60\s+20\s+gray/);

  // An intra-community supply of goods (K): VAT-exempt, to a VAT-registered buyer in another
  // member state, declared delivered to the buyer's country.
  const intra = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    lines: [
      {
        description: 'Office chairs',
        quantity: 4,
        unit_amount: 21_000,
        tax_category: 'K',
        tax_exemption_reason: 'Intra-community supply, Article 138 of Directive 2006/112/EC',
      },
    ],
  });
  expect(intra.status).toBe(200);
  const intraXml = String((await api('GET', `/v1/invoices/${intra.body.id}/ubl`)).body);
  expect(intraXml).toContain('<cbc:ID>K</cbc:ID>');
  expect(intraXml).toContain('<cac:DeliveryLocation><cac:Address><cac:Country><cbc:IdentificationCode>DE<');

  // The same invoices as Factur-X: PDF/A-3b with the CII XML, whose totals are the invoice's.
  const fx = await facturX(invoice.id, 'facturx');
  expect(fx.xml).toContain('<ram:ID>urn:cen.eu:en16931:2017</ram:ID>');
  expect(fx.xml).toContain(`<ram:DuePayableAmount>${euros(invoice.amount_due)}</ram:DuePayableAmount>`);
  expect(fx.xml.match(/<ram:ApplicableTradeTax><ram:CalculatedAmount/g)).toHaveLength(4);
  const { stdout: fxText } = await run('pdftotext', ['-layout', fx.pdf, '-']);
  expect(fxText).toContain('Zoë Studio');
  expect(fxText).toContain(invoice.number);
  const fxReverse = await facturX(reverse.body.id, 'facturx-reverse');
  expect(fxReverse.xml).toContain('<ram:CategoryCode>AE</ram:CategoryCode>');
  const fxIntra = await facturX(intra.body.id, 'facturx-intra');
  expect(fxIntra.xml).toContain('<ram:CategoryCode>K</ram:CategoryCode>');

  const good = join(dir, 'invoice.xml');
  const reverseFile = join(dir, 'reverse-charge.xml');
  const intraFile = join(dir, 'intra-community.xml');
  const bad = join(dir, 'tampered.xml');
  await writeFile(good, xml);
  await writeFile(reverseFile, reverseXml);
  await writeFile(intraFile, intraXml);
  await writeFile(
    bad,
    xml.replace(
      /<cbc:PayableAmount currencyID="EUR">[0-9.]+</,
      `<cbc:PayableAmount currencyID="EUR">${euros(invoice.amount_due + 1)}<`,
    ),
  );
  const valid = [good, reverseFile, intraFile, ...[fx, fxReverse, fxIntra].flatMap((f) => [f.pdf, f.cii])];
  const result = await validate([...valid, bad]);
  for (const file of valid) expect(result.out).toContain(`== ${file}: valid`);
  // The PDF/A part was checked (veraPDF inside the validator), not only the XML.
  expect(
    result.out.match(
      /ValidationResult \[flavour=3b, totalAssertions=\d+, assertions=\[\], isCompliant=true\]/g,
    ),
  ).toHaveLength(3);
  expect(result.out).toContain(`== ${bad}: INVALID`);
  expect(result.out).toContain('[BR-CO-16]');
  expect(result.code).toBe(1);
}, 300_000);

it("checks each line's VAT category against its rate and exemption reason", async () => {
  const customer = await api('POST', '/v1/customers', {
    name: 'Lines Ltd',
    email: 'ap@lines.test',
    currency: 'EUR',
  });
  const line = { description: 'Work', quantity: 1, unit_amount: 1000 };
  const cases: [object[], number, string, string][] = [
    [[{ ...line, tax_category: 'S' }], 400, 'parameter_invalid', 'lines[0][tax_rate_bps]'],
    [
      [{ ...line, tax_category: 'Z', tax_rate_bps: 2000 }],
      400,
      'parameter_invalid',
      'lines[0][tax_rate_bps]',
    ],
    [[{ ...line, tax_category: 'E' }], 400, 'parameter_missing', 'lines[0][tax_exemption_reason]'],
    [
      [{ ...line, tax_rate_bps: 2000, tax_exemption_reason: 'x' }],
      400,
      'parameter_invalid',
      'lines[0][tax_exemption_reason]',
    ],
    [
      [
        { ...line, tax_category: 'AE', tax_exemption_reason: 'Reverse charge' },
        { ...line, tax_category: 'AE', tax_exemption_reason: 'Autoliquidation' },
      ],
      400,
      'parameter_invalid',
      'lines[1][tax_exemption_reason]',
    ],
    [[{ ...line, tax_category: 'K' }], 400, 'parameter_missing', 'lines[0][tax_exemption_reason]'],
    [[{ ...line, tax_category: 'O' }], 400, 'parameter_invalid', 'lines[0][tax_category]'],
  ];
  for (const [lines, status, code, param] of cases) {
    const response = await api('POST', '/v1/invoices', { customer: customer.body.id, lines, send: false });
    expect({
      lines,
      status: response.status,
      code: response.body.error?.code,
      param: response.body.error?.param,
    }).toEqual({
      lines,
      status,
      code,
      param,
    });
  }
  const plain = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    lines: [line, { ...line, tax_rate_bps: 2000 }],
    send: false,
  });
  expect(plain.body.lines.map((l: any) => [l.tax_category, l.tax_exemption_reason])).toEqual([
    ['Z', null],
    ['S', null],
  ]);
});

it('answers 409 invoice_incomplete for a draft, and names what the seller or customer lacks', async () => {
  const customer = await api('POST', '/v1/customers', { name: 'No Address Ltd', email: 'ap@noaddress.test' });
  const draft = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    currency: 'EUR',
    lines: [{ description: 'Work', quantity: 1, unit_amount: 1000, tax_rate_bps: 2000 }],
    send: false,
  });
  const early = await api('GET', `/v1/invoices/${draft.body.id}/ubl`);
  expect(early.status).toBe(409);
  expect(early.body.error.code).toBe('invoice_incomplete');
  expect(early.body.error.message).toContain('a number (finalize the invoice)');
  const earlyPdf = await api('GET', `/v1/invoices/${draft.body.id}/pdf?format=facturx`);
  expect(earlyPdf.status).toBe(409);
  expect(earlyPdf.body.error.code).toBe('invoice_incomplete');
  const badFormat = await api('GET', `/v1/invoices/${draft.body.id}/pdf?format=xrechnung`);
  expect(badFormat.status).toBe(400);
  expect(badFormat.body.error.param).toBe('format');
  await api('POST', `/v1/invoices/${draft.body.id}/finalize`);
  const finalized = await api('GET', `/v1/invoices/${draft.body.id}/ubl`);
  expect(finalized.status).toBe(409);
  expect(finalized.body.error.message).toContain("the customer's country");

  // A seller without a profile: name, country, electronic address and VAT number are missing.
  const bare = await platform.newAccount(['invoicing']);
  const theirCustomer = await platform.api(bare.testKey, 'POST', '/v1/customers', {
    name: 'Buyer SA',
    email: 'ap@buyer.test',
    currency: 'EUR',
    address: { line1: '1 rue de Rivoli', city: 'Paris', postal_code: '75001', country: 'FR' },
  });
  const theirs = await platform.api(bare.testKey, 'POST', '/v1/invoices', {
    customer: theirCustomer.body.id,
    lines: [{ description: 'Work', quantity: 1, unit_amount: 1000, tax_rate_bps: 2000 }],
  });
  const missing = await platform.api(bare.testKey, 'GET', `/v1/invoices/${theirs.body.id}/ubl`);
  expect(missing.status).toBe(409);
  expect(missing.body.error.message).toContain("the seller's country");
  expect(missing.body.error.message).toContain("the seller's VAT number");
  // Reverse charge needs the buyer's VAT number, in its country's format.
  const malformed = await platform.api(bare.testKey, 'POST', '/v1/customers', {
    name: 'Käufer GmbH',
    email: 'ap@kaeufer.test',
    currency: 'EUR',
    tax_id: 'DE12',
    address: { line1: 'Hauptstraße 1', city: 'Köln', postal_code: '50667', country: 'DE' },
  });
  const reverse = await platform.api(bare.testKey, 'POST', '/v1/invoices', {
    customer: malformed.body.id,
    lines: [
      {
        description: 'Work',
        quantity: 1,
        unit_amount: 1000,
        tax_category: 'AE',
        tax_exemption_reason: 'Reverse charge',
      },
    ],
  });
  const reverseUbl = await platform.api(bare.testKey, 'GET', `/v1/invoices/${reverse.body.id}/ubl`);
  expect(reverseUbl.status).toBe(409);
  expect(reverseUbl.body.error.message).toContain(
    "the customer's VAT number (tax_id, for reverse charge or an intra-community supply: DE12 is not in the format of a DE VAT number)",
  );
  // Another account's invoice is 404, as everywhere.
  expect((await api('GET', `/v1/invoices/${theirs.body.id}/ubl`)).status).toBe(404);
});
