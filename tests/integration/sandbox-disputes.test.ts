// Disputes in the sandbox (issue 13): the test card 4000 0000 0000 0259 makes a payment that
// succeeds and is disputed at once, as Stripe's card of that number does, through the same
// DisputesService path a processor webhook takes: a `dispute.created` event, the disputed amount
// out of the merchant's balance (ledger legs balanced, checked against the dispute), held back
// from refunds. Through the API's test helper and the hosted checkout. The test helper
// POST /v1/disputes/:id/test-helpers/update moves it as a processor's webhook would (updated,
// won with the money back, lost). Both run modes.

import {
  disputeMismatches,
  ledgerImbalances,
  postingMismatches,
} from '../../apps/payments/src/ledger/ledger';
import { eventAbout } from '../support/events';
import { pathOf, payPage } from '../support/pages';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';

const DISPUTED = '4000000000000259';
let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments']);
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);
const ledger = () => {
  const db = { query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params) };
  return Promise.all([ledgerImbalances(db), postingMismatches(db), disputeMismatches(db)]);
};

it('a payment with 0259 succeeds and is disputed at once: event, ledger, nothing left to refund', async () => {
  const paid = await api('POST', '/v1/transactions/test-helpers/payments', {
    amount: 3000,
    currency: 'eur',
    card_number: DISPUTED,
  });
  expect(paid.status).toBe(200);
  // The answer is the payment as charged; the dispute comes with it (as Stripe's follows it).
  expect(paid.body.status).toBe('succeeded');
  expect((await api('GET', `/v1/transactions/${paid.body.id}`)).body.refundable_amount).toBe(0);

  const listed = await api('GET', `/v1/disputes?transaction=${paid.body.id}`);
  expect(listed.body.data).toHaveLength(1);
  const [dispute] = listed.body.data;
  expect(dispute).toMatchObject({
    object: 'dispute',
    livemode: false,
    transaction: paid.body.id,
    amount: 3000,
    currency: 'EUR',
    fee: 0,
    reason: 'fraudulent',
    status: 'needs_response',
    processor_reference: expect.stringMatching(/^sbx_du_/),
  });
  const created = await eventAbout(platform, account.testKey, 'dispute.created', dispute.id);
  expect(created.data.object).toMatchObject({ id: dispute.id, status: 'needs_response' });
  expect(await ledger()).toEqual([[], [], []]);

  // The disputed money is held back: a refund of it is refused.
  const refund = await api('POST', '/v1/refunds', { transaction: paid.body.id, amount: 1 });
  expect([refund.status, refund.body.error.code]).toEqual([422, 'refund_exceeds_remaining']);
  const [net] = await platform.sql<{ net: string }>(
    'payments',
    `select sum(case when direction = 'credit' then amount else -amount end)::text as net
       from payments.ledger_entries where ledger_account = $1`,
    [`merchant_balance:${paid.body.merchant}`],
  );
  expect(Number(net.net)).toBe(0);
});

it('paid through the hosted checkout, the dispute opens with the payment; other cards are not disputed', async () => {
  const link = await api('POST', '/v1/payment-links', { amount: 1800, currency: 'GBP' });
  const paid = await payPage(platform, pathOf(link.body.url), DISPUTED);
  expect(paid.status).toBe(200);
  expect(String(paid.body)).toContain('Payment successful');
  const [payment] = (await api('GET', `/v1/transactions?payment_link=${link.body.id}`)).body.data;
  const disputes = (await api('GET', `/v1/disputes?transaction=${payment.id}`)).body.data;
  expect(disputes.map((d: { amount: number; status: string }) => [d.amount, d.status])).toEqual([
    [1800, 'needs_response'],
  ]);

  const plain = await api('POST', '/v1/transactions/test-helpers/payments', {
    amount: 500,
    currency: 'eur',
    card_number: '4242424242424242',
  });
  expect((await api('GET', `/v1/disputes?transaction=${plain.body.id}`)).body.data).toEqual([]);
  expect(await ledger()).toEqual([[], [], []]);
});

it('the test helper moves a sandbox dispute as its processor would: under review, then won or lost', async () => {
  const disputedPayment = async () => {
    const paid = await api('POST', '/v1/transactions/test-helpers/payments', {
      amount: 2000,
      currency: 'usd',
      card_number: DISPUTED,
    });
    return {
      payment: paid.body,
      dispute: (await api('GET', `/v1/disputes?transaction=${paid.body.id}`)).body.data[0],
    };
  };
  const move = (id: string, status: string, key = account.testKey) =>
    platform.api(key, 'POST', `/v1/disputes/${id}/test-helpers/update`, { status });

  const first = await disputedPayment();
  const reviewed = await move(first.dispute.id, 'under_review');
  expect([reviewed.status, reviewed.body.status]).toEqual([200, 'under_review']);
  await eventAbout(platform, account.testKey, 'dispute.updated', first.dispute.id);
  const won = await move(first.dispute.id, 'won');
  expect(won.body).toMatchObject({ status: 'won', closed_at: expect.any(String) });
  await eventAbout(platform, account.testKey, 'dispute.closed', first.dispute.id);
  // Won: the money is the merchant's again, and refundable.
  expect((await api('GET', `/v1/transactions/${first.payment.id}`)).body.refundable_amount).toBe(2000);
  expect(await ledger()).toEqual([[], [], []]);
  // Closed is final.
  const again = await move(first.dispute.id, 'lost');
  expect([again.status, again.body.error.code]).toEqual([409, 'invalid_state_transition']);

  const second = await disputedPayment();
  expect((await move(second.dispute.id, 'lost')).body.status).toBe('lost');
  expect((await api('GET', `/v1/transactions/${second.payment.id}`)).body.refundable_amount).toBe(0);
  expect(await ledger()).toEqual([[], [], []]);

  // Bad input, another account, live mode: refused before anything moves.
  const bad = await platform.api(
    account.testKey,
    'POST',
    `/v1/disputes/${second.dispute.id}/test-helpers/update`,
    {
      status: 'needs_response',
    },
  );
  expect([bad.status, bad.body.error.code]).toEqual([400, 'parameter_invalid']);
  const other = await platform.newAccount(['payments']);
  expect((await move(first.dispute.id, 'lost', other.testKey)).status).toBe(404);
  expect((await move(first.dispute.id, 'lost', other.liveKey)).status).toBe(404);
});
