// The customer portal's card replacement for a live merchant connected to Stripe (issue 17),
// against stripe-mock (Stripe's official mock server) behind a recording proxy that shows what
// the platform sends and patches the SetupIntent answers stripe-mock's fixtures cannot give
// (it keeps no state): a live customer who saved a card on an invoice page replaces it through
// the portal's card page (a PaymentMethod and a SetupIntent under the mandate's own Stripe
// Customer), the next invoice is charged off-session with the new card, and a card whose
// issuer asks for 3-D Secure is saved once the payer is back from Stripe's page. Afterwards
// none of the card numbers, nor the Stripe key, is in any log line or any table. Both modes.

import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  disputeMismatches,
  ledgerImbalances,
  postingMismatches,
} from '../../apps/payments/src/ledger/ledger';
import { eventAbout } from '../support/events';
import { csrfOf, decodeHtml, pathOf, payInvoiceOnHostedPage } from '../support/pages';
import { eventually, startPlatform, type Platform } from '../support/platform';
import {
  startRecordingProxy,
  startStripeMock,
  type RecordingProxy,
  type StripeMock,
} from '../support/stripe-mock';

/** The card saved on the invoice page (not a sandbox test card: only Stripe can take it). */
const CARD = '5555555555554444';
/** The card a portal customer replaces theirs with (Stripe's Visa debit test number). */
const NEW_CARD = '4000056655665556';
/** The card replaced with 3-D Secure (Stripe's test card that always asks for it). */
const THREE_DS_CARD = '4000002760003184';
/** stripe-mock knows only test keys; against Stripe itself a live connection needs sk_live_. */
const SECRET_KEY = `sk_test_${'Pt7'.repeat(8)}PortalCards`;
const SIGNING_SECRET = `whsec_${'Pc2'.repeat(10)}`;
const LOG_FILE = join(tmpdir(), `paygrid-live-stripe-portal-${process.pid}-${Date.now()}.log`);

let stripe: StripeMock;
let proxy: RecordingProxy;
let platform: Platform;

beforeAll(async () => {
  stripe = await startStripeMock('succeeded');
  proxy = await startRecordingProxy(stripe.url);
  platform = await startPlatform({ env: { STRIPE_API_BASE: proxy.url }, logFile: LOG_FILE });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await proxy?.stop();
  await stripe?.stop();
  rmSync(LOG_FILE, { force: true });
});

const ledger = () => {
  const db = { query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params) };
  return Promise.all([ledgerImbalances(db), postingMismatches(db), disputeMismatches(db)]);
};

it("a live customer replaces a saved card in the portal (a Stripe SetupIntent), the next invoice is charged with it, and a card asking for 3-D Secure is saved on the payer's return", async () => {
  const billing = await platform.newAccount(['payments', 'invoicing']);
  const billingLive = (method: string, path: string, body?: unknown) =>
    platform.api(billing.liveKey, method, path, body);
  const connected = await platform.admin('POST', `/admin/v1/accounts/${billing.id}/processor-connections`, {
    mode: 'live',
    processor: 'stripe',
    credentials: { secret_key: SECRET_KEY, webhook_signing_secret: SIGNING_SECRET },
  });
  expect(connected.status).toBe(200);
  // An invoice is paid to the account's default merchant: live, it must be complete and approved.
  // (created on first need: here by a payment link without a merchant).
  const defaultMerchant = {
    id: (await billingLive('POST', '/v1/payment-links', { amount: 100, currency: 'GBP' })).body.merchant,
  };
  const completed = await billingLive('POST', `/v1/merchants/${defaultMerchant.id}`, {
    email: 'ops@client-services.example',
    country: 'GB',
    default_currency: 'GBP',
    business_type: 'company',
    website: 'https://client-services.example',
  });
  expect(completed.status).toBe(200);
  const approved = await platform.admin('POST', `/admin/v1/merchants/${defaultMerchant.id}/approve`);
  expect(approved.body.onboarding.status).toBe('active');
  const customer = (
    await billingLive('POST', '/v1/customers', {
      name: 'Ada Client',
      email: 'ada@client.example',
      currency: 'GBP',
    })
  ).body;
  const invoice = (amount: number) =>
    billingLive('POST', '/v1/invoices', {
      customer: customer.id,
      collection_method: 'charge_automatically',
      lines: [{ description: 'Support plan', quantity: 1, unit_amount: amount }],
    });
  // The first invoice is paid on its page with "save card": the customer's mandate, at Stripe.
  const first = await invoice(4_000);
  expect(first.status).toBe(200);
  const paid = await payInvoiceOnHostedPage(platform, first.body.hosted_url, CARD, { save_card: 'yes' });
  expect(paid.status).toBe(303);
  const mandate = String(
    await eventually(
      async () =>
        (await billingLive('GET', `/v1/customers/${customer.id}`)).body.default_mandate ?? undefined,
    ),
  );
  const credentialOf = async () =>
    (
      await platform.sql<{ credential: string }>(
        'payments',
        'select credential from payments.mandates where id = $1',
        [mandate],
      )
    )[0].credential;
  const before = await credentialOf();
  expect(before).toMatch(/^cus_\w+\|pm_\w+$/);

  // The portal's replace-card link leads to payments' card page.
  const session = await billingLive('POST', `/v1/customers/${customer.id}/portal-sessions`, {
    return_url: 'https://client.example/account',
  });
  expect([session.status, session.body.livemode]).toEqual([200, true]);
  const portalPath = pathOf(session.body.url);
  const portal = String((await platform.api(undefined, 'GET', portalPath)).body);
  expect(portal).toContain('Mastercard ending in 4444');
  const replaceLink = [...portal.matchAll(/href="([^"]+)"/g)]
    .map((m) => decodeHtml(m[1]))
    .find((h) => h.includes('/pay/cards/'));
  expect(replaceLink).toBeDefined();
  const cardPage = await platform.api(undefined, 'GET', String(replaceLink));
  expect(cardPage.status).toBe(200);
  expect(String(cardPage.body)).toContain('card_number');
  const start = proxy.requests.length;
  // stripe-mock answers every confirmed SetupIntent requires_payment_method (fixtures, no
  // state): the proxy makes this one what Stripe answers for a card that needs no 3-D Secure.
  proxy.patchNext('POST', '/v1/setup_intents', (body: any) => ({ ...body, status: 'succeeded' }));
  const replaced = await platform.api(
    undefined,
    'POST',
    String(replaceLink),
    new URLSearchParams({
      csrf_token: csrfOf(String(cardPage.body)),
      card_number: NEW_CARD.replace(/(\d{4})/g, '$1 ').trim(),
      exp_month: '08',
      exp_year: '2031',
      cvc: '321',
    }),
  );
  expect(replaced.status).toBe(303);
  expect(pathOf(String(replaced.headers.get('location')))).toBe(`${portalPath}?card=replaced`);
  const sent = proxy.requests.slice(start);
  expect(sent.map((r) => [r.method, r.path, r.status])).toEqual([
    ['POST', '/v1/payment_methods', 200],
    ['POST', '/v1/setup_intents', 200],
  ]);
  const setup = new URLSearchParams(sent[1].body);
  const [customerId] = before.split('|');
  expect([setup.get('customer'), setup.get('usage'), setup.get('confirm')]).toEqual([
    customerId,
    'off_session',
    'true',
  ]);
  expect(sent[1].headers['idempotency-key']).toMatch(new RegExp(`^card-update:${mandate}:`));
  const after = await credentialOf();
  expect(after).toBe(`${customerId}|${setup.get('payment_method')}`);
  expect(after).not.toBe(before);
  const updated = await eventAbout(platform, billing.liveKey, 'mandate.updated', mandate);
  expect(updated.data.object.payment_method).toMatchObject({ brand: 'visa', last4: '5556', exp_year: 2031 });

  // The next invoice is charged at once, off-session, with the new card.
  const chargesFrom = proxy.requests.length;
  const second = await invoice(1_500);
  expect(second.body).toMatchObject({ status: 'open', attempt_count: 1 });
  const invoicePaid = await eventAbout(platform, billing.liveKey, 'invoice.paid', second.body.id);
  expect(invoicePaid.data.object.amount_paid).toBe(1_500);
  const intents = proxy.requests
    .slice(chargesFrom)
    .filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents')
    .map((r) => Object.fromEntries(new URLSearchParams(r.body)));
  expect(intents).toEqual([
    expect.objectContaining({
      amount: '1500',
      customer: customerId,
      payment_method: setup.get('payment_method'),
      off_session: 'true',
    }),
  ]);
  expect(await ledger()).toEqual([[], [], []]);
  // Another card whose issuer asks for 3-D Secure to save it: the card page sends the payer
  // to Stripe's page (the SetupIntent's next_action) and settles on their return by the
  // SetupIntent Stripe names, only if it is this save's (its metadata carries our key).
  const again = await platform.api(undefined, 'GET', String(replaceLink));
  expect(again.headers.get('content-security-policy')).toContain('https://hooks.stripe.com');
  const authFrom = proxy.requests.length;
  proxy.patchNext('POST', '/v1/setup_intents', (body: any) => ({
    ...body,
    id: 'seti_portal3ds',
    status: 'requires_action',
    next_action: {
      type: 'redirect_to_url',
      redirect_to_url: { url: 'https://hooks.stripe.com/3d_secure_2/authenticate', return_url: null },
    },
  }));
  const challenged = await platform.api(
    undefined,
    'POST',
    String(replaceLink),
    new URLSearchParams({
      csrf_token: csrfOf(String(again.body)),
      card_number: '4000 0027 6000 3184',
      exp_month: '03',
      exp_year: '2032',
      cvc: '456',
    }),
  );
  expect(challenged.status).toBe(303);
  expect(challenged.headers.get('location')).toBe('https://hooks.stripe.com/3d_secure_2/authenticate');
  const setup3ds = new URLSearchParams(
    proxy.requests.slice(authFrom).find((r) => r.path === '/v1/setup_intents')?.body,
  );
  const returnUrl = String(setup3ds.get('return_url'));
  expect(pathOf(returnUrl)).toMatch(/^\/pay\/cards\/[^?]+\?saved=[A-Za-z0-9_-]+$/);
  // Nothing changed before the payer is back.
  expect(await credentialOf()).toBe(after);
  // Back from Stripe (which adds setup_intent=…): the SetupIntent now succeeded.
  const key = String(setup3ds.get('metadata[paygrid_card_update]'));
  proxy.patchNext('GET', '/v1/setup_intents/seti_portal3ds', (body: any) => ({
    ...body,
    id: 'seti_portal3ds',
    status: 'succeeded',
    customer: customerId,
    payment_method: setup3ds.get('payment_method'),
    metadata: { paygrid_card_update: key },
  }));
  const back = await platform.api(undefined, 'GET', `${pathOf(returnUrl)}&setup_intent=seti_portal3ds`);
  expect(back.status).toBe(303);
  expect(pathOf(String(back.headers.get('location')))).toBe(`${portalPath}?card=replaced`);
  expect(await credentialOf()).toBe(`${customerId}|${setup3ds.get('payment_method')}`);
  await eventually(async () => {
    const events = (await billingLive('GET', `/v1/events?type=mandate.updated&limit=10`)).body.data;
    return events.some((e: any) => e.data.object.payment_method.last4 === '3184') ? true : undefined;
  });
  // A forged return changes nothing.
  const forged = await platform.api(
    undefined,
    'GET',
    `${pathOf(returnUrl).replace(/saved=.*/, 'saved=forged')}&setup_intent=seti_portal3ds`,
  );
  expect(forged.status).toBe(404);
});

it('leaves the card numbers and the Stripe key in no log line and no table', async () => {
  const logs = readFileSync(LOG_FILE, 'utf8');
  // The logs are there (access lines of the card page's requests), so their silence means something.
  expect(logs).toContain('/pay/cards/');
  const tables = await platform.sql<{ table_schema: string; table_name: string }>(
    'payments',
    `select table_schema, table_name from information_schema.tables
      where table_schema in ('payments', 'invoicing', 'webhooks', 'gateway') and table_type = 'BASE TABLE'`,
  );
  expect(tables.length).toBeGreaterThan(5);
  let database = '';
  for (const { table_schema, table_name } of tables) {
    const rows = await platform.sql<{ row: string }>(
      'payments',
      `select t::text as row from "${table_schema}"."${table_name}" t`,
    );
    database += rows.map((r) => r.row).join('\n');
  }
  // The mandate's card summary is there (brand and last digits), the numbers are not.
  expect(database).toContain('3184');
  for (const secret of [CARD, NEW_CARD, THREE_DS_CARD, SECRET_KEY, SECRET_KEY.slice(8), SIGNING_SECRET]) {
    expect({ secret, inLogs: logs.includes(secret), inDatabase: database.includes(secret) }).toEqual({
      secret,
      inLogs: false,
      inDatabase: false,
    });
  }
});
