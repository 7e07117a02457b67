// 3-D Secure and lookup through the Stripe connector: a hosted-form charge answers
// requires_action with Stripe's URL (also for a card kept for a mandate), and a PaymentIntent
// is looked up by its recorded id or, without one, searched by our intent id.

import { CARD, connectorsOf, form, since, type Proxies } from './connector.helpers';

export function authenticationAndLookupCases(proxies: Proxies) {
  const connectorFor = connectorsOf(proxies);

  describe('3-D Secure and lookup', () => {
    it('a hosted-form charge with a return URL answers requires_action with the next_action URL', async () => {
      const { connector, proxy } = connectorFor('requires_action');
      const start = proxy.requests.length;
      const returnUrl = 'https://pay.example.test/pay/return/txn_3ds0001?token=abc';
      const outcome = await connector.charge({
        idempotency_key: 'txn_3ds0001',
        amount: 4200n,
        currency: 'EUR',
        livemode: true,
        card: CARD,
        store_credential: false,
        return_url: returnUrl,
      });
      expect(outcome).toEqual({
        status: 'requires_action',
        redirect_url: 'https://hooks.stripe.com/3d_secure',
        processor_reference: expect.stringMatching(/^pi_/),
      });
      const intent = form(since(proxy, start)[1].body);
      // stripe-mock accepted the return_url with confirm=true (Stripe's published API).
      expect(intent.get('return_url')).toBe(returnUrl);
      expect(intent.get('metadata[paygrid_intent]')).toBe('txn_3ds0001');
      expect(connector.authenticationOrigins).toEqual(['https://hooks.stripe.com']);
    });

    it('a card kept for a mandate authenticates on-session too; the lookup after it names the kept card', async () => {
      const { connector, proxy } = connectorFor('requires_action');
      const start = proxy.requests.length;
      const outcome = await connector.charge({
        idempotency_key: 'txn_3dskeep1',
        amount: 990n,
        currency: 'EUR',
        livemode: true,
        card: CARD,
        store_credential: true,
        return_url: 'https://pay.example.test/pay/return/txn_3dskeep1?token=abc',
      });
      expect(outcome).toMatchObject({
        status: 'requires_action',
        processor_reference: expect.stringMatching(/^pi_/),
      });
      const sent = since(proxy, start);
      expect(sent.map((r) => [r.method, r.path, r.status, r.headers['idempotency-key']])).toEqual([
        ['POST', '/v1/payment_methods', 200, 'txn_3dskeep1-pm'],
        ['POST', '/v1/customers', 200, 'txn_3dskeep1-cus'],
        ['POST', '/v1/payment_intents', 200, 'txn_3dskeep1'],
      ]);
      // stripe-mock accepted setup_future_usage with a return URL on a confirmed PaymentIntent.
      expect(Object.fromEntries(form(sent[2].body))).toMatchObject({
        setup_future_usage: 'off_session',
        customer: expect.stringMatching(/^cus_/),
        return_url: 'https://pay.example.test/pay/return/txn_3dskeep1?token=abc',
        confirm: 'true',
      });
      // After the payer authenticated, Stripe has it succeeded with the card kept on the Customer
      // (patched onto stripe-mock's fixture, which keeps no state).
      proxy.patchNext('GET', '/v1/payment_intents/pi_keep01', (pi) => ({
        ...pi,
        status: 'succeeded',
        next_action: null,
        customer: 'cus_keep01',
        payment_method: 'pm_keep01',
        setup_future_usage: 'off_session',
      }));
      const found = await connector.lookup({
        idempotency_key: 'txn_3dskeep1',
        processor_reference: 'pi_keep01',
        livemode: true,
      });
      expect(found).toEqual({
        status: 'succeeded',
        processor_reference: 'pi_keep01',
        credential: 'cus_keep01|pm_keep01',
      });
    });

    it('looks a PaymentIntent up by its recorded id, still waiting or settled', async () => {
      for (const [mock, expected] of [
        ['requires_action', { status: 'requires_action' }],
        ['succeeded', { status: 'succeeded' }],
        ['declined', { status: 'failed', code: 'insufficient_funds' }],
      ] as const) {
        const { connector, proxy } = connectorFor(mock);
        const start = proxy.requests.length;
        const found = await connector.lookup({
          idempotency_key: 'txn_lookup01',
          processor_reference: 'pi_lookup01',
          livemode: true,
        });
        expect(found).toMatchObject(expected);
        expect(since(proxy, start).map((r) => [r.method, r.path, r.status])).toEqual([
          ['GET', '/v1/payment_intents/pi_lookup01', 200],
        ]);
      }
    });

    it('without a recorded id, searches by metadata.paygrid_intent; a refused lookup leaves the outcome unknown', async () => {
      const { connector, proxy } = connectorFor('succeeded');
      const start = proxy.requests.length;
      const found = await connector.lookup({
        idempotency_key: 'txn_search01',
        processor_reference: null,
        livemode: true,
      });
      expect(found).toMatchObject({
        status: 'succeeded',
        processor_reference: expect.stringMatching(/^pi_/),
      });
      const [search] = since(proxy, start);
      expect(search.method).toBe('GET');
      expect(search.status).toBe(200);
      expect(new URL(search.path, 'http://x').searchParams.get('query')).toBe(
        "metadata['paygrid_intent']:'txn_search01'",
      );
      proxy.failNext('/v1/payment_intents/search', 401, { type: 'invalid_request_error', message: 'no' });
      await expect(
        connector.lookup({ idempotency_key: 'txn_search02', processor_reference: null, livemode: true }),
      ).rejects.toMatchObject({ code: 'upstream_unavailable' });
    });
  });
}
