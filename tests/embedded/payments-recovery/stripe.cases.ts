// Recovery against Stripe (stripe-mock behind a recording proxy): a 3-D Secure payment the
// payer abandoned is canceled at Stripe exactly once, and charges and refunds whose answers
// were lost are found at Stripe by our ids instead of being made twice.

import { ABANDONED_MESSAGE, type PaymentConnector } from '../../../apps/payments/src/connectors/connector';
import { StripeProcessor } from '../../../apps/payments/src/connectors/stripe';
import { ledgerImbalances } from '../../../apps/payments/src/ledger/ledger';
import {
  apiBaseOf,
  startRecordingProxy,
  startStripeMock,
  type RecordingProxy,
  type StripeMock,
} from '../../support/stripe-mock';
import { card, CrashingConnector, type RecoveryContext } from './recovery.helpers';

export function stripeRecoveryCases(ctx: () => RecoveryContext) {
  describe('abandoned 3-D Secure with Stripe (stripe-mock answering requires_action)', () => {
    let mock: StripeMock;
    let proxy: RecordingProxy;
    beforeAll(async () => {
      mock = await startStripeMock('requires_action');
      proxy = await startRecordingProxy(mock.url);
    }, 120_000);
    afterAll(async () => {
      await proxy?.stop();
      await mock?.stop();
    });

    const stripe = () =>
      new StripeProcessor(apiBaseOf(proxy.url)).connector({
        secret_key: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
        webhook_signing_secret: 'whsec_x',
      });
    // stripe-mock validates the cancel but answers from its fixture (still requires_action):
    // the state Stripe would answer is patched onto its answer.
    const canceled = (pi: any) => ({
      ...pi,
      status: 'canceled',
      cancellation_reason: 'abandoned',
      next_action: null,
    });

    async function waitingPayment(account: string) {
      const other = { account, livemode: false };
      const { services } = ctx();
      const row = await services(stripe()).transactions.chargeCard(
        other,
        { amount: 4200n, currency: 'EUR', card },
        { returnUrl: (id) => `https://pay.example.test/pay/return/${id}?token=t` },
      );
      expect(row).toMatchObject({
        status: 'requires_action',
        processor_reference: expect.stringMatching(/^pi_/),
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { other, row };
    }

    it('cancels the PaymentIntent (abandoned, key <intent>-cancel) and records it failed, once, across a lost answer', async () => {
      const { services, eventsOf } = ctx();
      const { other, row } = await waitingPayment('acct_abandoned3ds2');
      const connector = stripe();
      // The first cancel reaches Stripe, and its answer is lost (a crash before recording).
      const losing: PaymentConnector = {
        name: 'stripe',
        authenticationOrigins: [],
        charge: (r) => connector.charge(r),
        chargeStored: (r) => connector.chargeStored(r),
        refund: (r) => connector.refund(r),
        lookup: (r) => connector.lookup(r),
        cancelAuthentication: async (r) => {
          await connector.cancelAuthentication(r);
          throw new Error('connection reset');
        },
      };
      const start = proxy.requests.length;
      await expect(services(losing, 0).transactions.recoverPending(0)).rejects.toThrow('connection reset');
      expect((await services(connector).transactions.get(other, row.id)).status).toBe('requires_action');
      // The next run: Stripe has the PaymentIntent canceled (the lookup says so) and it is failed.
      proxy.patchNext('GET', `/v1/payment_intents/${row.processor_reference}`, canceled);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await services(connector, 0).transactions.recoverPending(0)).toBe(1);
      expect(await services(connector).transactions.get(other, row.id)).toMatchObject({
        status: 'failed',
        failure_code: 'authentication_required',
        failure_message: ABANDONED_MESSAGE,
      });
      expect(await eventsOf(row.id)).toEqual(['payment.requires_action', 'payment.failed']);
      const cancels = proxy.requests
        .slice(start)
        .filter(
          (r) => r.method === 'POST' && r.path === `/v1/payment_intents/${row.processor_reference}/cancel`,
        );
      expect(cancels.map((r) => [r.status, r.headers['idempotency-key'], r.body])).toEqual([
        [200, `${row.id}-cancel`, 'cancellation_reason=abandoned'],
      ]);
      // Final: the next run neither asks nor cancels again.
      const before = proxy.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await services(connector, 0).transactions.recoverPending(0)).toBe(0);
      expect(proxy.requests.length).toBe(before);

      // A cancel that Stripe answers at once is recorded at once.
      const second = await waitingPayment('acct_abandoned3ds3');
      proxy.patchNext('POST', `/v1/payment_intents/${second.row.processor_reference}/cancel`, canceled);
      expect(await services(connector, 0).transactions.recoverPending(0)).toBe(1);
      expect((await services(connector).transactions.get(second.other, second.row.id)).status).toBe('failed');
    });

    it('a payer who authenticated just before the cancel keeps the payment: it is recorded succeeded', async () => {
      const { db, services, eventsOf } = ctx();
      const { other, row } = await waitingPayment('acct_abandoned3ds4');
      const connector = stripe();
      const pi = row.processor_reference ?? '';
      // Stripe refuses to cancel a PaymentIntent that succeeded meanwhile; its record is read back.
      proxy.failNext(`/v1/payment_intents/${pi}/cancel`, 400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: 'You cannot cancel this PaymentIntent because it has a status of succeeded.',
      });
      // The first lookup (before the cancel) still says requires_action; the one after: succeeded.
      proxy.patchNext('GET', `/v1/payment_intents/${pi}`, (body) => body);
      let reads = 0;
      proxy.patchNext('GET', `/v1/payment_intents/${pi}`, (body) => {
        reads++;
        return { ...body, status: 'succeeded', next_action: null };
      });
      expect(await services(connector, 0).transactions.recoverPending(0)).toBe(1);
      expect(reads).toBe(1);
      expect((await services(connector).transactions.get(other, row.id)).status).toBe('succeeded');
      expect(await eventsOf(row.id)).toEqual(['payment.requires_action', 'payment.succeeded']);
      expect(await ledgerImbalances(db)).toEqual([]);
    });
  });

  describe('with Stripe (stripe-mock)', () => {
    let mock: StripeMock;
    let proxy: RecordingProxy;
    beforeAll(async () => {
      mock = await startStripeMock('succeeded');
      proxy = await startRecordingProxy(mock.url);
    }, 120_000);
    afterAll(async () => {
      await proxy?.stop();
      await mock?.stop();
    });

    it('a PaymentIntent that succeeded at Stripe after our answer was lost is recorded succeeded, with one charge', async () => {
      const { db, services, eventsOf } = ctx();
      const stripe = new StripeProcessor(apiBaseOf(proxy.url)).connector({
        secret_key: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
        webhook_signing_secret: 'whsec_x',
      });
      // Stripe charges, then the answer is lost on its way back (a reset, a crash before tx2).
      const losing: PaymentConnector = {
        name: 'stripe',
        authenticationOrigins: [],
        charge: async (request) => {
          await stripe.charge(request);
          throw new Error('connection reset');
        },
        chargeStored: (r) => stripe.chargeStored(r),
        refund: (r) => stripe.refund(r),
        lookup: (r) => stripe.lookup(r),
        cancelAuthentication: (r) => stripe.cancelAuthentication(r),
      };
      const other = { account: 'acct_recovery3ds3', livemode: false };
      const start = proxy.requests.length;
      await expect(
        services(losing).transactions.chargeCard(other, { amount: 2500n, currency: 'GBP', card }),
      ).rejects.toThrow('connection reset');
      const { transactions } = services(stripe);
      expect(await transactions.recoverPending(0)).toBe(1);
      const [row] = await db.query<{ id: string; status: string; processor_reference: string }>(
        'select id, status, processor_reference from payments.transactions where account_id = $1',
        [other.account],
      );
      expect(row).toMatchObject({ status: 'succeeded', processor_reference: expect.stringMatching(/^pi_/) });
      const sent = proxy.requests.slice(start).map((r) => [r.method, r.path.split('?')[0]]);
      // One PaymentIntent created (one charge); recovery only searched by our key.
      expect(sent.filter(([m, p]) => m === 'POST' && p === '/v1/payment_intents')).toHaveLength(1);
      const search = proxy.requests.slice(start).find((r) => r.path.startsWith('/v1/payment_intents/search'));
      expect(decodeURIComponent(search?.path ?? '')).toContain(`metadata['paygrid_intent']:'${row.id}'`);
      expect(await eventsOf(row.id)).toEqual(['payment.succeeded']);
      expect(await ledgerImbalances(db)).toEqual([]);
    });

    const stripeConnector = () =>
      new StripeProcessor(apiBaseOf(proxy.url)).connector({
        secret_key: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
        webhook_signing_secret: 'whsec_x',
      });
    const refundPosts = (start: number) =>
      proxy.requests
        .slice(start)
        .filter((r) => r.method === 'POST' && r.path.split('?')[0] === '/v1/refunds');

    it('a refund Stripe answers pending stays pending; recovery reads it back by its id, never asks again', async () => {
      const { db, services, eventsOf } = ctx();
      const stripe = stripeConnector();
      const { transactions, refunds } = services(stripe);
      const other = { account: 'acct_refundpending1', livemode: false };
      const payment = await transactions.chargeCard(other, { amount: 2500n, currency: 'EUR', card });
      expect(payment.status).toBe('succeeded');
      const start = proxy.requests.length;
      proxy.patchNext('POST', '/v1/refunds', (body) => ({ ...body, status: 'pending' }));
      const { refund } = await refunds.create(other, { transaction: payment.id, amount: 1000 });
      expect(refund.status).toBe('pending');
      const { processor_reference: reference } = await transactions.get(other, refund.refund_transaction_id);
      expect(reference).toMatch(/^re_/);
      // Still pending at Stripe: recovery leaves it so.
      proxy.patchNext('GET', `/v1/refunds/${reference}`, (body) => ({ ...body, status: 'pending' }));
      expect(await refunds.recoverPending(0)).toBe(0);
      expect((await refunds.get(other, refund.id)).status).toBe('pending');
      // The next run does not ask again before the wait (deferRefundCheck) is over.
      expect(await refunds.recoverPending(0)).toBe(0);
      await db.query(
        `update payments.refunds set next_check_at = now() - interval '1 second' where id = $1`,
        [refund.id],
      );
      // Stripe has refunded it (stripe-mock answers succeeded): recorded, once.
      expect(await refunds.recoverPending(0)).toBe(1);
      expect(await refunds.get(other, refund.id)).toMatchObject({ status: 'succeeded' });
      const reads = proxy.requests
        .slice(start)
        .filter((r) => r.method === 'GET')
        .map((r) => r.path);
      expect(reads).toEqual([`/v1/refunds/${reference}`, `/v1/refunds/${reference}`]);
      expect(refundPosts(start)).toHaveLength(1);
      expect(await eventsOf(refund.id)).toEqual(['refund.created', 'refund.succeeded']);
      expect(await ledgerImbalances(db)).toEqual([]);
    });

    it("a refund Stripe made after our answer was lost is found among the payment's refunds, not made twice", async () => {
      const { db, services, eventsOf } = ctx();
      const stripe = stripeConnector();
      const losing: PaymentConnector = {
        name: 'stripe',
        authenticationOrigins: [],
        charge: (r) => stripe.charge(r),
        chargeStored: (r) => stripe.chargeStored(r),
        refund: async (request) => {
          await stripe.refund(request);
          throw new Error('connection reset');
        },
        lookup: (r) => stripe.lookup(r),
        cancelAuthentication: (r) => stripe.cancelAuthentication(r),
      };
      const other = { account: 'acct_refundlost01', livemode: false };
      const { transactions, refunds } = services(stripe);
      const payment = await transactions.chargeCard(other, { amount: 2500n, currency: 'EUR', card });
      const start = proxy.requests.length;
      await expect(
        services(losing).refunds.create(other, { transaction: payment.id, amount: 700 }),
      ).rejects.toThrow('connection reset');
      const [lost] = await db.query<{ id: string }>('select id from payments.refunds where account_id = $1', [
        other.account,
      ]);
      // Stripe lists the PaymentIntent's refunds; the one carrying our id is the refund it made.
      proxy.patchNext('GET', '/v1/refunds?', (body) => ({
        ...body,
        data: body.data.map((r: Record<string, unknown>) => ({
          ...r,
          status: 'succeeded',
          metadata: { paygrid_refund: lost.id },
        })),
      }));
      expect(await refunds.recoverPending(0)).toBe(1);
      expect(await refunds.get(other, lost.id)).toMatchObject({ status: 'succeeded' });
      const list = proxy.requests.slice(start).find((r) => r.method === 'GET');
      expect(list?.path).toBe(`/v1/refunds?payment_intent=${payment.processor_reference}&limit=100`);
      expect(refundPosts(start)).toHaveLength(1);
      expect(await eventsOf(lost.id)).toEqual(['refund.created', 'refund.succeeded']);
    });

    it("a refund Stripe never made (not among the payment's refunds) is asked for again with the same key", async () => {
      const { db, services } = ctx();
      const stripe = stripeConnector();
      const other = { account: 'acct_refundnever1', livemode: false };
      const { transactions, refunds } = services(stripe);
      const payment = await transactions.chargeCard(other, { amount: 2500n, currency: 'EUR', card });
      const start = proxy.requests.length;
      await expect(
        services(new CrashingConnector()).refunds.create(other, { transaction: payment.id, amount: 300 }),
      ).rejects.toThrow('connection reset');
      // stripe-mock's list holds only its fixture refund, which carries no id of ours.
      expect(await refunds.recoverPending(0)).toBe(1);
      const [refund] = await db.query<{ id: string; status: string }>(
        'select id, status from payments.refunds where account_id = $1',
        [other.account],
      );
      expect(refund.status).toBe('succeeded');
      const posts = refundPosts(start);
      expect(posts).toHaveLength(1);
      expect(posts[0].headers['idempotency-key']).toBe(refund.id);
    });
  });
}
