import Stripe from 'stripe';
import { WebhookSignatureError } from '../processor';
import { mapStripeEvent, parseStripeWebhook } from './stripe-webhooks';

const SECRET = `whsec_${'k'.repeat(24)}`;
const credentials = { secret_key: 'sk_test_xxxxxxxxxx', webhook_signing_secret: SECRET };
const webhooks = new Stripe('sk_test_spec', { telemetry: false }).webhooks;
const AT = new Date('2026-01-10T12:00:00Z');

const event = (type: string, object: Record<string, unknown>) =>
  ({
    id: 'evt_1',
    object: 'event',
    type,
    created: AT.getTime() / 1000,
    data: { object },
  }) as unknown as Stripe.Event;

const signed = (body: string, at: Date, secret = SECRET) =>
  webhooks.generateTestHeaderString({ payload: body, secret, timestamp: Math.floor(at.getTime() / 1000) });

describe('parseStripeWebhook', () => {
  const body = JSON.stringify(
    event('payment_intent.succeeded', { id: 'pi_1', metadata: { paygrid_intent: 'txn_1' } }),
  );

  it('accepts a signature made with the secret within 5 minutes', () => {
    const parsed = parseStripeWebhook(
      Buffer.from(body),
      { 'stripe-signature': signed(body, AT) },
      credentials,
      new Date(AT.getTime() + 299_000),
    );
    expect(parsed).toMatchObject({
      kind: 'payment',
      intent: 'txn_1',
      outcome: 'succeeded',
      processor_reference: 'pi_1',
    });
  });

  it.each([
    ['no header', {}, AT],
    ['another secret', { 'stripe-signature': signed(body, AT, `whsec_${'z'.repeat(24)}`) }, AT],
    ['older than 5 minutes', { 'stripe-signature': signed(body, AT) }, new Date(AT.getTime() + 301_000)],
  ])('refuses %s', (_label, headers, now) => {
    expect(() => parseStripeWebhook(Buffer.from(body), headers, credentials, now)).toThrow(
      WebhookSignatureError,
    );
  });

  it('refuses a body changed after signing', () => {
    const header = signed(body, AT);
    expect(() =>
      parseStripeWebhook(
        Buffer.from(body.replace('txn_1', 'txn_2')),
        { 'stripe-signature': header },
        credentials,
        AT,
      ),
    ).toThrow(WebhookSignatureError);
  });
});

describe('mapStripeEvent', () => {
  it('maps a failed PaymentIntent onto our decline codes', () => {
    const mapped = mapStripeEvent(
      event('payment_intent.payment_failed', {
        id: 'pi_2',
        metadata: { paygrid_intent: 'txn_2' },
        last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
      }),
    );
    expect(mapped).toMatchObject({
      kind: 'payment',
      outcome: 'failed',
      failure: { code: 'insufficient_funds' },
    });
  });

  it('names the card a succeeded PaymentIntent kept for later (a mandate first payment after 3-D Secure)', () => {
    const kept = mapStripeEvent(
      event('payment_intent.succeeded', {
        id: 'pi_4',
        status: 'succeeded',
        metadata: { paygrid_intent: 'txn_4' },
        customer: 'cus_4',
        payment_method: 'pm_4',
        setup_future_usage: 'off_session',
      }),
    );
    expect(kept).toMatchObject({ kind: 'payment', outcome: 'succeeded', credential: 'cus_4|pm_4' });
    const oneOff = mapStripeEvent(
      event('payment_intent.succeeded', {
        id: 'pi_5',
        status: 'succeeded',
        metadata: { paygrid_intent: 'txn_5' },
      }),
    );
    expect(oneOff).not.toHaveProperty('credential');
  });

  it('ignores what is not ours or not decided', () => {
    expect(mapStripeEvent(event('payment_intent.succeeded', { id: 'pi_3', metadata: {} })).kind).toBe(
      'other',
    );
    expect(
      mapStripeEvent(
        event('payment_intent.requires_action', { id: 'pi_3', metadata: { paygrid_intent: 'txn_3' } }),
      ).kind,
    ).toBe('other');
    expect(
      mapStripeEvent(
        event('refund.updated', { id: 're_1', status: 'pending', metadata: { paygrid_refund: 're_ours' } }),
      ).kind,
    ).toBe('other');
    // An inquiry moves no money.
    expect(
      mapStripeEvent(
        event('charge.dispute.created', {
          id: 'du_1',
          status: 'warning_needs_response',
          payment_intent: 'pi_4',
          amount: 100,
          currency: 'gbp',
        }),
      ).kind,
    ).toBe('other');
  });

  it('maps refunds, failed or canceled ones as failed', () => {
    expect(
      mapStripeEvent(
        event('refund.updated', { id: 're_1', status: 'succeeded', metadata: { paygrid_refund: 're_a' } }),
      ),
    ).toMatchObject({ kind: 'refund', refund: 're_a', outcome: 'succeeded' });
    expect(
      mapStripeEvent(
        event('refund.failed', { id: 're_2', status: 'canceled', metadata: { paygrid_refund: 're_b' } }),
      ),
    ).toMatchObject({ kind: 'refund', outcome: 'failed' });
  });

  it('reads a dispute, its fee and the fee given back from its balance transactions', () => {
    const mapped = mapStripeEvent(
      event('charge.dispute.closed', {
        id: 'du_2',
        status: 'won',
        payment_intent: 'pi_5',
        amount: 2000,
        currency: 'gbp',
        reason: 'fraudulent',
        evidence_details: { due_by: 1_800_000_000 },
        balance_transactions: [
          { amount: -2000, fee: 1500 },
          { amount: 2000, fee: -1500 },
        ],
      }),
    );
    expect(mapped).toMatchObject({
      kind: 'dispute',
      dispute: {
        reference: 'du_2',
        payment_reference: 'pi_5',
        amount: 2000n,
        currency: 'GBP',
        fee: 1500n,
        fee_returned: 1500n,
        status: 'won',
      },
    });
  });
});
