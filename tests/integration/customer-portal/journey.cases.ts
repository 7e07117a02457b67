// The customer's journey through the portal, in German: the merchant creates a portal session
// for a customer with a saved card, a subscription and an open invoice; the customer pays the
// invoice, replaces and removes the card, and cancels the subscription at period end and
// resumes it; the merchant receives invoice.paid, mandate.updated and subscription.updated.

import { eventAbout } from '../../support/events';
import { csrfOf, decodeHtml, pathOf, payInvoiceOnHostedPage } from '../../support/pages';
import { eventually } from '../../support/platform';
import { merchantApi, type PortalContext } from './portal.helpers';

/** Every href of the page that contains `fragment`, HTML-decoded. */
const links = (html: string, fragment: string) =>
  [...html.matchAll(/href="([^"]+)"/g)].map((m) => decodeHtml(m[1])).filter((h) => h.includes(fragment));

export function portalJourneyCases(ctx: () => PortalContext) {
  const api = merchantApi(ctx);

  async function germanCustomerWithCardAndSubscription() {
    const { platform } = ctx();
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
    const { platform, account } = ctx();
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
}
