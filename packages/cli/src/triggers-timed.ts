// `paygrid trigger` for the types that need time to pass: each runs on a test clock of its
// own (a customer attached to it, its invoices, estimates and subscriptions follow the
// clock), advanced just past the moment the event is due, so nothing waits for real days.
// Payment links have no test clock: their expiry uses a link that expires in two seconds,
// and the payments job (every 10 s by default) emits the event.

import { postCardForm } from './hosted-checkout';

type Obj = { id: string; [field: string]: unknown };
export interface TimedApi {
  baseUrl: string;
  request(method: 'GET' | 'POST' | 'DELETE', path: string, options?: { body?: unknown }): Promise<unknown>;
}

const DAY = 86_400_000;
const post = async (api: TimedApi, path: string, body?: unknown) =>
  (await api.request('POST', path, { body })) as Obj;
const get = async (api: TimedApi, path: string) => (await api.request('GET', path)) as Obj;
const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** A test clock at the current time with one customer on it; `advance` moves it by `ms`. */
async function clocked(api: TimedApi) {
  const start = Date.now();
  const clock = await post(api, '/v1/test-clocks', { frozen_time: iso(start), name: 'paygrid trigger' });
  const customer = await post(api, '/v1/customers', {
    name: 'Trigger Clock Customer',
    email: 'clock@trigger.test',
    currency: 'USD',
    test_clock: clock.id,
  });
  return {
    clock,
    customer,
    advance: (ms: number) =>
      post(api, `/v1/test-clocks/${clock.id}/advance`, { frozen_time: iso(start + ms) }),
  };
}

const monthly = (customer: string, extra: Record<string, unknown> = {}) => ({
  customer,
  items: [
    { description: 'Trigger plan', unit_amount: 1000, currency: 'USD', quantity: 1, interval: 'month' },
  ],
  ...extra,
});

/** Pays a hosted invoice page through its card form (the payer's path), saving the card. */
export async function payInvoicePage(api: TimedApi, hostedUrl: string, card: string): Promise<void> {
  const absolute = (url: string) =>
    `${api.baseUrl}${new URL(url, api.baseUrl).pathname}${new URL(url, api.baseUrl).search}`;
  const unescape = (s: string) =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  const invoicePage = await (await fetch(absolute(hostedUrl))).text();
  const payLink = /href="([^"]*\/pay\/invoices\/[^"]+)"/.exec(invoicePage)?.[1];
  if (!payLink) throw new TypeError('The hosted invoice page offered no way to pay.');
  const formUrl = absolute(unescape(payLink));
  const form = await (await fetch(formUrl)).text();
  const token = /name="csrf_token" value="([^"]+)"/.exec(form)?.[1];
  const action = /<form[^>]*action="([^"]+)"/.exec(form)?.[1];
  if (!token) throw new TypeError('The card form had no CSRF token.');
  const paid = await postCardForm(action ? absolute(unescape(action)) : formUrl, token, card, {
    save_card: 'yes',
  });
  await paid.arrayBuffer();
  if (paid.status !== 303) throw new TypeError(`Paying the invoice answered ${paid.status}.`);
}

/** Waits (bounded) until `probe` answers something. */
export async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new TypeError(`Gave up waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A subscription charged automatically to a card whose later charges fail (4000 0000 0000
 * 0341): its first invoice is paid on the hosted page (saving the card as the customer's
 * mandate), then a month passes and the renewal's charge is declined.
 */
async function failedRenewal(api: TimedApi): Promise<Obj> {
  const { customer, advance } = await clocked(api);
  const subscription = await post(api, '/v1/subscriptions', monthly(customer.id));
  const first = await get(api, `/v1/invoices/${String(subscription.latest_invoice)}`);
  await payInvoicePage(api, String(first.hosted_url), '4000000000000341');
  // Both the saved card (mandate.created) and the paid first invoice (payment.succeeded) must
  // have reached invoicing before the month passes. In distributed mode the two events travel
  // on different Kafka partitions and may be handled in either order: a subscription still
  // `incomplete` when its renewal fails is expired, never past_due.
  await until(
    async () =>
      (await get(api, `/v1/customers/${customer.id}`)).default_mandate &&
      (await get(api, `/v1/subscriptions/${subscription.id}`)).status === 'active'
        ? true
        : undefined,
    'the saved card to become the customer default mandate and the first invoice to be paid',
  );
  await advance(32 * DAY);
  // The advance waits a bounded time for the charge's outcome; a slow one lands later. In
  // distributed mode the renewal crosses Kafka twice (the charge command, then its outcome),
  // and a consumer group rebalancing on a loaded machine held it past 45 s in a CI run.
  await until(
    async () =>
      (await get(api, `/v1/subscriptions/${subscription.id}`)).status === 'past_due' ? true : undefined,
    'the renewal charge to fail',
    90_000,
  );
  return subscription;
}

export const TIMED_TRIGGERS = {
  'payment_link.expired': async (api: TimedApi) =>
    post(api, '/v1/payment-links', {
      amount: 2500,
      currency: 'USD',
      description: 'paygrid trigger (expires in 2 s)',
      expires_at: iso(Date.now() + 2000),
    }),
  'invoice.overdue': async (api: TimedApi) => {
    const { customer, advance } = await clocked(api);
    const invoice = await post(api, '/v1/invoices', {
      customer: customer.id,
      currency: 'USD',
      lines: [{ description: 'paygrid trigger', quantity: 1, unit_amount: 1500 }],
      collection_method: 'send_invoice',
      days_until_due: 1,
      send: true,
    });
    await advance(2 * DAY);
    return invoice;
  },
  'invoice.payment_failed': failedRenewal,
  'subscription.past_due': failedRenewal,
  'subscription.renewed': async (api: TimedApi) => {
    const { customer, advance } = await clocked(api);
    const subscription = await post(
      api,
      '/v1/subscriptions',
      monthly(customer.id, { collection_method: 'send_invoice' }),
    );
    await advance(32 * DAY);
    return subscription;
  },
  'subscription.trial_will_end': async (api: TimedApi) => {
    const { customer, advance } = await clocked(api);
    const subscription = await post(api, '/v1/subscriptions', monthly(customer.id, { trial_period_days: 7 }));
    await advance(5 * DAY); // 72 hours before the trial's end is day 4
    return subscription;
  },
  'estimate.expired': async (api: TimedApi) => {
    const { clock, customer, advance } = await clocked(api);
    const estimate = await post(api, '/v1/estimates', {
      kind: 'quote',
      customer: customer.id,
      currency: 'USD',
      lines: [{ description: 'paygrid trigger', quantity: 1, unit_amount: 45000 }],
      expires_at: iso(Date.parse(String(clock.frozen_time)) + DAY),
    });
    await post(api, `/v1/estimates/${estimate.id}/send`);
    await advance(2 * DAY);
    return estimate;
  },
} as const;
