// One-off charges through the Stripe connector: a PaymentMethod, then a PaymentIntent under the
// intent's id; each PaymentIntent outcome and 402 card error mapped onto our codes; a 5xx
// retried under the same Idempotency-Key, a 4xx not; currencies Stripe counts differently refused.

import type { ConnectorOutcome } from '../../../apps/payments/src/connectors/connector';
import { CARD, connectorsOf, form, KEY, since, type Proxies } from './connector.helpers';

export function oneOffChargeCases(proxies: Proxies) {
  const connectorFor = connectorsOf(proxies);

  describe('one-off charges', () => {
    it('creates a PaymentMethod, then a PaymentIntent confirmed with it under the intent id', async () => {
      const { connector, proxy } = connectorFor('succeeded');
      const start = proxy.requests.length;
      const outcome = await connector.charge({
        idempotency_key: 'txn_charge0001',
        amount: 2500n,
        currency: 'GBP',
        livemode: true,
        card: CARD,
        store_credential: false,
      });
      expect(outcome).toEqual({ status: 'succeeded', processor_reference: expect.stringMatching(/^pi_/) });
      const sent = since(proxy, start);
      expect(sent.map((r) => [r.method, r.path, r.status, r.headers['idempotency-key']])).toEqual([
        ['POST', '/v1/payment_methods', 200, 'txn_charge0001-pm'],
        ['POST', '/v1/payment_intents', 200, 'txn_charge0001'],
      ]);
      const intent = form(sent[1].body);
      expect(Object.fromEntries(intent)).toMatchObject({
        amount: '2500',
        currency: 'gbp',
        confirm: 'true',
        payment_method: expect.stringMatching(/^pm_/),
      });
      // The card travels only to the PaymentMethod; the PaymentIntent never carries it.
      expect(sent[1].body).not.toContain('4242');
      expect(form(sent[0].body).get('card[number]')).toBe('4242424242424242');
      expect(sent.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    });

    it.each([
      ['requires_action', 'authentication_required'],
      ['declined', 'insufficient_funds'],
      ['bundled', 'card_declined'],
    ] as const)('a PaymentIntent answered %s is failed with %s, never succeeded', async (mock, code) => {
      const { connector } = connectorFor(mock);
      const outcome = await connector.charge({
        idempotency_key: `txn_${mock}01`,
        amount: 1000n,
        currency: 'EUR',
        livemode: true,
        card: CARD,
        store_credential: false,
      });
      expect(outcome).toMatchObject({
        status: 'failed',
        code,
        processor_reference: expect.stringMatching(/^pi_/),
      });
    });

    it('maps 402 card errors onto our decline codes, without retrying them', async () => {
      const cases: [Record<string, string>, ConnectorOutcome['status'], string][] = [
        [
          { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' },
          'failed',
          'card_declined',
        ],
        [{ type: 'card_error', code: 'expired_card' }, 'failed', 'expired_card'],
        [{ type: 'card_error', code: 'incorrect_cvc' }, 'failed', 'incorrect_cvc'],
        [
          { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' },
          'failed',
          'insufficient_funds',
        ],
        [{ type: 'card_error', code: 'authentication_required' }, 'failed', 'authentication_required'],
        [{ type: 'card_error', code: 'processing_error' }, 'failed', 'processing_error'],
      ];
      const { connector, proxy } = connectorFor('succeeded');
      for (const [error, status, code] of cases) {
        const start = proxy.requests.length;
        proxy.failNext('/v1/payment_intents', 402, { ...error, message: 'declined' });
        const outcome = await connector.charge({
          idempotency_key: `txn_402_${code}`,
          amount: 1000n,
          currency: 'USD',
          livemode: true,
          card: CARD,
          store_credential: false,
        });
        expect({
          error,
          outcome: outcome.status,
          code: outcome.status === 'failed' ? outcome.code : null,
        }).toEqual({
          error,
          outcome: status,
          code,
        });
        expect(since(proxy, start).filter((r) => r.path === '/v1/payment_intents')).toHaveLength(1);
      }
    });

    it('retries a 5xx with the same Idempotency-Key, and succeeds once Stripe answers', async () => {
      const { connector, proxy } = connectorFor('succeeded');
      const start = proxy.requests.length;
      proxy.failNext('/v1/payment_intents', 500, { type: 'api_error', message: 'boom' });
      const outcome = await connector.charge({
        idempotency_key: 'txn_retry0001',
        amount: 700n,
        currency: 'USD',
        livemode: true,
        card: CARD,
        store_credential: false,
      });
      expect(outcome.status).toBe('succeeded');
      const intents = since(proxy, start).filter((r) => r.path === '/v1/payment_intents');
      expect(intents.map((r) => [r.status, r.headers['idempotency-key']])).toEqual([
        [500, 'txn_retry0001'],
        [200, 'txn_retry0001'],
      ]);
      expect(intents[1].body).toBe(intents[0].body);
    });

    it('leaves the outcome unknown (thrown, the intent stays pending) when Stripe keeps failing', async () => {
      const { connector, proxy } = connectorFor('succeeded');
      const start = proxy.requests.length;
      proxy.failNext('/v1/payment_intents', 503, { type: 'api_error', message: 'down' }, 3);
      await expect(
        connector.charge({
          idempotency_key: 'txn_down0001',
          amount: 700n,
          currency: 'USD',
          livemode: true,
          card: CARD,
          store_credential: false,
        }),
      ).rejects.toMatchObject({ code: 'upstream_unavailable' });
      const intents = since(proxy, start).filter((r) => r.path === '/v1/payment_intents');
      // The first try and the SDK's two retries, all under the one key.
      expect(intents.map((r) => r.headers['idempotency-key'])).toEqual([
        'txn_down0001',
        'txn_down0001',
        'txn_down0001',
      ]);
    });

    it('does not retry a 4xx: an invalid request is a failed payment with processing_error', async () => {
      const { connector, proxy } = connectorFor('succeeded');
      const start = proxy.requests.length;
      proxy.failNext('/v1/payment_intents', 400, {
        type: 'invalid_request_error',
        code: 'parameter_unknown',
      });
      const outcome = await connector.charge({
        idempotency_key: 'txn_400_0001',
        amount: 700n,
        currency: 'USD',
        livemode: true,
        card: CARD,
        store_credential: false,
      });
      expect(outcome).toMatchObject({ status: 'failed', code: 'processing_error' });
      expect(since(proxy, start).filter((r) => r.path === '/v1/payment_intents')).toHaveLength(1);
    });

    it('refuses currencies whose Stripe minor unit differs from ISO 4217, before calling Stripe', async () => {
      const { connector, proxy } = connectorFor('succeeded');
      const start = proxy.requests.length;
      const outcome = await connector.charge({
        idempotency_key: 'txn_isk00001',
        amount: 100n,
        currency: 'ISK',
        livemode: true,
        card: CARD,
        store_credential: false,
      });
      expect(outcome).toMatchObject({ status: 'failed', code: 'processing_error' });
      expect(since(proxy, start)).toHaveLength(0);
    });
  });
}
