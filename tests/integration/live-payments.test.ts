// Live mode never fakes a payment (issue 13, item 1). An account with no payment processor
// connected takes no live money: the live checkout and invoice pages show no card form, a
// forged form post, a live refund and a live mandate charge are all refused with
// processor_not_configured, and nothing is recorded as succeeded (no succeeded transaction,
// no ledger entry). The sandbox beside it keeps working. Both run modes.

import { TOPICS, type CommandEnvelope, type PaymentsCommandData } from '@paygrid/contracts';
import { newId, newSortableId } from '@paygrid/platform';
import { signCheckoutToken } from '../../apps/payments/src/payment-links/checkout-token';
import { CARDS, cardForm, csrfOf, decodeHtml, pathOf, payPage } from '../support/pages';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
});

/** A live merchant approved by the operator, so only the missing processor stands in the way. */
async function approvedLiveMerchant(): Promise<string> {
  const created = await platform.api(account.liveKey, 'POST', '/v1/merchants', {
    business_name: 'Live Shop',
    email: 'ops@live-shop.example',
    country: 'GB',
    default_currency: 'GBP',
    business_type: 'company',
    website: 'https://live-shop.example',
  });
  expect(created.status).toBe(200);
  const approved = await platform.admin('POST', `/admin/v1/merchants/${created.body.id}/approve`);
  expect(approved.body.onboarding.status).toBe('active');
  return created.body.id;
}

/** Everything the payments service holds for the account in live mode. */
async function liveMoney() {
  const [row] = await platform.sql<{ succeeded: string; transactions: string; entries: string }>(
    'payments',
    `select (select count(*) from payments.transactions where account_id = $1 and livemode and status = 'succeeded')::text as succeeded,
            (select count(*) from payments.transactions where account_id = $1 and livemode)::text as transactions,
            (select count(*) from payments.ledger_entries where account_id = $1 and livemode)::text as entries`,
    [account.id],
  );
  return row;
}

it('a live checkout shows no card form, and a forged form post charges nothing', async () => {
  const merchant = await approvedLiveMerchant();
  const link = await platform.api(account.liveKey, 'POST', '/v1/payment-links', {
    merchant,
    amount: 2500,
    currency: 'GBP',
  });
  expect(link.status).toBe(200);
  const path = pathOf(link.body.url);

  const page = await platform.api(undefined, 'GET', path);
  expect(page.status).toBe(409);
  expect(String(page.body)).toContain('Payments are not available yet');
  expect(String(page.body)).not.toContain('card_number');

  // A form post with a valid CSRF token (as if the page had been served) is refused too.
  const token = signCheckoutToken(platform.internalSecret, link.body.id, new Date());
  const posted = await platform.api(undefined, 'POST', path, cardForm(token, CARDS.ok));
  expect(posted.status).toBe(409);
  expect(String(posted.body)).toContain('Nothing was charged');

  expect(await liveMoney()).toEqual({ succeeded: '0', transactions: '0', entries: '0' });
  const live = await platform.api(account.liveKey, 'GET', `/v1/payment-links/${link.body.id}`);
  expect(live.body).toMatchObject({ status: 'active', completions_count: 0 });

  // The same flow in the sandbox pays.
  const sandboxLink = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
    amount: 2500,
    currency: 'GBP',
  });
  const paid = await payPage(platform, pathOf(sandboxLink.body.url), CARDS.ok);
  expect(paid.status).toBe(200);
  expect(String(paid.body)).toContain('Payment successful');
});

it('a live refund is refused with processor_not_configured, and reserves nothing', async () => {
  // A live payment as one would be left behind by a processor connection that is gone (its own
  // account, so the other tests' "nothing succeeded" stays true).
  const owner = await platform.newAccount(['payments']);
  const payment = newId('txn');
  await platform.sql(
    'payments',
    `insert into payments.transactions (id, account_id, livemode, type, status, amount, currency, processor_reference)
     values ($1, $2, true, 'payment', 'succeeded', 5000, 'USD', 'ch_gone')`,
    [payment, owner.id],
  );
  const refund = await platform.api(owner.liveKey, 'POST', '/v1/refunds', { transaction: payment });
  expect(refund.status).toBe(409);
  expect(refund.body.error).toMatchObject({
    type: 'invalid_request_error',
    code: 'processor_not_configured',
  });
  expect(refund.body.error.message).toMatch(/no payment processor is connected/);
  const [after] = await platform.sql(
    'payments',
    `select amount_refunded::text as refunded,
            (select count(*) from payments.refunds where transaction_id = $1)::text as refunds
       from payments.transactions where id = $1`,
    [payment],
  );
  expect(after).toEqual({ refunded: '0', refunds: '0' });
  // Tenancy first: an id the key cannot see is still a 404 that reveals nothing.
  const missing = await platform.api(owner.liveKey, 'POST', '/v1/refunds', {
    transaction: 'txn_00000000000000000000',
  });
  expect([missing.status, missing.body.error.code]).toEqual([404, 'resource_missing']);
});

it('a live invoice offers no card form on its payment page', async () => {
  const customer = await platform.api(account.liveKey, 'POST', '/v1/customers', {
    name: 'Live Customer',
    email: 'customer@live.example',
  });
  expect(customer.status).toBe(200);
  const invoice = await platform.api(account.liveKey, 'POST', '/v1/invoices', {
    customer: customer.body.id,
    currency: 'EUR',
    lines: [{ description: 'Consulting', quantity: 1, unit_amount: 12000 }],
  });
  expect(invoice.status).toBe(200);
  const hosted = await platform.api(undefined, 'GET', pathOf(invoice.body.hosted_url));
  expect(hosted.status).toBe(200);
  const payLink = /href="([^"]*\/pay\/invoices\/[^"]+)"/.exec(String(hosted.body))?.[1];
  expect(payLink).toBeDefined();
  const form = await platform.api(undefined, 'GET', pathOf(decodeHtml(String(payLink))));
  expect(form.status).toBe(409);
  expect(String(form.body)).toContain('Payments are not available yet');
  expect(() => csrfOf(String(form.body))).toThrow();
  expect(await liveMoney()).toMatchObject({ succeeded: '0', entries: '0' });
});

it('a live mandate charge fails with processor_not_configured and takes nothing', async () => {
  // A live mandate as one would be left behind by a processor connection that is gone.
  const mandate = newId('mdt');
  await platform.sql(
    'payments',
    `insert into payments.mandates (id, account_id, livemode, customer, payment_method, credential, currency, status)
     values ($1, $2, true, 'cus_0000000000000live01', '{"brand":"visa","last4":"4242","exp_month":12,"exp_year":2099}',
             'sbxcred_ok_live', 'USD', 'active')`,
    [mandate, account.id],
  );
  const reference = 'inv_00000000000000live1:1';
  const command: CommandEnvelope<PaymentsCommandData['payment.charge_mandate']> = {
    id: newSortableId('cmd'),
    type: 'payment.charge_mandate',
    created_at: new Date().toISOString(),
    livemode: true,
    account: account.id,
    data: {
      mandate,
      amount: 900,
      currency: 'USD',
      invoice: 'inv_00000000000000live1',
      customer: 'cus_0000000000000live01',
      reference,
    },
  };
  await platform.publish(TOPICS.paymentsCommands, [{ key: account.id, value: JSON.stringify(command) }]);
  const charged = await eventually(async () => {
    const list = await platform.api(account.liveKey, 'GET', '/v1/transactions?limit=100');
    const mine = list.body.data.filter((t: any) => t.reference === reference);
    return mine.length && mine[0].status !== 'pending' ? mine : undefined;
  });
  expect(charged).toHaveLength(1);
  expect(charged[0]).toMatchObject({
    status: 'failed',
    failure_code: 'processor_not_configured',
    livemode: true,
    amount: 900,
  });
  expect(await liveMoney()).toMatchObject({ succeeded: '0', entries: '0' });
});

it('/health says that no account can take live payments', async () => {
  const health = await platform.api(undefined, 'GET', '/health');
  expect(health.body.services.payments).toMatchObject({
    status: 'ok',
    live_processors: { configured_accounts: 0 },
  });
  expect(health.body.services.payments.live_processors.live_payments).toMatch(/refused for every account/);
});
