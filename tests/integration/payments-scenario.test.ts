// The payments grouping's scenario, end to end through the gateway, in both modes (embedded,
// and four processes on real PostgreSQL + Kafka + Redis): onboard a merchant -> a payment link
// -> pay it with every sandbox test card through the hosted page (HTTP form posts, no JS) ->
// the transaction rows, a balanced ledger and the events in /v1/events -> partial refunds ->
// an over-refund rejected; then a recurring link -> its mandate -> the second charge once the
// payments clock moves one interval (the scheduler) -> the 0341 card failing its later charge.

import { ledgerImbalances, postingMismatches } from '../../apps/payments/src/ledger/ledger';
import { eventAbout } from '../support/events';
import { CARDS, csrfOf, payPage, submitForm } from '../support/pages';
import { DAY_MS, startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;
let merchant: string;

const get = async (path: string) => {
  const response = await platform.api(account.testKey, 'GET', path);
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return response.body;
};

const ledger = () => {
  const db = { query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params) };
  return Promise.all([ledgerImbalances(db), postingMismatches(db)]);
};

const eventFor = (type: string, id: string) => eventAbout(platform, account.testKey, type, id);

beforeAll(async () => {
  platform = await startPlatform({ paymentsTestClock: true });
  account = await platform.newAccount(['payments']);
});

afterAll(async () => {
  await platform?.stop();
});

describe('the payments scenario', () => {
  it('onboards a merchant (sandbox decides at once)', async () => {
    const created = await platform.api(account.testKey, 'POST', '/v1/merchants', {
      business_name: 'Scenario Books',
      email: 'owner@scenario.test',
      country: 'DE',
      default_currency: 'EUR',
      business_type: 'company',
    });
    expect(created.status).toBe(200);
    expect(created.body.onboarding).toMatchObject({ status: 'active', requirements_due: [] });
    merchant = created.body.id;
    const event = await eventFor('merchant.onboarding.updated', merchant);
    expect(event.merchant).toBe(merchant);
  });

  it('pays a link with every sandbox test card through the hosted page', async () => {
    const link = (
      await platform.api(account.testKey, 'POST', '/v1/payment-links', {
        merchant,
        currency: 'EUR',
        line_items: [
          { description: 'Book', quantity: 2, unit_amount: 1250 },
          { description: 'Bookmark', quantity: 1, unit_amount: 300 },
        ],
        max_completions: 10,
        client_reference_id: 'basket-7',
        metadata: { channel: 'scenario' },
      })
    ).body;
    expect(link.amount_total).toBe(2800);
    const page = await platform.api(undefined, 'GET', `/pay/${link.id}`);
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('Scenario Books');

    const expected: [string, number, string | null][] = [
      [CARDS.declined, 402, 'card_declined'],
      [CARDS.insufficientFunds, 402, 'insufficient_funds'],
      [CARDS.expired, 402, 'expired_card'],
      [CARDS.processingError, 402, 'processing_error'],
      [CARDS.ok, 200, null],
      [CARDS.laterFails, 200, null],
    ];
    // Each answer carries the next form (a decline re-renders it with a fresh token).
    let html = String(page.body);
    for (const [card, status] of expected) {
      const answer = await submitForm(platform, `/pay/${link.id}`, csrfOf(html), card);
      expect({ card, status: answer.status }).toEqual({ card, status });
      html =
        status === 200
          ? String((await platform.api(undefined, 'GET', `/pay/${link.id}`)).body)
          : String(answer.body);
      if (status === 402) expect(String(answer.body)).toContain('role="alert"');
    }

    const rows = (await get(`/v1/transactions?payment_link=${link.id}&limit=100`)).data.reverse();
    expect(rows.map((t: any) => [t.payment_method.last4, t.status, t.failure_code])).toEqual(
      expected.map(([card, status, code]) => [card.slice(-4), status === 200 ? 'succeeded' : 'failed', code]),
    );
    for (const t of rows) {
      expect(t).toMatchObject({
        type: 'payment',
        amount: 2800,
        currency: 'EUR',
        merchant,
        payment_link: link.id,
        client_reference_id: 'basket-7',
        metadata: { channel: 'scenario' },
      });
      await eventFor(t.status === 'succeeded' ? 'payment.succeeded' : 'payment.failed', t.id);
    }
    expect((await get(`/v1/payment-links/${link.id}`)).completions_count).toBe(2);
    expect(await ledger()).toEqual([[], []]);

    // Partial refunds of the 4242 payment, then an over-refund.
    const paid = rows.find((t: any) => t.payment_method.last4 === '4242');
    const first = await platform.api(account.testKey, 'POST', '/v1/refunds', {
      transaction: paid.id,
      amount: 800,
    });
    const second = await platform.api(account.testKey, 'POST', '/v1/refunds', {
      transaction: paid.id,
      amount: 1500,
      reason: 'requested_by_customer',
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.body.status, second.body.status]).toEqual(['succeeded', 'succeeded']);
    const over = await platform.api(account.testKey, 'POST', '/v1/refunds', {
      transaction: paid.id,
      amount: 501,
    });
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe('refund_exceeds_remaining');
    expect(await get(`/v1/transactions/${paid.id}`)).toMatchObject({
      amount_refunded: 2300,
      refundable_amount: 500,
    });
    const failed = rows.find((t: any) => t.status === 'failed');
    const notRefundable = await platform.api(account.testKey, 'POST', '/v1/refunds', {
      transaction: failed.id,
    });
    expect(notRefundable.status).toBe(409);
    await eventFor('refund.succeeded', second.body.id);
    expect(await ledger()).toEqual([[], []]);
  });

  it('a recurring link: the mandate, the second charge one interval later, and the 0341 card failing it', async () => {
    const subscribe = async (card: string) => {
      const link = (
        await platform.api(account.testKey, 'POST', '/v1/payment-links', {
          merchant,
          type: 'recurring',
          amount: 990,
          currency: 'EUR',
          recurring: { interval: 'week' },
          description: 'Weekly box',
        })
      ).body;
      const paid = await payPage(platform, `/pay/${link.id}`, card);
      expect(paid.status).toBe(200);
      const [payment] = (await get(`/v1/transactions?payment_link=${link.id}`)).data;
      return { link, payment, mandate: await get(`/v1/mandates/${payment.mandate}`) };
    };
    const good = await subscribe(CARDS.ok);
    const later = await subscribe(CARDS.laterFails);
    for (const { mandate } of [good, later]) {
      expect(mandate).toMatchObject({ status: 'active', interval: 'week', interval_count: 1, merchant });
      await eventFor('mandate.created', mandate.id);
    }

    await platform.advancePaymentsClock(7 * DAY_MS + 60_000);
    const cycles = async (mandate: string) =>
      (await get(`/v1/transactions?limit=100`)).data
        .filter((t: any) => t.mandate === mandate && t.type === 'payment')
        .reverse()
        .map((t: any) => [t.status, t.failure_code]);
    expect(await cycles(good.mandate.id)).toEqual([
      ['succeeded', null],
      ['succeeded', null],
    ]);
    expect(await cycles(later.mandate.id)).toEqual([
      ['succeeded', null],
      ['failed', 'card_declined'],
    ]);
    const failedCharge = (await get(`/v1/transactions?limit=100`)).data.find(
      (t: any) => t.mandate === later.mandate.id && t.status === 'failed',
    );
    await eventFor('payment.failed', failedCharge.id);
    expect((await get(`/v1/mandates/${later.mandate.id}`)).status).toBe('active'); // retries follow
    expect(await ledger()).toEqual([[], []]);
  });
});
