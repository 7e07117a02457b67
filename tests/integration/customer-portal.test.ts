// The customer portal end to end, in both modes (issue 17 item 5): the merchant creates a
// portal session for a German-speaking customer; the customer opens the link, pays an open
// invoice through its hosted page, replaces the saved card on the payments service's card
// page, and cancels the subscription at the end of the period; the merchant receives
// invoice.paid, mandate.updated and subscription.updated. Then the guards: tenant isolation,
// expired or forged links, CSRF, single use of a form, and the account's cancellation switch.
//
// The journey and the German documents live in customer-portal/ and run here, around the
// guards, against one platform: each test file that starts one costs seconds of CPU per mode,
// so the suite stays one file.

import { csrfOf, pathOf } from '../support/pages';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { germanDocumentCases } from './customer-portal/german-documents.cases';
import { portalJourneyCases } from './customer-portal/journey.cases';
import { merchantApi, type PortalContext } from './customer-portal/portal.helpers';

let platform: Platform;
let account: TestAccount;
let smtp: SmtpSink;
const ctx = (): PortalContext => ({ platform, account, smtp });

const api = merchantApi(ctx);

beforeAll(async () => {
  smtp = await startSmtpSink();
  platform = await startPlatform({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Paygrid <no-reply@mail.test>' } });
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
  await smtp?.close();
});

portalJourneyCases(ctx);

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

germanDocumentCases(ctx);
