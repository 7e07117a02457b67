// A recurring payment link's payer manages the payment themselves, in both modes (issue 17
// item 5): the checkout's success page links to payments' own mandate page
// (/pay/mandates/<token>, docs/api.md Part 2, ADR 0013), which shows the terms and the card in
// the browser's language and cancels the mandate with a CSRF-protected form; forged forms and
// links are refused, and a one-off payment's page has no such link.

import { eventAbout } from '../support/events';
import { CARDS, csrfOf, decodeHtml, submitForm } from '../support/pages';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;
let merchant: string;

const OK = CARDS.ok;

async function createLink(body: Record<string, unknown>) {
  const response = await platform.api(account.testKey, 'POST', '/v1/payment-links', body);
  expect(response.status).toBe(200);
  return response.body;
}

const submit = (id: string, token: string, card: string) => submitForm(platform, `/pay/${id}`, token, card);

async function freshToken(id: string): Promise<string> {
  const response = await platform.api(undefined, 'GET', `/pay/${id}`);
  expect(response.status).toBe(200);
  return csrfOf(String(response.body));
}

const transactionsOf = async (id: string) =>
  (await platform.api(account.testKey, 'GET', `/v1/transactions?payment_link=${id}&limit=100`)).body
    .data as any[];

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments']);
  const named = await platform.api(account.testKey, 'POST', '/v1/merchants', {
    business_name: 'Acme <Books> Ltd',
    email: 'ops@acme.test',
    country: 'GB',
    default_currency: 'GBP',
    business_type: 'company',
  });
  expect(named.status).toBe(200);
  merchant = named.body.id;
});

afterAll(async () => {
  await platform?.stop();
});

it('a recurring checkout links its payer to a page of their own to cancel it (and a one-off does not)', async () => {
  const german = { 'accept-language': 'de' };
  const link = await createLink({
    merchant,
    type: 'recurring',
    amount: 1_500,
    currency: 'EUR',
    recurring: { interval: 'month' },
  });
  const paid = await submit(link.id, await freshToken(link.id), OK);
  expect(paid.status).toBe(200);
  const done = String(paid.body);
  const manage = /<p id="manage"><a href="([^"]+)">Manage or cancel this recurring payment<\/a>/.exec(
    done,
  )?.[1];
  expect(manage).toMatch(/^\/pay\/mandates\/[A-Za-z0-9_-]{100,}$/);
  expect(done).toContain('Keep this link: it is how you can cancel later.');
  const path = decodeHtml(String(manage));
  const [payment] = await transactionsOf(link.id);
  expect(payment.mandate).toMatch(/^mdt_/);

  // The page, in the browser's language: the terms, the card, a cancel form.
  const shown = await platform.api(undefined, 'GET', path, undefined, german);
  expect(shown.status).toBe(200);
  const html = String(shown.body);
  expect(html).toContain('<html lang="de">');
  expect(html).toContain('<h1>Ihre wiederkehrende Zahlung an Acme &lt;Books&gt; Ltd</h1>');
  expect(html).toContain('15,00\u00a0€ monatlich, belastet auf Visa mit Endziffern 4242.');
  expect(html).toContain('<button type="submit">Wiederkehrende Zahlung kündigen</button>');
  expect(html).not.toMatch(/<script/i);
  // A forged form token cancels nothing; a forged link is 404.
  const forged = await platform.api(undefined, 'POST', path, new URLSearchParams({ csrf_token: 'x' }));
  expect(forged.status).toBe(403);
  expect((await platform.api(account.testKey, 'GET', `/v1/mandates/${payment.mandate}`)).body.status).toBe(
    'active',
  );
  const bad = await platform.api(undefined, 'GET', `${path.slice(0, -4)}AAAA`);
  expect(bad.status).toBe(404);
  expect(String(bad.body)).toContain('<h1>This link is not valid</h1>');

  const canceled = await platform.api(
    undefined,
    'POST',
    path,
    new URLSearchParams({ csrf_token: csrfOf(html) }),
    german,
  );
  expect(canceled.status).toBe(200);
  expect(String(canceled.body)).toContain(
    'Diese wiederkehrende Zahlung ist gekündigt: Acme &lt;Books&gt; Ltd belastet diese Karte nicht mehr.',
  );
  expect(String(canceled.body)).not.toContain('<form');
  const event = await eventAbout(platform, account.testKey, 'mandate.canceled', payment.mandate);
  expect(event.data.object).toMatchObject({ id: payment.mandate, status: 'canceled' });
  // Again (a reload of the post): still canceled, nothing else happens.
  const again = await platform.api(
    undefined,
    'POST',
    path,
    new URLSearchParams({ csrf_token: csrfOf(html) }),
  );
  expect(again.status).toBe(200);
  expect(String(again.body)).toContain('This recurring payment is canceled');

  // A one-off payment has nothing to manage.
  const once = await createLink({ merchant, amount: 700, currency: 'EUR' });
  const onePaid = String((await submit(once.id, await freshToken(once.id), OK)).body);
  expect(onePaid).toContain('Payment successful');
  expect(onePaid).not.toContain('/pay/mandates/');
});
