// What the processor webhooks suite's case modules share: the platform, the live Stripe
// connection and merchant that tests/integration/processor-webhooks.test.ts sets up once, events
// signed as Stripe signs them (on the payments clock), the merchant's ledger balance, and a
// payment that only Stripe's webhook settles.

import {
  disputeMismatches,
  ledgerImbalances,
  postingMismatches,
} from '../../../apps/payments/src/ledger/ledger';
import { pathOf, payPage } from '../../support/pages';
import type { Platform, TestAccount } from '../../support/platform';
import { paymentIntent, postEvent, signedEvent, stripeId } from '../../support/stripe-events';
import type { RecordingProxy } from '../../support/stripe-mock';

const CARD = '5555555555554444';
export const KEY = `sk_test_${'Wh5'.repeat(8)}`;
export const SIGNING = `whsec_${'Wh5'.repeat(10)}`;
/** Past the window in which a pending intent still belongs to its own request (4 minutes). */
const PAST_IN_FLIGHT_MS = 4 * 60 * 1000 + 30_000;

/** Filled in the test file's beforeAll; the cases read it when they run, not when registered. */
export interface WebhooksContext {
  platform: Platform;
  account: TestAccount;
  /** The recording proxy in front of stripe-mock, which the connection's connector calls. */
  proxy: RecordingProxy;
  connection: string;
  merchant: string;
}

export type WebhookHelpers = ReturnType<typeof webhookHelpers>;

/** Made once by the test file and handed to the case modules: they share the clock's offset. */
export function webhookHelpers(ctx: () => WebhooksContext) {
  /** The payments clock runs ahead of the wall clock once advanced; signatures follow it. */
  let clockOffsetMs = 0;

  function live(method: string, path: string, body?: unknown) {
    return ctx().platform.api(ctx().account.liveKey, method, path, body);
  }

  const now = () => new Date(Date.now() + clockOffsetMs);
  const send = (type: string, object: Record<string, unknown>, id?: string) =>
    postEvent(
      ctx().platform,
      ctx().connection,
      signedEvent(SIGNING, type, object, { at: now(), ...(id ? { id } : {}) }),
    );

  const storedEvents = async () =>
    Number(
      (
        await ctx().platform.sql<{ n: string }>(
          'payments',
          'select count(*)::text as n from payments.processor_events where connection_id = $1',
          [ctx().connection],
        )
      )[0].n,
    );

  const ledger = () => {
    const db = {
      query: <T>(text: string, params?: unknown[]) => ctx().platform.sql<T>('payments', text, params),
    };
    return Promise.all([ledgerImbalances(db), postingMismatches(db), disputeMismatches(db)]);
  };

  const balance = async () => {
    const [row] = await ctx().platform.sql<{ net: string }>(
      'payments',
      `select coalesce(sum(case when direction = 'credit' then amount else -amount end), 0)::text as net
         from payments.ledger_entries where ledger_account = $1`,
      [`merchant_balance:${ctx().merchant}`],
    );
    return Number(row.net);
  };

  /**
   * A live payment of `amount` whose answer from Stripe was lost (three 503s): pending, then
   * settled by Stripe's payment_intent.succeeded once past its request's window. Answers the
   * transaction and the PaymentIntent id the webhook gave it.
   */
  async function paymentSettledByWebhook(amount: number): Promise<{ id: string; pi: string; link: string }> {
    const { platform, proxy, merchant } = ctx();
    const link = await live('POST', '/v1/payment-links', { merchant, amount, currency: 'GBP' });
    proxy.failNext('/v1/payment_intents', 503, { type: 'api_error', message: 'unavailable' }, 3);
    const paid = await payPage(platform, pathOf(link.body.url), CARD);
    expect(paid.status).toBe(503);
    const [pending] = (await live('GET', `/v1/transactions?payment_link=${link.body.id}`)).body.data;
    expect(pending.status).toBe('pending');
    const pi = stripeId('pi');
    const succeeded = paymentIntent(pi, pending.id, 'succeeded', amount, 'GBP');

    // Still inside its request's window: refused (to be delivered again), nothing stored.
    const before = await storedEvents();
    const early = await send('payment_intent.succeeded', succeeded);
    expect([early.status, early.body.error.code]).toEqual([409, 'resource_busy']);
    expect(await storedEvents()).toBe(before);
    expect((await live('GET', `/v1/transactions/${pending.id}`)).body.status).toBe('pending');

    const advanced = await platform.advancePaymentsClock(PAST_IN_FLIGHT_MS);
    clockOffsetMs = advanced.now.getTime() - Date.now();
    const settled = await send('payment_intent.succeeded', succeeded);
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ received: true, duplicate: false, outcome: 'payment_succeeded' });
    return { id: pending.id, pi, link: link.body.id };
  }

  return { live, now, send, storedEvents, ledger, balance, paymentSettledByWebhook };
}
