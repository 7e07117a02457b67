// Refunds and the ledger, end to end through the gateway, in both modes (embedded: PGlite;
// distributed: real PostgreSQL). Payments come from the test-mode helper
// POST /v1/transactions/test-helpers/payments, which charges the sandbox test cards.

import fc from 'fast-check';
import { ledgerImbalances, postingMismatches } from '../../apps/payments/src/ledger/ledger';
import { eventAbout } from '../support/events';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;

const CARDS = {
  ok: '4242424242424242',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  expired: '4000000000000069',
  processing: '4000000000000119',
  once: '4000000000000341',
  refundsFail: '4000000000005126',
} as const;

const db = () => ({
  query: <T>(sql: string, params?: unknown[]) => platform.sql<T>('payments', sql, params),
});

async function pay(amount: number, card: string = CARDS.ok, key = account.testKey) {
  const response = await platform.api(key, 'POST', '/v1/transactions/test-helpers/payments', {
    amount,
    currency: 'usd',
    card_number: card,
  });
  expect(response.status).toBe(200);
  return response.body;
}

const refund = (body: Record<string, unknown>, headers?: Record<string, string>, key = account.testKey) =>
  platform.api(key, 'POST', '/v1/refunds', body, headers);

async function expectLedgerSound() {
  expect(await ledgerImbalances(db())).toEqual([]);
  expect(await postingMismatches(db())).toEqual([]);
  // Per payment: amount_refunded == non-failed refunds, and succeeded refunds <= amount.
  const rows = await platform.sql(
    'payments',
    `select t.id, t.amount::text as amount, t.amount_refunded::text as amount_refunded,
            coalesce(sum(r.amount) filter (where r.status <> 'failed'), 0)::text as reserved,
            coalesce(sum(r.amount) filter (where r.status = 'succeeded'), 0)::text as refunded
       from payments.transactions t left join payments.refunds r on r.transaction_id = t.id
      where t.type = 'payment' group by t.id`,
  );
  for (const row of rows) {
    expect({ id: row.id, reserved: row.reserved }).toEqual({ id: row.id, reserved: row.amount_refunded });
    expect(BigInt(row.refunded) <= BigInt(row.amount)).toBe(true);
  }
}

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments']);
});

afterAll(async () => {
  await platform?.stop();
});

describe('test payments', () => {
  it('charge each test card: succeeded or failed with its code; only brand and last4 are kept', async () => {
    const ok = await pay(1000);
    expect(ok).toMatchObject({
      object: 'transaction',
      type: 'payment',
      status: 'succeeded',
      amount: 1000,
      currency: 'USD',
      amount_refunded: 0,
      refundable_amount: 1000,
      payment_method: { brand: 'visa', last4: '4242' },
    });
    for (const [card, code] of [
      [CARDS.declined, 'card_declined'],
      [CARDS.insufficient, 'insufficient_funds'],
      [CARDS.expired, 'expired_card'],
      [CARDS.processing, 'processing_error'],
    ]) {
      const failed = await pay(700, card);
      expect(failed).toMatchObject({ status: 'failed', failure_code: code, refundable_amount: 0 });
    }
    const stored = await platform.sql(
      'payments',
      'select payment_method::text as pm from payments.transactions',
    );
    expect(JSON.stringify(stored)).not.toContain('424242424242');
  });

  it('is test mode only: a live key gets 404', async () => {
    const response = await platform.api(account.liveKey, 'POST', '/v1/transactions/test-helpers/payments', {
      amount: 100,
      currency: 'USD',
      card_number: CARDS.ok,
    });
    expect(response.status).toBe(404);
  });
});

describe('refunds', () => {
  it('refunds a payment in full by default', async () => {
    const payment = await pay(1000);
    const response = await refund({ transaction: payment.id, reason: 'requested_by_customer' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      object: 'refund',
      transaction: payment.id,
      amount: 1000,
      currency: 'USD',
      status: 'succeeded',
      reason: 'requested_by_customer',
    });
    const after = await platform.api(account.testKey, 'GET', `/v1/transactions/${payment.id}`);
    expect(after.body).toMatchObject({ amount_refunded: 1000, refundable_amount: 0 });
    const refundTxn = await platform.api(
      account.testKey,
      'GET',
      `/v1/transactions/${response.body.refund_transaction}`,
    );
    expect(refundTxn.body).toMatchObject({
      type: 'refund',
      status: 'succeeded',
      amount: 1000,
      refunded_transaction: payment.id,
    });
    const got = await platform.api(account.testKey, 'GET', `/v1/refunds/${response.body.id}`);
    expect(got.body).toEqual(response.body);
  });

  it('a refund the processor declines (card 5126) fails: refund.failed, no ledger legs, refundable again', async () => {
    const payment = await pay(1000, CARDS.refundsFail);
    expect(payment).toMatchObject({ status: 'succeeded', payment_method: { last4: '5126' } });
    const failed = await refund({ transaction: payment.id, amount: 400 });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'failed', amount: 400, transaction: payment.id });
    expect(failed.body.failure_reason).toMatch(/refused the refund/);
    const refundTxn = await platform.api(
      account.testKey,
      'GET',
      `/v1/transactions/${failed.body.refund_transaction}`,
    );
    expect(refundTxn.body).toMatchObject({
      type: 'refund',
      status: 'failed',
      failure_code: 'processing_error',
    });
    // The reservation is given back exactly, and no money moved in the ledger.
    const after = await platform.api(account.testKey, 'GET', `/v1/transactions/${payment.id}`);
    expect(after.body).toMatchObject({ amount_refunded: 0, refundable_amount: 1000 });
    const legs = await platform.sql(
      'payments',
      'select count(*)::int as n from payments.ledger_entries where transaction_id = $1',
      [failed.body.refund_transaction],
    );
    expect(legs[0].n).toBe(0);
    const event = await eventAbout(platform, account.testKey, 'refund.failed', failed.body.id);
    expect(event.data.object).toMatchObject({ status: 'failed', amount: 400 });
    await eventAbout(platform, account.testKey, 'refund.created', failed.body.id);
    // Another card's refunds are unaffected by it.
    const ok = await refund({ transaction: (await pay(500)).id });
    expect(ok.body.status).toBe('succeeded');
    await expectLedgerSound();
  });

  it('takes partial refunds until the payment is exhausted, then 422', async () => {
    const payment = await pay(1000);
    for (const amount of [300, 300, 399]) {
      expect((await refund({ transaction: payment.id, amount })).status).toBe(200);
    }
    const over = await refund({ transaction: payment.id, amount: 2 });
    expect(over.status).toBe(422);
    expect(over.body.error).toMatchObject({ code: 'refund_exceeds_remaining', param: 'amount' });
    const rest = await refund({ transaction: payment.id });
    expect(rest.body).toMatchObject({ amount: 1, status: 'succeeded' });
    const none = await refund({ transaction: payment.id });
    expect(none.body.error.code).toBe('refund_exceeds_remaining');
    const list = await platform.api(account.testKey, 'GET', `/v1/transactions?type=refund&limit=100`);
    expect(list.body.data.filter((t: any) => t.refunded_transaction === payment.id)).toHaveLength(4);
  });

  it('rejects an over-refund (422) and an amount below 1 (400)', async () => {
    const payment = await pay(500);
    const over = await refund({ transaction: payment.id, amount: 501 });
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe('refund_exceeds_remaining');
    expect((await refund({ transaction: payment.id, amount: 0 })).status).toBe(400);
  });

  it('refuses to refund a failed payment or a refund (409)', async () => {
    const failed = await pay(500, CARDS.declined);
    const response = await refund({ transaction: failed.id });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('transaction_not_refundable');
    const payment = await pay(500);
    const first = await refund({ transaction: payment.id, amount: 100 });
    const ofRefund = await refund({ transaction: first.body.refund_transaction });
    expect(ofRefund.body.error.code).toBe('transaction_not_refundable');
  });

  it("answers 404 for another account's, the other mode's or an unknown transaction", async () => {
    const payment = await pay(500);
    const other = await platform.newAccount(['payments']);
    for (const key of [other.testKey, account.liveKey]) {
      const response = await refund({ transaction: payment.id }, undefined, key);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('resource_missing');
      expect((await platform.api(key, 'GET', `/v1/transactions/${payment.id}`)).status).toBe(404);
    }
    expect((await refund({ transaction: 'txn_000000000000' })).status).toBe(404);
    const after = await platform.api(account.testKey, 'GET', `/v1/transactions/${payment.id}`);
    expect(after.body.amount_refunded).toBe(0);
  });

  it('is idempotent with Idempotency-Key: a repeat replays, other parameters are 422', async () => {
    const payment = await pay(1000);
    const headers = { 'idempotency-key': `k-${payment.id}` };
    const first = await refund({ transaction: payment.id, amount: 100 }, headers);
    const again = await refund({ transaction: payment.id, amount: 100 }, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const reused = await refund({ transaction: payment.id, amount: 200 }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    const after = await platform.api(account.testKey, 'GET', `/v1/transactions/${payment.id}`);
    expect(after.body.amount_refunded).toBe(100);
  });

  // The key's refund is read in the statement that would reserve (refunds.sql.ts reserveAmount):
  // a repeat answers it as it was first answered, and takes nothing more from the payment.
  it('replays a full refund made with an Idempotency-Key exactly as first answered', async () => {
    const payment = await pay(1500);
    const headers = { 'idempotency-key': `full-${payment.id}` };
    const first = await refund({ transaction: payment.id }, headers);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ amount: 1500, status: 'succeeded' });
    const again = await refund({ transaction: payment.id }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const after = await platform.api(account.testKey, 'GET', `/v1/transactions/${payment.id}`);
    expect(after.body.amount_refunded).toBe(1500);
  });

  it('lists transactions with filters', async () => {
    const payment = await pay(4321);
    const byAmount = await platform.api(
      account.testKey,
      'GET',
      '/v1/transactions?amount[gte]=4321&amount[lte]=4321&status=succeeded&currency=usd',
    );
    expect(byAmount.status).toBe(200);
    expect(byAmount.body.data.map((t: any) => t.id)).toContain(payment.id);
    expect(byAmount.body.data.every((t: any) => t.amount === 4321)).toBe(true);
    const failed = await platform.api(account.testKey, 'GET', '/v1/transactions?status=failed&type=payment');
    expect(failed.body.data.every((t: any) => t.status === 'failed')).toBe(true);
    expect((await platform.api(account.testKey, 'GET', '/v1/transactions?amount[gt]=x')).status).toBe(400);
  });

  it('50 concurrent refunds of 100 against a 1,000 payment: exactly 10 succeed, 40 get 422', async () => {
    const payment = await pay(1000);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => refund({ transaction: payment.id, amount: 100 })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 422)).toHaveLength(40);
    for (const r of responses.filter((x) => x.status === 422))
      expect(r.body.error.code).toBe('refund_exceeds_remaining');
    const after = await platform.api(account.testKey, 'GET', `/v1/transactions/${payment.id}`);
    expect(after.body).toMatchObject({ amount_refunded: 1000, refundable_amount: 0 });
    await expectLedgerSound();
  });

  // A refund without an amount takes the remainder read under the row's lock in its reserving
  // statement: whatever the interleaving, the refunds that succeed add up to the payment.
  it('20 concurrent refunds of 1,000, half of them full (no amount): they add up to the payment exactly', async () => {
    const payment = await pay(1000);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        refund(i % 2 ? { transaction: payment.id } : { transaction: payment.id, amount: 150 }),
      ),
    );
    const succeeded = responses.filter((r) => r.status === 200);
    for (const r of responses.filter((x) => x.status !== 200))
      expect(r.body.error.code).toBe('refund_exceeds_remaining');
    expect(succeeded.reduce((sum, r) => sum + (r.body.amount as number), 0)).toBe(1000);
    // Once a full refund succeeds, nothing is left for the refunds after it.
    expect(succeeded.filter((r) => r.body.amount !== 150).length).toBeLessThanOrEqual(1);
    const after = await platform.api(account.testKey, 'GET', `/v1/transactions/${payment.id}`);
    expect(after.body).toMatchObject({ amount_refunded: 1000, refundable_amount: 0 });
    await expectLedgerSound();
  });
});

describe('the ledger', () => {
  it('balances after any sequence of payments (each test card) and refunds', async () => {
    const cards = Object.values(CARDS);
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('pay' as const),
        card: fc.constantFrom(...cards),
        amount: fc.integer({ min: 1, max: 5000 }),
      }),
      fc.record({
        kind: fc.constant('refund' as const),
        pick: fc.nat(),
        amount: fc.option(fc.integer({ min: 1, max: 3000 }), { nil: undefined }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), async (ops) => {
        const payments: string[] = [];
        for (const step of ops) {
          if (step.kind === 'pay') {
            payments.push((await pay(step.amount, step.card)).id);
          } else if (payments.length) {
            const response = await refund({
              transaction: payments[step.pick % payments.length],
              ...(step.amount ? { amount: step.amount } : {}),
            });
            expect([200, 409, 422]).toContain(response.status);
          }
        }
        await expectLedgerSound();
      }),
      { numRuns: 20 },
    );
  });
});
