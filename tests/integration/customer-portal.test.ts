// The customer portal end to end, in both modes (issue 17 item 5): the merchant creates a
// portal session for a German-speaking customer; the customer opens the link, pays an open
// invoice through its hosted page, replaces the saved card on the payments service's card
// page, and cancels the subscription at the end of the period; the merchant receives
// invoice.paid, mandate.updated and subscription.updated. Then the guards: tenant isolation,
// expired or forged links, CSRF, single use of a form, and the account's cancellation switch.

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventAbout } from '../support/events';
import { csrfOf, decodeHtml, pathOf, payInvoiceOnHostedPage } from '../support/pages';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

let platform: Platform;
let account: TestAccount;
let smtp: SmtpSink;

const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);

/** Every href of the page that contains `fragment`, HTML-decoded. */
const links = (html: string, fragment: string) =>
  [...html.matchAll(/href="([^"]+)"/g)].map((m) => decodeHtml(m[1])).filter((h) => h.includes(fragment));

beforeAll(async () => {
  smtp = await startSmtpSink();
  platform = await startPlatform({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Paygrid <no-reply@mail.test>' } });
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
  await smtp?.close();
});

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

async function germanCustomerWithCardAndSubscription() {
  expect(
    (await api('POST', '/v1/account', { trading_name: 'Acme Studio', portal_subscription_cancel: true }))
      .status,
  ).toBe(200);
  const customer = await api('POST', '/v1/customers', {
    name: 'Zoë Łukasiewicz',
    email: 'zoe@example.test',
    currency: 'EUR',
    preferred_locales: ['de-AT', 'en'],
  });
  expect(customer.status).toBe(200);
  expect(customer.body.preferred_locales).toEqual(['de-AT', 'en']);
  // A first invoice paid on its page with "save card": the customer's mandate (Visa 4242).
  const first = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    collection_method: 'charge_automatically',
    lines: [{ description: 'Einrichtung', quantity: 1, unit_amount: 5_000, tax_rate_bps: 2000 }],
  });
  expect(first.status).toBe(200);
  const paid = await payInvoiceOnHostedPage(platform, first.body.hosted_url, '4242424242424242', {
    save_card: 'yes',
  });
  expect(paid.status).toBe(303);
  const mandate = await eventually(async () => {
    const got = await api('GET', `/v1/customers/${customer.body.id}`);
    return got.body.default_mandate ?? undefined;
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
  // An open invoice to pay from the portal.
  const open = await api('POST', '/v1/invoices', {
    customer: customer.body.id,
    lines: [{ description: 'Beratung', quantity: 2, unit_amount: 12_000, tax_rate_bps: 2000 }],
  });
  expect(open.status).toBe(200);
  expect(open.body.status).toBe('open');
  return {
    customer: customer.body,
    mandate: String(mandate),
    subscription: subscription.body,
    open: open.body,
  };
}

it('a customer opens the link, pays an open invoice, replaces the card and cancels at period end; the merchant gets the events', async () => {
  const { customer, mandate, subscription, open } = await germanCustomerWithCardAndSubscription();
  const session = await api('POST', `/v1/customers/${customer.id}/portal-sessions`, {
    return_url: 'https://shop.example/account',
  });
  expect(session.status).toBe(200);
  expect(session.body).toMatchObject({
    object: 'portal_session',
    customer: customer.id,
    livemode: false,
    return_url: 'https://shop.example/account',
    locale: null,
  });
  expect(session.body.id).toMatch(/^bps_/);
  expect(Date.parse(session.body.expires_at) - Date.parse(session.body.created_at)).toBe(3_600_000);
  const portalPath = pathOf(session.body.url);
  expect(portalPath).toMatch(/^\/portal\/[A-Za-z0-9_-]{100,}$/);

  // The portal, in German (the customer's preferred_locales), under the hosted pages' CSP.
  const page = await platform.api(undefined, 'GET', portalPath);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
  let html = String(page.body);
  expect(html).toContain('<html lang="de">');
  expect(html).toContain('<h1>Ihr Konto</h1>');
  expect(html).toContain(
    'Rechnungen, Abonnements und gespeicherte Karten von Zoë Łukasiewicz bei Acme Studio.',
  );
  expect(html).toContain(open.number);
  expect(html).toContain('288,00\u00a0€'); // 2 x 120 EUR + 20 % VAT, de-AT money
  expect(html).toContain('Visa mit Endziffern 4242');
  expect(html).toContain('Für automatische Zahlungen verwendet');
  expect(html).toContain('Zum Ende des Zeitraums kündigen');
  expect(html).toContain('Zurück zu Acme Studio');

  // 1. Pay the open invoice: the portal's "Bezahlen" leads to its hosted page.
  const payLinks = links(html, '/i/').filter((h) => !h.endsWith('/pdf'));
  const openPage = payLinks.find((h) => pathOf(open.hosted_url) === h);
  expect(openPage).toBeDefined();
  const pdf = await platform.api(undefined, 'GET', `${String(openPage)}/pdf`);
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  const paid = await payInvoiceOnHostedPage(platform, String(openPage), '4242424242424242');
  expect(paid.status).toBe(303);
  const invoicePaid = await eventAbout(platform, account.testKey, 'invoice.paid', open.id);
  expect(invoicePaid.data.object).toMatchObject({ status: 'paid', amount_due: 0 });

  // 2. Replace the card: the payments service's card page, then back to the portal.
  const replaceLink = links(html, '/pay/cards/')[0];
  const cardPage = await platform.api(undefined, 'GET', replaceLink);
  expect(cardPage.status).toBe(200);
  const cardHtml = String(cardPage.body);
  // In the portal's language: the token carries it.
  expect(cardHtml).toContain('<html lang="de">');
  expect(cardHtml).toContain('<h1>Karte ersetzen</h1>');
  expect(cardHtml).toContain('Künftige Zahlungen an Acme Studio erfolgen mit der neuen Karte.');
  expect(cardHtml).toContain('<label for="card_number">Kartennummer</label>');
  // A declined card: the form again (402) with a fresh form token (a new attempt, a new
  // processor key), the reason in German, nothing changed.
  const declined = await platform.api(
    undefined,
    'POST',
    replaceLink,
    new URLSearchParams({
      csrf_token: csrfOf(cardHtml),
      card_number: '4000 0000 0000 9995',
      exp_month: '11',
      exp_year: '2099',
      cvc: '123',
    }),
  );
  expect(declined.status).toBe(402);
  expect(String(declined.body)).toContain(
    '<div class="error" role="alert" id="form-error">Die Karte ist nicht ausreichend gedeckt.</div>',
  );
  const replaced = await platform.api(
    undefined,
    'POST',
    replaceLink,
    new URLSearchParams({
      csrf_token: csrfOf(String(declined.body)),
      card_number: '4000 0000 0000 0341',
      exp_month: '11',
      exp_year: '2099',
      cvc: '123',
    }),
  );
  expect(replaced.status).toBe(303);
  expect(pathOf(String(replaced.headers.get('location')))).toBe(`${portalPath}?card=replaced`);
  const updated = await eventAbout(platform, account.testKey, 'mandate.updated', mandate);
  expect(updated.data.object).toMatchObject({
    id: mandate,
    status: 'active',
    customer: customer.id,
    payment_method: { brand: 'visa', last4: '0341', exp_month: 11, exp_year: 2099 },
  });
  expect(updated.data.previous_attributes.payment_method).toMatchObject({ brand: 'visa', last4: '4242' });
  html = await eventually(async () => {
    const again = String((await platform.api(undefined, 'GET', `${portalPath}?card=replaced`)).body);
    return again.includes('Visa mit Endziffern 0341, gültig bis 11/2099') ? again : undefined;
  });
  expect(html).toContain('Ihre Karte wurde ersetzt.');
  expect(html).not.toContain('Visa mit Endziffern 4242');

  // 3. Cancel the subscription at the end of the period.
  const cancelForm = new URLSearchParams({
    csrf_token: csrfOf(html),
    subscription: subscription.id,
    action: 'cancel',
  });
  const canceled = await platform.api(undefined, 'POST', portalPath, cancelForm);
  expect(canceled.status).toBe(200);
  expect(String(canceled.body)).toMatch(
    /Ihr Abonnement endet am \d{1,2}\. \S+ \d{4}; es wird nichts mehr abgebucht\./,
  );
  expect(String(canceled.body)).toContain('Abonnement behalten');
  const subUpdated = await eventAbout(platform, account.testKey, 'subscription.updated', subscription.id);
  expect(subUpdated.data.object.cancel_at_period_end).toBe(true);
  expect(subUpdated.data.previous_attributes).toEqual({ cancel_at_period_end: false });
  expect((await api('GET', `/v1/subscriptions/${subscription.id}`)).body).toMatchObject({
    status: 'active',
    cancel_at_period_end: true,
  });
  // The same form again (a double click) changes nothing more.
  expect((await platform.api(undefined, 'POST', portalPath, cancelForm)).status).toBe(200);

  // Undo it ("Abonnement behalten"): subscription.updated back to false.
  const resumed = await platform.api(
    undefined,
    'POST',
    portalPath,
    new URLSearchParams({
      csrf_token: csrfOf(String(canceled.body)),
      subscription: subscription.id,
      action: 'resume',
    }),
  );
  expect(resumed.status).toBe(200);
  expect(String(resumed.body)).toContain('Ihr Abonnement läuft weiter');
  await eventually(async () => {
    const events = await api('GET', `/v1/events?type=subscription.updated&limit=100`);
    const mine = events.body.data.filter((e: any) => e.data.object.id === subscription.id);
    // One cancel (the repeated form added none) and one resume.
    return mine.length === 2 && mine[0].data.object.cancel_at_period_end === false ? true : undefined;
  });

  // 4. Remove the card: the mandate is canceled and the customer has no default any more.
  const removeLink = links(html, '/pay/cards/')[1];
  const removePage = await platform.api(undefined, 'GET', removeLink);
  expect(String(removePage.body)).toContain('<h1>Karte entfernen</h1>');
  const removed = await platform.api(
    undefined,
    'POST',
    removeLink,
    new URLSearchParams({ csrf_token: csrfOf(String(removePage.body)) }),
  );
  expect(removed.status).toBe(303);
  expect(pathOf(String(removed.headers.get('location')))).toBe(`${portalPath}?card=removed`);
  await eventAbout(platform, account.testKey, 'mandate.canceled', mandate);
  await eventually(async () => {
    const got = await api('GET', `/v1/customers/${customer.id}`);
    return got.body.default_mandate === null ? true : undefined;
  });
  const after = String((await platform.api(undefined, 'GET', `${portalPath}?card=removed`)).body);
  expect(after).toContain('Ihre Karte wurde entfernt.');
  expect(after).toContain('Keine gespeicherten Karten.');
}, 120_000);

it('guards the portal: isolation, validation, forged or expired links, CSRF, and the cancellation switch', async () => {
  const customer = await api('POST', '/v1/customers', { name: 'Jenny Rosen', email: 'jenny@example.test' });
  // Another account's customer is 404; an unknown field 400; a bad return_url 400.
  const other = await platform.newAccount(['payments', 'invoicing']);
  expect(
    (await platform.api(other.testKey, 'POST', `/v1/customers/${customer.body.id}/portal-sessions`, {}))
      .status,
  ).toBe(404);
  const unknown = await api('POST', `/v1/customers/${customer.body.id}/portal-sessions`, { colour: 'red' });
  expect(unknown.status).toBe(400);
  expect(
    (
      await api('POST', `/v1/customers/${customer.body.id}/portal-sessions`, {
        return_url: 'javascript:alert(1)',
      })
    ).status,
  ).toBe(400);
  expect(
    (await api('POST', `/v1/customers/${customer.body.id}/portal-sessions`, { expires_in: 10 })).status,
  ).toBe(400);
  // English (no preference, or the session's locale wins).
  const session = await api('POST', `/v1/customers/${customer.body.id}/portal-sessions`, { locale: 'en' });
  expect(session.status).toBe(200);
  const path = pathOf(session.body.url);
  const page = String((await platform.api(undefined, 'GET', path)).body);
  expect(page).toContain('<h1>Your account</h1>');
  expect(page).toContain('No invoices yet.');
  // A forged or truncated token is the "expired" page (404), never a 5xx.
  const forged = `${path.slice(0, -4)}AAAA`;
  expect((await platform.api(undefined, 'GET', forged)).status).toBe(404);
  expect((await platform.api(undefined, 'GET', '/portal/x')).status).toBe(404);
  // A post without a valid CSRF token changes nothing (403).
  const noCsrf = await platform.api(
    undefined,
    'POST',
    path,
    new URLSearchParams({ csrf_token: 'x', subscription: 'sub_12345678', action: 'cancel' }),
  );
  expect(noCsrf.status).toBe(403);
  // The switch turned off after the page was rendered: the cancellation is refused (409).
  expect((await api('POST', '/v1/account', { portal_subscription_cancel: true })).status).toBe(200);
  const sub = await api('POST', '/v1/subscriptions', {
    customer: customer.body.id,
    items: [
      {
        description: 'Seat',
        unit_amount: 900,
        currency: 'EUR',
        quantity: 1,
        interval: 'month',
        interval_count: 1,
      },
    ],
    collection_method: 'send_invoice',
    days_until_due: 7,
  });
  expect(sub.status).toBe(200);
  const withSub = String((await platform.api(undefined, 'GET', path)).body);
  expect(withSub).toContain('Cancel at the end of the period');
  expect((await api('POST', '/v1/account', { portal_subscription_cancel: false })).status).toBe(200);
  expect(String((await platform.api(undefined, 'GET', path)).body)).toContain(
    'To cancel, contact the seller.',
  );
  const refused = await platform.api(
    undefined,
    'POST',
    path,
    new URLSearchParams({ csrf_token: csrfOf(withSub), subscription: sub.body.id, action: 'cancel' }),
  );
  expect(refused.status).toBe(409);
  expect((await api('GET', `/v1/subscriptions/${sub.body.id}`)).body.cancel_at_period_end).toBe(false);
  // A forged card page link is 404.
  expect(
    (await platform.api(undefined, 'GET', '/pay/cards/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status,
  ).toBe(404);
}, 60_000);

it("a German customer's invoice page, e-mail, PDF and the e-mail's portal link come in German", async () => {
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
