// A German-speaking customer's documents: the invoice e-mail, its PDF attachment, the hosted
// invoice page, the e-mail's portal link and a quote's e-mail and page all come in German.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pathOf } from '../../support/pages';
import { eventually } from '../../support/platform';
import { merchantApi, type PortalContext } from './portal.helpers';

async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'paygrid-portal-'));
  try {
    const file = join(dir, 'invoice.pdf');
    await writeFile(file, pdf);
    return (await promisify(execFile)('pdftotext', ['-layout', file, '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function germanDocumentCases(ctx: () => PortalContext) {
  const api = merchantApi(ctx);

  it("a German customer's invoice page, e-mail, PDF and the e-mail's portal link come in German", async () => {
    const { platform, smtp } = ctx();
    expect((await api('POST', '/v1/account', { trading_name: 'Acme Studio' })).status).toBe(200);
    const email = 'kunde@example.test';
    const customer = await api('POST', '/v1/customers', {
      name: 'Jürgen Größe',
      email,
      currency: 'EUR',
      preferred_locales: ['de'],
    });
    const subscription = await api('POST', '/v1/subscriptions', {
      customer: customer.body.id,
      items: [
        {
          description: 'Pro',
          unit_amount: 2_500,
          currency: 'EUR',
          quantity: 1,
          interval: 'month',
          interval_count: 1,
        },
      ],
      collection_method: 'send_invoice',
      days_until_due: 14,
    });
    expect(subscription.status).toBe(200);
    const invoice = (await api('GET', `/v1/invoices/${subscription.body.latest_invoice}`)).body;
    expect(invoice.customer_details.preferred_locales).toEqual(['de']);
    const received = await eventually(async () => smtp.received.find((r) => r.envelopeTo.includes(email)));
    const mail = received.mail;
    expect(mail.subject).toBe(`Rechnung ${invoice.number} von Acme Studio`);
    const text = String(mail.text);
    expect(text).toContain('Guten Tag Jürgen Größe,');
    expect(text).toMatch(
      new RegExp(
        `Acme Studio hat Ihnen die Rechnung ${invoice.number} über 25,00\\s€ gesendet, fällig am \\d{1,2}\\. \\S+ \\d{4}\\.`,
      ),
    );
    expect(text).toContain('Die Rechnung ist als PDF angehängt.');
    expect(String(mail.html)).toContain('<html lang="de">');
    // The PDF attachment in German.
    const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf');
    expect(pdf).toBeDefined();
    const pdfWords = await pdfText(pdf?.content ?? Buffer.alloc(0));
    for (const word of [
      'RECHNUNG',
      'Rechnungsdatum',
      'RECHNUNG AN',
      'Jürgen Größe',
      'Fälliger Betrag',
      'Seite 1 von 1',
    ]) {
      expect({ word, found: pdfWords.includes(word) }).toEqual({ word, found: true });
    }
    // The hosted invoice page in German.
    const page = String((await platform.api(undefined, 'GET', pathOf(invoice.hosted_url))).body);
    expect(page).toContain('<html lang="de">');
    expect(page).toContain(`<h1>Rechnung ${invoice.number}</h1>`);
    expect(page).toContain('Fälliger Betrag: <span id="amount-due">25,00\u00a0€</span>');
    expect(page).toContain('PDF herunterladen');
    // The subscription mail's "manage" link opens the customer's portal, in German.
    const manage = /Rechnungen, Abonnements und gespeicherte Karten verwalten: (\S+)/.exec(text)?.[1];
    expect(manage).toBeDefined();
    const portal = await platform.api(undefined, 'GET', pathOf(String(manage)));
    expect(portal.status).toBe(200);
    expect(String(portal.body)).toContain('<h1>Ihr Konto</h1>');
    expect(String(portal.body)).toContain(invoice.number);
    expect(String(portal.body)).toContain('Abonnements');
    // A quote for the same customer: its e-mail and page are German too.
    const estimate = await api('POST', '/v1/estimates', {
      kind: 'quote',
      customer: customer.body.id,
      lines: [{ description: 'Gartenplanung', quantity: 1, unit_amount: 100_000, tax_rate_bps: 1900 }],
    });
    const quote = (await api('POST', `/v1/estimates/${estimate.body.id}/send`)).body;
    expect(quote.status).toBe('sent');
    const quoteMail = await eventually(async () =>
      smtp.received.find((r) => r.envelopeTo.includes(email) && String(r.mail.subject).startsWith('Angebot')),
    );
    expect(quoteMail.mail.subject).toBe(`Angebot ${quote.number} von Acme Studio`);
    expect(String(quoteMail.mail.text)).toContain(
      `Acme Studio hat Ihnen das Angebot ${quote.number} über 1.190,00\u00a0€ gesendet.`,
    );
    const quotePage = String((await platform.api(undefined, 'GET', pathOf(quote.public_url))).body);
    expect(quotePage).toContain('<html lang="de">');
    expect(quotePage).toContain(`<h1>Angebot ${quote.number}</h1>`);
    expect(quotePage).toContain('Angebot annehmen');
    expect(quotePage).toContain('Leistungsumfang');
  }, 60_000);
}
