// `paygrid trigger <type>`: the API calls that cause an event of that type in the sandbox,
// as an integrator would make them (docs/events.md says what emits what). The types that need
// time to pass run on a test clock (triggers-timed.ts), those that go through a payer's hosted
// pages in triggers-pages.ts; a few use the sandbox's test helpers, as Stripe's test mode does.
// The type stays open to a type no API call can cause (`unsupported`, with the reason).

import type { EventType, Paygrid } from '@paygrid/sdk';
import { payLinkOnHostedPage } from './hosted-checkout';
import { failedMandate, replacedCard } from './triggers-pages';
import { TIMED_TRIGGERS } from './triggers-timed';

type Api = Pick<Paygrid, 'request' | 'baseUrl'>;
type Obj = { id: string; [field: string]: unknown };

const post = async (api: Api, path: string, body?: unknown) =>
  (await api.request('POST', path, { body })) as Obj;

export { payLinkOnHostedPage };

const OK_CARD = '4242424242424242';
const DECLINED_CARD = '4000000000000002';
/** The sandbox's 3-D Secure card: the hosted form redirects the payer to a challenge. */
const THREE_DS_CARD = '4000002760003184';
/** The sandbox's disputed card: the payment succeeds and is disputed at once (dispute.created). */
const DISPUTED_CARD = '4000000000000259';
/** The sandbox's card whose refunds the processor declines (refund.created, then refund.failed). */
const REFUSES_REFUNDS_CARD = '4000000000005126';

const payment = (api: Api, card: string, extra: Record<string, unknown> = {}) =>
  post(api, '/v1/transactions/test-helpers/payments', {
    amount: 2000,
    currency: 'USD',
    card_number: card,
    ...extra,
  });
const link = (api: Api, extra: Record<string, unknown> = {}) =>
  post(api, '/v1/payment-links', { amount: 2500, currency: 'USD', description: 'paygrid trigger', ...extra });
const customer = (api: Api) =>
  post(api, '/v1/customers', { name: 'Trigger Customer', email: 'trigger@example.test', currency: 'USD' });
const invoice = async (api: Api, send: boolean) =>
  post(api, '/v1/invoices', {
    customer: (await customer(api)).id,
    currency: 'USD',
    lines: [{ description: 'paygrid trigger', quantity: 1, unit_amount: 1500 }],
    collection_method: 'send_invoice',
    send,
  });
const subscription = async (api: Api) =>
  post(api, '/v1/subscriptions', {
    customer: (await customer(api)).id,
    items: [
      {
        description: 'Trigger plan',
        unit_amount: 1000,
        currency: 'USD',
        quantity: 1,
        interval: 'month',
        interval_count: 1,
      },
    ],
    collection_method: 'send_invoice',
  });
const estimate = async (api: Api) =>
  post(api, '/v1/estimates', {
    kind: 'quote',
    customer: (await customer(api)).id,
    currency: 'USD',
    lines: [{ description: 'paygrid trigger', quantity: 1, unit_amount: 45000 }],
  });
const sentEstimate = async (api: Api) => {
  const made = await estimate(api);
  await post(api, `/v1/estimates/${made.id}/send`);
  return made;
};

export type Recipe = (api: Api) => Promise<Obj>;

/**
 * A test-mode endpoint for the webhook_endpoint.* triggers. Its host is under `.invalid`, a
 * name that never resolves (RFC 2606), so whatever is queued to it reaches nobody.
 */
const endpoint = (api: Api) =>
  post(api, '/v1/webhooks', {
    url: 'https://paygrid-trigger.invalid/hooks',
    enabled_events: ['account.updated'],
    description: 'paygrid trigger',
  });

/** A sandbox dispute (card 0259) moved by the test helper, as its processor would move it. */
const movedDispute = async (api: Api, status: 'under_review' | 'won') => {
  const paid = await payment(api, DISPUTED_CARD);
  const list = (await api.request('GET', `/v1/disputes?transaction=${paid.id}`)) as { data: Obj[] };
  return post(api, `/v1/disputes/${list.data[0].id}/test-helpers/update`, { status });
};

/** How each type is caused; every catalogue type is a key (tsc checks it against EventType). */
export const TRIGGERS: Record<EventType, Recipe | { unsupported: string }> = {
  // A profile change that is always a change (the event names only what changed; none else).
  'account.updated': (api) =>
    post(api, '/v1/account', { website: `https://trigger-${Date.now().toString(36)}.example` }),
  'merchant.onboarding.updated': (api) =>
    post(api, '/v1/merchants', {
      business_name: 'Trigger Ltd',
      email: 'ops@trigger.test',
      country: 'GB',
      default_currency: 'GBP',
      business_type: 'company',
    }),
  'payment_link.created': (api) => link(api),
  'payment_link.updated': async (api) =>
    post(api, `/v1/payment-links/${(await link(api)).id}`, { description: 'Updated by paygrid trigger' }),
  'payment_link.completed': async (api) => {
    const made = await link(api, { max_completions: 1 });
    await payLinkOnHostedPage(api, String(made.url));
    return made;
  },
  'payment_link.expired': TIMED_TRIGGERS['payment_link.expired'],
  'payment.succeeded': (api) => payment(api, OK_CARD),
  // The payer is sent to the challenge page (303, not followed): the payment waits for them.
  'payment.requires_action': async (api) => {
    const made = await link(api);
    await payLinkOnHostedPage(api, String(made.url), THREE_DS_CARD);
    return made;
  },
  'payment.failed': async (api) => {
    try {
      return await payment(api, DECLINED_CARD);
    } catch {
      return { id: 'declined' }; // the 402 is the point: payment.failed is emitted
    }
  },
  'dispute.created': (api) => payment(api, DISPUTED_CARD),
  'dispute.updated': (api) => movedDispute(api, 'under_review'),
  'dispute.closed': (api) => movedDispute(api, 'won'),
  'refund.created': async (api) =>
    post(api, '/v1/refunds', { transaction: (await payment(api, OK_CARD)).id, amount: 500 }),
  'refund.succeeded': async (api) =>
    post(api, '/v1/refunds', { transaction: (await payment(api, OK_CARD)).id, amount: 500 }),
  'refund.failed': async (api) =>
    post(api, '/v1/refunds', { transaction: (await payment(api, REFUSES_REFUNDS_CARD)).id, amount: 500 }),
  'mandate.created': (api) => payment(api, OK_CARD, { save_card: true }),
  'mandate.canceled': async (api) => {
    const paid = await payment(api, OK_CARD, { save_card: true });
    return post(api, `/v1/mandates/${String(paid.mandate)}/cancel`);
  },
  'mandate.updated': replacedCard,
  'mandate.failed': failedMandate,
  'customer.created': (api) => customer(api),
  'customer.updated': async (api) =>
    post(api, `/v1/customers/${(await customer(api)).id}`, { metadata: { tier: 'gold' } }),
  'customer.deleted': async (api) =>
    (await api.request('DELETE', `/v1/customers/${(await customer(api)).id}`)) as Obj,
  'invoice.created': (api) => invoice(api, false),
  'invoice.finalized': (api) => invoice(api, true),
  'invoice.sent': (api) => invoice(api, true),
  'invoice.paid': async (api) =>
    post(api, `/v1/invoices/${(await invoice(api, true)).id}/pay`, { paid_out_of_band: true }),
  'invoice.voided': async (api) => post(api, `/v1/invoices/${(await invoice(api, true)).id}/void`),
  'invoice.marked_uncollectible': async (api) =>
    post(api, `/v1/invoices/${(await invoice(api, true)).id}/mark-uncollectible`),
  'invoice.payment_failed': TIMED_TRIGGERS['invoice.payment_failed'],
  'invoice.overdue': TIMED_TRIGGERS['invoice.overdue'],
  'subscription.created': (api) => subscription(api),
  'subscription.updated': async (api) =>
    post(api, `/v1/subscriptions/${(await subscription(api)).id}`, { metadata: { tier: 'gold' } }),
  'subscription.paused': async (api) => post(api, `/v1/subscriptions/${(await subscription(api)).id}/pause`),
  'subscription.resumed': async (api) => {
    const made = await subscription(api);
    await post(api, `/v1/subscriptions/${made.id}/pause`);
    return post(api, `/v1/subscriptions/${made.id}/resume`);
  },
  'subscription.canceled': async (api) =>
    post(api, `/v1/subscriptions/${(await subscription(api)).id}/cancel`, { at: 'now' }),
  'subscription.renewed': TIMED_TRIGGERS['subscription.renewed'],
  'subscription.past_due': TIMED_TRIGGERS['subscription.past_due'],
  'subscription.trial_will_end': TIMED_TRIGGERS['subscription.trial_will_end'],
  'estimate.created': (api) => estimate(api),
  'estimate.sent': (api) => sentEstimate(api),
  'estimate.accepted': async (api) => post(api, `/v1/estimates/${(await sentEstimate(api)).id}/accept`),
  'estimate.declined': async (api) => post(api, `/v1/estimates/${(await sentEstimate(api)).id}/decline`),
  'estimate.invoiced': async (api) => {
    const made = await sentEstimate(api);
    await post(api, `/v1/estimates/${made.id}/accept`);
    return post(api, `/v1/estimates/${made.id}/convert`, {});
  },
  'estimate.expired': TIMED_TRIGGERS['estimate.expired'],
  // As the delivery worker disables an endpoint after 5 days of failed deliveries: the sandbox's
  // test helper runs that code now.
  'webhook_endpoint.disabled': async (api) =>
    post(api, `/v1/webhooks/${(await endpoint(api)).id}/test-helpers/disable`),
  // Sent to one endpoint, and shown to the account's event streams (not in /v1/events).
  'webhook_endpoint.test': async (api) => {
    const made = await endpoint(api);
    const delivery = await post(api, `/v1/webhooks/${made.id}/test`);
    await api.request('DELETE', `/v1/webhooks/${made.id}`);
    return delivery;
  },
};
