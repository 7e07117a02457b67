// Payment links and the hosted checkout page, end to end through the gateway, in both modes:
// the API creates a link, the payer GETs /pay/<id> and POSTs the form (no JavaScript), and
// the payment shows up as a transaction of the link, with the link's events.

import { CARDS, cardForm, csrfOf, submitForm } from '../support/pages';
import {
  eventually,
  startPlatform,
  type ApiResponse,
  type Platform,
  type TestAccount,
} from '../support/platform';

let platform: Platform;
let account: TestAccount;
let merchant: string;

const OK = CARDS.ok;
const DECLINED = CARDS.declined;

async function createLink(body: Record<string, unknown>, key = account.testKey) {
  const response = await platform.api(key, 'POST', '/v1/payment-links', body);
  expect(response.status).toBe(200);
  return response.body;
}

const page = (id: string) => platform.api(undefined, 'GET', `/pay/${id}`);

const submit = (id: string, token: string, card: string): Promise<ApiResponse> =>
  submitForm(platform, `/pay/${id}`, token, card);

async function freshToken(id: string): Promise<string> {
  const response = await page(id);
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

describe('payment links', () => {
  it('creates a link with a url, and computes the total of line items in the server', async () => {
    const link = await createLink({
      currency: 'eur',
      line_items: [
        { description: 'Notebook', quantity: 3, unit_amount: 1250 },
        { description: 'Pen', quantity: 2, unit_amount: 199 },
      ],
    });
    expect(link).toMatchObject({ object: 'payment_link', status: 'active', currency: 'EUR', amount: null });
    expect(link.amount_total).toBe(4148);
    expect(link.url).toMatch(new RegExp(`/pay/${link.id}$`));
    const fetched = await platform.api(account.testKey, 'GET', `/v1/payment-links/${link.id}`);
    expect(fetched.body).toEqual(link);
    const listed = await platform.api(account.testKey, 'GET', '/v1/payment-links');
    expect(listed.body.data.map((l: any) => l.id)).toContain(link.id);
  });

  it('refuses invalid links', async () => {
    const unknown = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
      amount: 100,
      currency: 'USD',
      colour: 'red',
    });
    expect(unknown.status).toBe(400);
    const items = Array.from({ length: 21 }, (_, i) => ({
      description: `Item ${i}`,
      quantity: 1,
      unit_amount: 100,
    }));
    const tooMany = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
      currency: 'USD',
      line_items: items,
    });
    expect(tooMany.status).toBe(400);
    const currency = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
      amount: 100,
      currency: 'XYZ',
    });
    expect(currency.status).toBe(400);
    expect(currency.body.error.code).toBe('currency_unsupported');
    const past = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
      amount: 100,
      currency: 'USD',
      expires_at: '2020-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    const fractional = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
      amount: 1.5,
      currency: 'USD',
    });
    expect(fractional.status).toBe(400);
  });

  it("hides another account's link", async () => {
    const link = await createLink({ amount: 500, currency: 'USD' });
    const other = await platform.newAccount(['payments']);
    expect((await platform.api(other.testKey, 'GET', `/v1/payment-links/${link.id}`)).status).toBe(404);
    expect((await platform.api(account.liveKey, 'GET', `/v1/payment-links/${link.id}`)).status).toBe(404);
  });

  it('deactivates and reactivates, and refuses to reactivate a completed link', async () => {
    const link = await createLink({ amount: 700, currency: 'USD' });
    const off = await platform.api(account.testKey, 'POST', `/v1/payment-links/${link.id}`, {
      active: false,
    });
    expect(off.body.status).toBe('inactive');
    expect((await page(link.id)).status).toBe(410);
    const on = await platform.api(account.testKey, 'POST', `/v1/payment-links/${link.id}`, { active: true });
    expect(on.body.status).toBe('active');
    const paid = await submit(link.id, await freshToken(link.id), OK);
    expect(paid.status).toBe(200);
    const again = await platform.api(account.testKey, 'POST', `/v1/payment-links/${link.id}`, {
      active: true,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state_transition');
    expect((await page(link.id)).status).toBe(410);
  });
});

describe('the hosted checkout page', () => {
  it('renders, declines with 402, then pays and completes the link', async () => {
    const link = await createLink({
      merchant,
      amount: 123456,
      currency: 'USD',
      description: 'Annual plan',
      client_reference_id: 'order_6735',
      metadata: { order: '6735' },
    });
    const shown = await page(link.id);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toMatch(/^text\/html/);
    expect(shown.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = String(shown.body);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Acme &lt;Books&gt; Ltd');
    expect(html).toContain('1,234.56 USD');
    expect(html).toContain('<label for="card_number">');
    expect(html).not.toMatch(/<script/i);
    const css = await platform.api(undefined, 'GET', '/pay/assets/checkout.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);

    const declined = await submit(link.id, csrfOf(html), DECLINED);
    expect(declined.status).toBe(402);
    expect(String(declined.body)).toContain('The card was declined.');
    expect(String(declined.body)).not.toContain(DECLINED);
    expect(String(declined.body)).not.toContain('value="123"');
    let txns = await transactionsOf(link.id);
    expect(txns.map((t) => t.status)).toEqual(['failed']);
    expect((await platform.api(account.testKey, 'GET', `/v1/payment-links/${link.id}`)).body.status).toBe(
      'active',
    );

    const paid = await submit(link.id, csrfOf(String(declined.body)), OK);
    expect(paid.status).toBe(200);
    expect(String(paid.body)).toContain('Payment successful');
    txns = await transactionsOf(link.id);
    const succeeded = txns.filter((t) => t.status === 'succeeded');
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]).toMatchObject({
      amount: 123456,
      currency: 'USD',
      payment_link: link.id,
      merchant,
      client_reference_id: 'order_6735',
      metadata: { order: '6735' },
      payment_method: { brand: 'visa', last4: '4242' },
    });
    const after = await platform.api(account.testKey, 'GET', `/v1/payment-links/${link.id}`);
    expect(after.body).toMatchObject({ status: 'completed', completions_count: 1 });
    expect((await page(link.id)).status).toBe(410);

    const types = await eventually(async () => {
      const events = await platform.api(account.testKey, 'GET', '/v1/events?limit=100');
      const mine = (events.body.data ?? [])
        .filter((e: any) => e.data.object.id === link.id || e.data.object.payment_link === link.id)
        .map((e: any) => e.type);
      return mine.includes('payment_link.completed') && mine.includes('payment.succeeded') ? mine : undefined;
    });
    expect(types).toEqual(
      expect.arrayContaining(['payment_link.created', 'payment.succeeded', 'payment_link.completed']),
    );

    // Neither the card number nor the CVC is stored anywhere in the payments database.
    const leaked = await platform.sql(
      'payments',
      `select id from payments.transactions where payment_method::text like '%424242424242%'`,
    );
    expect(leaked).toEqual([]);
  });

  it('pays once for a double submission of the same form', async () => {
    const link = await createLink({ amount: 900, currency: 'USD', max_completions: 5 });
    const token = await freshToken(link.id);
    const [a, b] = await Promise.all([submit(link.id, token, OK), submit(link.id, token, OK)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const txns = await transactionsOf(link.id);
    expect(txns.filter((t) => t.status === 'succeeded')).toHaveLength(1);
    expect(txns).toHaveLength(1);
    const after = await platform.api(account.testKey, 'GET', `/v1/payment-links/${link.id}`);
    expect(after.body).toMatchObject({ status: 'active', completions_count: 1 });
  });

  // The payer not charged is answered 409 (full: the first charge was in flight when its
  // request read the link) or 410 (closed: its request read the link once the first payment
  // had completed it), as with ten payers below: a loaded machine can order the two requests so.
  it('pays a one-time link once when two payers submit at the same time', async () => {
    const link = await createLink({ amount: 950, currency: 'USD' });
    const [first, second] = [await freshToken(link.id), await freshToken(link.id)];
    const answers = await Promise.all([submit(link.id, first, OK), submit(link.id, second, OK)]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0]).toBe(200);
    expect([409, 410]).toContain(statuses[1]);
    const txns = await transactionsOf(link.id);
    expect(txns.filter((t) => t.status === 'succeeded')).toHaveLength(1);
    const after = await platform.api(account.testKey, 'GET', `/v1/payment-links/${link.id}`);
    expect(after.body).toMatchObject({ status: 'completed', completions_count: 1 });
    // The first payer's double click still shows the success page.
    const replayed = await submit(link.id, answers[0].status === 200 ? first : second, OK);
    expect(replayed.status).toBe(200);
    expect(String(replayed.body)).toContain('Payment successful');
  });

  // The claim counts the link's charges in flight in a statement sent after the link's lock
  // (checkout-form-token.ts): with ten payers at once on a link of three, no fourth charge
  // even starts. Each payer that is not charged is answered 409 (busy) or, once the link is
  // completed, 410.
  it('never starts more charges than a limited link has completions left, with ten payers at once', async () => {
    const link = await createLink({ amount: 975, currency: 'USD', max_completions: 3 });
    const tokens = await Promise.all(Array.from({ length: 10 }, () => freshToken(link.id)));
    const answers = await Promise.all(tokens.map((token) => submit(link.id, token, OK)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s !== 200 && s !== 409 && s !== 410)).toEqual([]);
    const txns = await transactionsOf(link.id);
    expect(txns.map((t) => t.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const after = await platform.api(account.testKey, 'GET', `/v1/payment-links/${link.id}`);
    expect(after.body).toMatchObject({ status: 'completed', completions_count: 3 });
  });

  // A link without a limit (recurring, no max_completions) takes no lock: the token's primary
  // key alone makes five posts of one form at once pay once; the other four answer its outcome.
  it('pays once for five posts of one form at once on a link without a limit', async () => {
    const link = await createLink({
      type: 'recurring',
      amount: 450,
      currency: 'USD',
      recurring: { interval: 'month' },
    });
    const token = await freshToken(link.id);
    const answers = await Promise.all(Array.from({ length: 5 }, () => submit(link.id, token, OK)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const txns = await transactionsOf(link.id);
    expect(txns.map((t) => t.status)).toEqual(['succeeded']);
    for (const answer of answers) expect(String(answer.body)).toContain('Payment successful');
    const after = await platform.api(account.testKey, 'GET', `/v1/payment-links/${link.id}`);
    expect(after.body).toMatchObject({ status: 'active', completions_count: 1 });
  });

  it('refuses a bad CSRF token with 403 and charges nothing', async () => {
    const link = await createLink({ amount: 900, currency: 'USD' });
    const token = await freshToken(link.id);
    const forged = await submit(link.id, `${token.slice(0, -2)}xx`, OK);
    expect(forged.status).toBe(403);
    const otherLink = await createLink({ amount: 900, currency: 'USD' });
    expect((await submit(otherLink.id, token, OK)).status).toBe(403);
    expect((await submit(link.id, '', OK)).status).toBe(403);
    expect(await transactionsOf(link.id)).toEqual([]);
    expect(await transactionsOf(otherLink.id)).toEqual([]);
  });

  it('answers 404 for an unknown link and redirects after payment when asked', async () => {
    expect((await page('plink_00000000doesnotexist')).status).toBe(404);
    const link = await createLink({
      amount: 900,
      currency: 'USD',
      after_completion: { redirect_url: 'https://shop.example.test/thanks' },
    });
    const token = await freshToken(link.id);
    const response = await platform.api(
      undefined,
      'POST',
      `/pay/${link.id}`,
      new URLSearchParams({ csrf_token: token, card_number: OK, exp_month: '1', exp_year: '99', cvc: '123' }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('https://shop.example.test/thanks');
  });

  it("speaks the browser's language (Accept-Language): a German payer's form and success page", async () => {
    const german = { 'accept-language': 'de-CH,de;q=0.9,en;q=0.8' };
    const link = await createLink({
      type: 'recurring',
      amount: 123_456,
      currency: 'EUR',
      description: 'Monatsabo',
      recurring: { interval: 'month', interval_count: 3 },
    });
    const shown = await platform.api(undefined, 'GET', `/pay/${link.id}`, undefined, german);
    expect(shown.status).toBe(200);
    const html = String(shown.body);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<legend>Kartendaten</legend>');
    expect(html).toContain('<label for="card_number">Kartennummer</label>');
    expect(html).toContain('<label for="email">E-Mail (optional, für Quittungen)</label>');
    expect(html).toContain('Gesamt: <span id="total">1.234,56\u00a0€</span>');
    expect(html).toContain('jetzt und alle 3 Monate bis zu Ihrer Kündigung mit 1.234,56\u00a0€ zu belasten.');
    expect(html).toContain('<button type="submit">1.234,56\u00a0€ abonnieren</button>');
    expect(html).not.toMatch(/Card details|Subscribe|Total:|Card number/);
    // No header, or only languages we do not have: the English page as before.
    const english = String(
      (await platform.api(undefined, 'GET', `/pay/${link.id}`, undefined, { 'accept-language': 'ja' })).body,
    );
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('Subscribe 1,234.56 EUR');

    const paid = await platform.api(
      undefined,
      'POST',
      `/pay/${link.id}`,
      cardForm(csrfOf(html), OK, { email: 'kunde@example.de' }),
      german,
    );
    expect(paid.status).toBe(200);
    const done = String(paid.body);
    expect(done).toContain('<html lang="de">');
    expect(done).toContain('<strong>Zahlung erfolgreich.</strong>');
    expect(done).toContain('<p id="receipt-sent">Eine Quittung wurde an kunde@example.de gesendet.</p>');
    expect(done).not.toMatch(/Payment successful|A receipt was sent/);
  });

  it('tells a German payer a decline and the /pay message pages in German (Accept-Language)', async () => {
    const german = { 'accept-language': 'de-DE,de;q=0.9' };
    const link = await createLink({ amount: 4_200, currency: 'EUR', description: 'Kurs' });
    const shown = String((await platform.api(undefined, 'GET', `/pay/${link.id}`, undefined, german)).body);
    const declined = await platform.api(
      undefined,
      'POST',
      `/pay/${link.id}`,
      cardForm(csrfOf(shown), CARDS.insufficientFunds),
      german,
    );
    expect(declined.status).toBe(402);
    const form = String(declined.body);
    expect(form).toContain('<html lang="de">');
    expect(form).toContain(
      'Ihre Zahlung wurde nicht abgeschlossen: Die Karte ist nicht ausreichend gedeckt. Es wurde nichts abgebucht; versuchen Sie es mit einer anderen Karte.',
    );
    expect(form).not.toMatch(/insufficient funds|not completed/i);
    // The API still reports the decline in English, by its code.
    const [payment] = (await platform.api(account.testKey, 'GET', `/v1/transactions?payment_link=${link.id}`))
      .body.data;
    expect(payment).toMatchObject({ status: 'failed', failure_code: 'insufficient_funds' });

    // The message pages: an unknown link, an expired form, a deactivated link.
    const missing = await platform.api(undefined, 'GET', '/pay/plink_doesnotexist0000', undefined, german);
    expect(missing.status).toBe(404);
    expect(String(missing.body)).toContain('<html lang="de">');
    expect(String(missing.body)).toContain('<h1>Zahlungslink nicht gefunden</h1>');
    const expired = await platform.api(undefined, 'POST', `/pay/${link.id}`, cardForm('forged', OK), german);
    expect(expired.status).toBe(403);
    expect(String(expired.body)).toContain('<h1>Dieses Formular ist abgelaufen</h1>');
    await platform.api(account.testKey, 'POST', `/v1/payment-links/${link.id}`, { active: false });
    const inactive = await platform.api(undefined, 'GET', `/pay/${link.id}`, undefined, german);
    expect(inactive.status).toBe(410);
    expect(String(inactive.body)).toContain('<h1>Dieser Zahlungslink ist nicht aktiv</h1>');
    // Without the header, the same page in English.
    expect(String((await platform.api(undefined, 'GET', `/pay/${link.id}`)).body)).toContain(
      '<h1>This payment link is not active</h1>',
    );
  });
});
