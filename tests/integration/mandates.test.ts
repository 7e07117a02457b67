// Mandates and recurring charges end to end, in both modes: a recurring link's hosted
// checkout stores the card, creates the mandate and makes the first charge; the scheduler
// charges the next cycle once the payments test clock moves one interval (and only once);
// the 0341 card fails its later charges until the mandate fails; cancel stops charges;
// payments.commands.v1 charges a mandate exactly once per reference; the hosted invoice card
// form pays an invoice and can save the card as an on-demand mandate; every account has a
// default merchant; links expire on time.

import {
  INVOICE_PAYMENT_TOKEN_PURPOSE,
  TOPICS,
  type CommandEnvelope,
  type InvoicePaymentTokenPayload,
  type PaymentsCommandData,
} from '@paygrid/contracts';
import { newSortableId, sealToken } from '@paygrid/platform';
import { cycleDate } from '../../apps/payments/src/mandates/cycle';
import { ledgerImbalances, postingMismatches } from '../../apps/payments/src/ledger/ledger';
import { CARDS, csrfOf, payPage, submitForm } from '../support/pages';
import { DAY_MS, eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;

const get = async (path: string, key = account.testKey) => {
  const response = await platform.api(key, 'GET', path);
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return response.body;
};

async function recurringLink(body: Record<string, unknown> = {}) {
  const response = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
    type: 'recurring',
    amount: 1500,
    currency: 'EUR',
    description: 'Monthly plan',
    recurring: { interval: 'month' },
    client_reference_id: 'order-42',
    metadata: { plan: 'pro' },
    ...body,
  });
  expect(response.status).toBe(200);
  return response.body;
}

/** Pays a recurring link through its hosted page; answers the first payment and the mandate. */
async function subscribe(card: string = CARDS.ok) {
  const link = await recurringLink();
  const page = await platform.api(undefined, 'GET', `/pay/${link.id}`);
  expect(page.status).toBe(200);
  expect(String(page.body)).toContain('until you cancel');
  const paid = await submitForm(platform, `/pay/${link.id}`, csrfOf(String(page.body)), card, {
    email: 'ada@example.test',
  });
  expect(paid.status).toBe(200);
  expect(String(paid.body)).toContain('Payment successful');
  const [payment] = (await get(`/v1/transactions?payment_link=${link.id}`)).data;
  expect(payment).toMatchObject({ status: 'succeeded', amount: 1500, currency: 'EUR' });
  expect(payment.mandate).toMatch(/^mdt_/);
  const mandate = await get(`/v1/mandates/${payment.mandate}`);
  return { link, payment, mandate };
}

const paymentsOfMandate = async (mandate: string) =>
  (await platform.sql<{ id: string; status: string; failure_code: string | null }>(
    'payments',
    `select id, status, failure_code from payments.transactions where mandate = $1 and type = 'payment' order by created_at`,
    [mandate],
  )) as { id: string; status: string; failure_code: string | null }[];

const eventTypesOf = async (objectId: string) => {
  const events = (await get('/v1/events?limit=100')).data as any[];
  return events
    .filter((e) => e.data.object.id === objectId)
    .map((e) => e.type)
    .sort();
};

/** Puts a payment.charge_mandate command on payments.commands.v1; answers its id. */
async function publishCommand(
  accountId: string,
  livemode: boolean,
  data: PaymentsCommandData['payment.charge_mandate'],
  id = newSortableId('cmd'),
): Promise<string> {
  const command: CommandEnvelope<PaymentsCommandData['payment.charge_mandate']> = {
    id,
    type: 'payment.charge_mandate',
    created_at: new Date().toISOString(),
    livemode,
    account: accountId,
    data,
  };
  await platform.publish(TOPICS.paymentsCommands, [{ key: accountId, value: JSON.stringify(command) }]);
  return id;
}

beforeAll(async () => {
  platform = await startPlatform({ paymentsTestClock: true });
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
});

describe('recurring checkout and the scheduler', () => {
  it('creates the mandate with the first charge, then charges each cycle once when the clock moves', async () => {
    const { link, payment, mandate } = await subscribe();
    expect(mandate).toMatchObject({
      object: 'mandate',
      status: 'active',
      type: 'recurring',
      payment_link: link.id,
      merchant: link.merchant,
      client_reference_id: 'order-42',
      metadata: { plan: 'pro' },
      payer: { name: 'Ada Lovelace', email: 'ada@example.test' },
      payment_method: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099 },
      amount: 1500,
      currency: 'EUR',
      interval: 'month',
      interval_count: 1,
    });
    expect(mandate.next_charge_at).toBe(cycleDate(new Date(mandate.created_at), 'month', 1, 1).toISOString());
    expect(payment).toMatchObject({ client_reference_id: 'order-42', metadata: { plan: 'pro' } });
    expect(JSON.stringify(await platform.sql('payments', 'select * from payments.mandates'))).not.toContain(
      '4242424242424242',
    );

    // Not due yet: nothing happens.
    const early = await platform.advancePaymentsClock(DAY_MS);
    expect(await paymentsOfMandate(mandate.id)).toHaveLength(1);
    expect(early.ran.mandate_charges).toBe(0);

    // One interval later (from the anchor): cycle 1 is charged, once.
    await platform.advancePaymentsClock(31 * DAY_MS);
    const charges = await paymentsOfMandate(mandate.id);
    expect(charges.map((c) => c.status)).toEqual(['succeeded', 'succeeded']);
    await platform.advancePaymentsClock(0);
    expect(await paymentsOfMandate(mandate.id)).toHaveLength(2);
    const second = await get(`/v1/transactions/${charges[1].id}`);
    expect(second).toMatchObject({
      type: 'payment',
      amount: 1500,
      mandate: mandate.id,
      payment_link: link.id,
      client_reference_id: 'order-42',
      metadata: { plan: 'pro' },
      payment_method: { last4: '4242' },
    });
    const after = await get(`/v1/mandates/${mandate.id}`);
    expect(after.next_charge_at).toBe(cycleDate(new Date(mandate.created_at), 'month', 1, 2).toISOString());
    await eventually(async () => {
      const types = await eventTypesOf(mandate.id);
      return types.includes('mandate.created') ? true : undefined;
    });
    await eventually(async () =>
      (await eventTypesOf(charges[1].id)).includes('payment.succeeded') ? true : undefined,
    );
  });

  it('retries a failing cycle, then fails the mandate (card 4000 0000 0000 0341)', async () => {
    const { mandate } = await subscribe(CARDS.laterFails);
    expect(mandate.payment_method.last4).toBe('0341');
    const anchor = new Date(mandate.created_at);
    const { now } = await platform.advancePaymentsClock(32 * DAY_MS);
    expect(now.getTime()).toBeGreaterThanOrEqual(cycleDate(anchor, 'month', 1, 1).getTime());

    const attempt1 = await paymentsOfMandate(mandate.id);
    expect(attempt1.map((c) => [c.status, c.failure_code])).toEqual([
      ['succeeded', null],
      ['failed', 'card_declined'],
    ]);
    const retrying = await get(`/v1/mandates/${mandate.id}`);
    expect(retrying).toMatchObject({ status: 'active', failure_code: 'card_declined' });
    expect(new Date(retrying.next_charge_at).getTime()).toBe(
      new Date(retrying.updated_at).getTime() + DAY_MS,
    );

    await platform.advancePaymentsClock(DAY_MS + 1000);
    expect(await paymentsOfMandate(mandate.id)).toHaveLength(3);
    expect((await get(`/v1/mandates/${mandate.id}`)).status).toBe('active');
    await platform.advancePaymentsClock(3 * DAY_MS + 1000);
    const all = await paymentsOfMandate(mandate.id);
    expect(all.map((c) => c.status)).toEqual(['succeeded', 'failed', 'failed', 'failed']);
    const failed = await get(`/v1/mandates/${mandate.id}`);
    expect(failed).toMatchObject({ status: 'failed', next_charge_at: null, failure_code: 'card_declined' });

    // Failed for good: no further charge, and it cannot be canceled.
    await platform.advancePaymentsClock(40 * DAY_MS);
    expect(await paymentsOfMandate(mandate.id)).toHaveLength(4);
    const cancel = await platform.api(account.testKey, 'POST', `/v1/mandates/${mandate.id}/cancel`, {});
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('invalid_state_transition');
    await eventually(async () => {
      const types = await eventTypesOf(mandate.id);
      return types.includes('mandate.failed') ? types : undefined;
    });
    await eventually(async () =>
      (await eventTypesOf(all[1].id)).includes('payment.failed') ? true : undefined,
    );
  });

  it('the sandbox test helper runs the next attempt now, through the retries to mandate.failed (0341)', async () => {
    const { mandate } = await subscribe(CARDS.laterFails);
    const helper = (id: string, key = account.testKey, body: unknown = {}) =>
      platform.api(key, 'POST', `/v1/mandates/${id}/test-helpers/charge`, body);
    // Another account, live mode and a key without mandates:write cannot use it.
    const other = await platform.newAccount(['payments']);
    for (const key of [other.testKey, account.liveKey]) {
      const refused = await helper(mandate.id, key);
      expect({ status: refused.status, code: refused.body.error.code }).toEqual({
        status: 404,
        code: 'resource_missing',
      });
    }
    const readOnly = await platform.admin('POST', `/admin/v1/accounts/${account.id}/keys`, {
      mode: 'test',
      kind: 'restricted',
      scopes: ['mandates:read'],
    });
    expect((await helper(mandate.id, readOnly.body.secret)).status).toBe(403);
    expect(await paymentsOfMandate(mandate.id)).toHaveLength(1);

    const first = await helper(mandate.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: mandate.id, status: 'active', failure_code: 'card_declined' });
    // The retry is scheduled as the failure policy says: a day after the failed attempt.
    expect(new Date(first.body.next_charge_at).getTime()).toBe(
      new Date(first.body.updated_at).getTime() + DAY_MS,
    );
    expect((await helper(mandate.id)).body.status).toBe('active');
    const last = await helper(mandate.id);
    expect(last.body).toMatchObject({
      status: 'failed',
      next_charge_at: null,
      failure_code: 'card_declined',
    });
    const charges = await paymentsOfMandate(mandate.id);
    expect(charges.map((c) => [c.status, c.failure_code])).toEqual([
      ['succeeded', null],
      ['failed', 'card_declined'],
      ['failed', 'card_declined'],
      ['failed', 'card_declined'],
    ]);
    // Failed for good: the helper refuses it, as it refuses an on_demand mandate (no schedule).
    const after = await helper(mandate.id);
    expect({ status: after.status, code: after.body.error.code }).toEqual({
      status: 409,
      code: 'invalid_state_transition',
    });
    await eventually(async () =>
      (await eventTypesOf(mandate.id)).includes('mandate.failed') ? true : undefined,
    );
    const saved = await platform.api(account.testKey, 'POST', '/v1/transactions/test-helpers/payments', {
      amount: 1000,
      currency: 'USD',
      card_number: CARDS.ok,
      save_card: true,
    });
    const onDemand = await helper(String(saved.body.mandate));
    expect({ status: onDemand.status, code: onDemand.body.error.code }).toEqual({
      status: 409,
      code: 'invalid_state_transition',
    });
  });

  it('creates no mandate when the first charge is declined', async () => {
    const link = await recurringLink();
    const answer = await payPage(platform, `/pay/${link.id}`, CARDS.insufficientFunds);
    expect(answer.status).toBe(402);
    expect(String(answer.body)).toContain('insufficient funds');
    const [payment] = (await get(`/v1/transactions?payment_link=${link.id}`)).data;
    expect(payment).toMatchObject({ status: 'failed', failure_code: 'insufficient_funds', mandate: null });
    const mandates = await platform.sql(
      'payments',
      'select id from payments.mandates where payment_link = $1',
      [link.id],
    );
    expect(mandates).toHaveLength(0);
  });

  it('stops charging a canceled mandate; other accounts and modes see 404', async () => {
    const { mandate } = await subscribe();
    const canceled = await platform.api(account.testKey, 'POST', `/v1/mandates/${mandate.id}/cancel`, {});
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', next_charge_at: null });
    expect(canceled.body.canceled_at).not.toBeNull();
    const again = await platform.api(account.testKey, 'POST', `/v1/mandates/${mandate.id}/cancel`, {});
    expect(again.body).toEqual(canceled.body);
    await platform.advancePaymentsClock(40 * DAY_MS);
    expect(await paymentsOfMandate(mandate.id)).toHaveLength(1);

    const other = await platform.newAccount(['payments']);
    for (const key of [other.testKey, account.liveKey]) {
      expect((await platform.api(key, 'GET', `/v1/mandates/${mandate.id}`)).status).toBe(404);
      expect((await platform.api(key, 'POST', `/v1/mandates/${mandate.id}/cancel`, {})).status).toBe(404);
    }
    const listed = await get('/v1/mandates?limit=100');
    expect(listed.data.map((m: any) => m.id)).toContain(mandate.id);
    expect(
      await eventually(async () =>
        (await eventTypesOf(mandate.id)).includes('mandate.canceled') ? true : undefined,
      ),
    ).toBe(true);
  });

  it('keeps the ledger balanced', async () => {
    const db = { query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params) };
    expect(await ledgerImbalances(db)).toEqual([]);
    expect(await postingMismatches(db)).toEqual([]);
  });
});

describe('payments.commands.v1: payment.charge_mandate', () => {
  it('charges an on-demand mandate once per reference and answers an invalid mandate with mandate_invalid', async () => {
    // A real customer: the test helper refuses an id invoicing never announced (issue 12 finding 10).
    const created = await platform.api(account.testKey, 'POST', '/v1/customers', { name: 'Commands' });
    expect(created.status).toBe(200);
    const customer: string = created.body.id;
    const saved = await platform.api(account.testKey, 'POST', '/v1/transactions/test-helpers/payments', {
      amount: 100,
      currency: 'USD',
      card_number: CARDS.ok,
      save_card: true,
      customer,
    });
    expect(saved.status).toBe(200);
    const mandate = await get(`/v1/mandates/${saved.body.mandate}`);
    expect(mandate).toMatchObject({ type: 'on_demand', customer, interval: null, next_charge_at: null });

    const command = {
      mandate: mandate.id,
      amount: 4200,
      currency: 'USD',
      invoice: 'inv_0000000000command01',
      customer,
      reference: 'inv_0000000000command01:1',
    };
    const first = await publishCommand(account.id, false, command);
    // The same message again (redelivery) and a new message with the same reference (sender retry).
    await publishCommand(account.id, false, command, first);
    await publishCommand(account.id, false, command);
    const charged = await eventually(async () => {
      const list = (await get('/v1/transactions?limit=100')).data.filter(
        (t: any) => t.reference === command.reference,
      );
      return list.length && list[0].status !== 'pending' ? list : undefined;
    });
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({
      status: 'succeeded',
      amount: 4200,
      mandate: mandate.id,
      invoice: command.invoice,
      customer,
      reference: command.reference,
    });
    const event = await eventually(async () =>
      (await get('/v1/events?type=payment.succeeded&limit=100')).data.find(
        (e: any) => e.data.object.id === charged[0].id,
      ),
    );
    expect(event.data.object.reference).toBe(command.reference);

    // Nothing more arrives for that reference, whatever the bus redelivers.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rows = await platform.sql('payments', 'select id from payments.transactions where reference = $1', [
      command.reference,
    ]);
    expect(rows).toHaveLength(1);

    const invalid = { ...command, mandate: 'mdt_000000000000nonexistent', reference: 'inv_x:1' };
    await publishCommand(account.id, false, invalid);
    const answer = await eventually(async () =>
      (await get('/v1/transactions?limit=100')).data.find((t: any) => t.reference === 'inv_x:1'),
    );
    expect(answer).toMatchObject({
      status: 'failed',
      failure_code: 'mandate_invalid',
      invoice: command.invoice,
    });
    await eventually(async () =>
      (await get('/v1/events?type=payment.failed&limit=100')).data.find(
        (e: any) => e.data.object.id === answer.id,
      ),
    );

    // Another mode's mandate is as good as unknown.
    const otherMode = { ...command, reference: 'inv_y:1' };
    await publishCommand(account.id, true, otherMode);
    const live = await eventually(async () =>
      (await get('/v1/transactions?limit=100', account.liveKey)).data.find(
        (t: any) => t.reference === 'inv_y:1',
      ),
    );
    expect(live).toMatchObject({ status: 'failed', failure_code: 'mandate_invalid', livemode: true });
  });
});

describe('card payment of an invoice (/pay/invoices/:token)', () => {
  const payload = (overrides: Partial<InvoicePaymentTokenPayload> = {}): InvoicePaymentTokenPayload => ({
    account: account.id,
    livemode: false,
    invoice: 'inv_00000000000payinv01',
    customer: 'cus_00000000000payinv01',
    amount: 12_345,
    currency: 'GBP',
    description: 'Invoice INV-0007 from Acme',
    merchant_name: 'Acme <Ltd>',
    return_url: 'https://invoices.example.test/i/abc',
    offer_save_card: true,
    ...overrides,
  });
  /** Sealed as the invoicing service does, valid for an hour of the payments clock (moved by the tests above). */
  const seal = async (p: InvoicePaymentTokenPayload) => {
    const { now } = await platform.advancePaymentsClock(0);
    return sealToken(
      platform.internalSecret,
      INVOICE_PAYMENT_TOKEN_PURPOSE,
      p,
      new Date(now.getTime() + 3_600_000),
    );
  };

  it('renders the form, re-renders a decline, pays once, saves the card as an on-demand mandate', async () => {
    const path = `/pay/invoices/${await seal(payload())}`;
    const page = await platform.api(undefined, 'GET', path);
    expect(page.status).toBe(200);
    const html = String(page.body);
    expect(html).toContain('Acme &lt;Ltd&gt;');
    expect(html).toContain('Invoice INV-0007 from Acme');
    expect(html).toContain('123.45 GBP');
    expect(html).toContain('name="save_card"');
    expect(html).toContain('<label for="card_number">');
    expect(page.headers.get('content-security-policy')).toContain(
      "form-action 'self' https://invoices.example.test",
    );

    const declined = await submitForm(platform, path, csrfOf(html), CARDS.declined, { save_card: 'yes' });
    expect(declined.status).toBe(402);
    expect(String(declined.body)).toContain('role="alert"');
    expect(String(declined.body)).toContain('The card was declined.');

    const token = csrfOf(String(declined.body));
    const [paid, doubleClick] = await Promise.all([
      submitForm(platform, path, token, CARDS.ok, { save_card: 'yes' }),
      submitForm(platform, path, token, CARDS.ok, { save_card: 'yes' }),
    ]);
    expect(paid.status).toBe(303);
    expect(doubleClick.status).toBe(303);
    const location = new URL(String(paid.headers.get('location')));
    expect(location.origin + location.pathname).toBe('https://invoices.example.test/i/abc');
    const txnId = location.searchParams.get('payment');
    expect(doubleClick.headers.get('location')).toBe(paid.headers.get('location'));

    const payment = await get(`/v1/transactions/${txnId}`);
    expect(payment).toMatchObject({
      status: 'succeeded',
      amount: 12_345,
      currency: 'GBP',
      invoice: 'inv_00000000000payinv01',
      customer: 'cus_00000000000payinv01',
    });
    const mandate = await get(`/v1/mandates/${payment.mandate}`);
    expect(mandate).toMatchObject({
      type: 'on_demand',
      customer: 'cus_00000000000payinv01',
      status: 'active',
    });
    const merchant = await get(`/v1/merchants/${payment.merchant}`);
    expect(merchant).toMatchObject({ is_default: true });

    // The invoice token pays once: the page now goes back to the invoice, and so does a new form post.
    const reopened = await platform.api(undefined, 'GET', path);
    expect(reopened.status).toBe(303);
    const invoicePayments = await platform.sql(
      'payments',
      'select id from payments.transactions where invoice = $1',
      ['inv_00000000000payinv01'],
    );
    expect(invoicePayments).toHaveLength(2); // the decline and the payment
    await eventually(async () =>
      (await eventTypesOf(mandate.id)).includes('mandate.created') ? true : undefined,
    );
  });

  it('takes no live payment while the account has no processor (409 page, no card form)', async () => {
    const path = `/pay/invoices/${await seal(payload({ livemode: true, invoice: 'inv_00000000000payinv03' }))}`;
    const answer = await platform.api(undefined, 'GET', path);
    expect(answer.status).toBe(409);
    expect(String(answer.body)).toContain('Payments are not available yet');
    expect(String(answer.body)).not.toContain('card_number');
    const rows = await platform.sql('payments', 'select id from payments.transactions where invoice = $1', [
      'inv_00000000000payinv03',
    ]);
    expect(rows).toHaveLength(0);
  });

  it('refuses forged, expired and other-purpose tokens, and forms without a valid CSRF token', async () => {
    const good = await seal(payload({ invoice: 'inv_00000000000payinv02', offer_save_card: false }));
    const forged = `${good.slice(0, -2)}xx`;
    expect((await platform.api(undefined, 'GET', `/pay/invoices/${forged}`)).status).toBe(404);
    const expired = sealToken(
      platform.internalSecret,
      INVOICE_PAYMENT_TOKEN_PURPOSE,
      payload(),
      new Date(Date.now() - 1000),
    );
    expect((await platform.api(undefined, 'GET', `/pay/invoices/${expired}`)).status).toBe(404);
    const { now } = await platform.advancePaymentsClock(0);
    const otherPurpose = sealToken(
      platform.internalSecret,
      'something.else',
      payload(),
      new Date(now.getTime() + DAY_MS),
    );
    expect((await platform.api(undefined, 'GET', `/pay/invoices/${otherPurpose}`)).status).toBe(404);
    const page = await platform.api(undefined, 'GET', `/pay/invoices/${good}`);
    expect(String(page.body)).not.toContain('save_card');
    const noCsrf = await submitForm(platform, `/pay/invoices/${good}`, 'nope', CARDS.ok);
    expect(noCsrf.status).toBe(403);
    expect(
      await platform.sql('payments', 'select id from payments.transactions where invoice = $1', [
        'inv_00000000000payinv02',
      ]),
    ).toHaveLength(0);
  });
});

describe('default merchant and link expiry', () => {
  it('gives every account one default merchant, active at once in the sandbox and pending in live mode', async () => {
    const fresh = await platform.newAccount(['payments']);
    const links = await Promise.all(
      [1, 2, 3].map(() =>
        platform.api(fresh.testKey, 'POST', '/v1/payment-links', { amount: 500, currency: 'USD' }),
      ),
    );
    const merchants = new Set(links.map((l) => l.body.merchant));
    expect(merchants.size).toBe(1);
    const [merchantId] = [...merchants];
    const merchant = (await platform.api(fresh.testKey, 'GET', `/v1/merchants/${merchantId}`)).body;
    expect(merchant).toMatchObject({ is_default: true, onboarding: { status: 'active' } });
    expect(merchant.business_name).toMatch(/^Test /);

    const live = await platform.api(fresh.liveKey, 'POST', '/v1/payment-links', {
      amount: 500,
      currency: 'USD',
    });
    expect(live.status).toBe(200);
    const liveMerchant = (await platform.api(fresh.liveKey, 'GET', `/v1/merchants/${live.body.merchant}`))
      .body;
    expect(liveMerchant).toMatchObject({
      is_default: true,
      livemode: true,
      onboarding: { status: 'pending' },
    });
    expect(liveMerchant.id).not.toBe(merchantId);
  });

  it('expires a link at expires_at with payment_link.expired, and its page says so', async () => {
    const { now } = await platform.advancePaymentsClock(0);
    const created = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
      amount: 700,
      currency: 'USD',
      expires_at: new Date(now.getTime() + 60_000).toISOString(),
    });
    expect(created.status).toBe(200);
    const open = await payPage(platform, `/pay/${created.body.id}`, CARDS.declined);
    expect(open.status).toBe(402);
    const { ran } = await platform.advancePaymentsClock(120_000);
    expect(ran.links_expired).toBeGreaterThanOrEqual(1);
    expect((await get(`/v1/payment-links/${created.body.id}`)).status).toBe('expired');
    const page = await platform.api(undefined, 'GET', `/pay/${created.body.id}`);
    expect(page.status).toBe(410);
    expect(String(page.body)).toContain('This payment link has expired');
    const event = await eventually(async () =>
      (await get('/v1/events?type=payment_link.expired&limit=100')).data.find(
        (e: any) => e.data.object.id === created.body.id,
      ),
    );
    expect(event.data.previous_attributes).toEqual({ status: 'active' });
  });
});
