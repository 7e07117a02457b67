// `paygrid trigger` for the mandate events that go through a payer's hosted pages.
// mandate.updated: the one way a mandate changes without failing or ending is
// its customer replacing the card in the customer portal (docs/api.md, The customer portal),
// so the trigger walks that path as the customer would: an invoice paid on its hosted page
// with "save this card" (the customer's mandate), a portal session, the portal's "Replace
// card" link and the payments service's card form, posted with another test card.
// mandate.failed: a recurring link paid on its hosted checkout with the card whose later
// charges are declined (4000 0000 0000 0341), then the sandbox's test helper runs the
// mandate's scheduled attempts now (POST /v1/mandates/:id/test-helpers/charge) until the
// scheduler's failure policy gives up on it.

import { payLinkOnHostedPage, postCardForm } from './hosted-checkout';
import { payInvoicePage, until, type TimedApi } from './triggers-timed';

type Obj = { id: string; [field: string]: unknown };
const post = async (api: TimedApi, path: string, body?: unknown) =>
  (await api.request('POST', path, { body })) as Obj;
const get = async (api: TimedApi, path: string) => (await api.request('GET', path)) as Obj;
const unescape = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/** A customer whose card is saved as their (on_demand) mandate by paying their first invoice. */
async function customerWithSavedCard(api: TimedApi): Promise<{ customer: string; mandate: string }> {
  const customer = await post(api, '/v1/customers', {
    name: 'Trigger Portal Customer',
    email: 'portal@trigger.test',
    currency: 'USD',
  });
  // A subscription charged automatically: its first invoice's page offers to save the card.
  const subscription = await post(api, '/v1/subscriptions', {
    customer: customer.id,
    items: [
      { description: 'Trigger plan', unit_amount: 1000, currency: 'USD', quantity: 1, interval: 'month' },
    ],
  });
  const invoice = await get(api, `/v1/invoices/${String(subscription.latest_invoice)}`);
  await payInvoicePage(api, String(invoice.hosted_url), '4242424242424242');
  // The card is saved in the transaction that records the payment (newest mandates first).
  const mandate = await until(async () => {
    const list = (await api.request('GET', '/v1/mandates?limit=20')) as { data: Obj[] };
    return list.data.find((m) => m.customer === customer.id)?.id;
  }, "the saved card to become the customer's mandate");
  return { customer: customer.id, mandate };
}

export async function replacedCard(api: TimedApi): Promise<Obj> {
  const { customer, mandate } = await customerWithSavedCard(api);
  const session = await post(api, `/v1/customers/${customer}/portal-sessions`, {});
  const portal = `${api.baseUrl}${new URL(String(session.url)).pathname}`;
  // The portal lists cards from the mandate events it has consumed: wait for this one.
  // Its first card link is "Replace card" (then "Remove card"); the form below checks it.
  const replace = await until(async () => {
    const html = await (await fetch(portal)).text();
    const href = /href="([^"]*\/pay\/cards\/[^"]+)"/.exec(html)?.[1];
    return href ? unescape(href) : undefined;
  }, "the portal to show the customer's card");
  const formUrl = `${api.baseUrl}${new URL(replace, api.baseUrl).pathname}`;
  const form = await (await fetch(formUrl)).text();
  const token = /name="csrf_token" value="([^"]+)"/.exec(form)?.[1];
  if (!token || !form.includes('name="card_number"')) {
    throw new TypeError("The portal's card page offered no card form.");
  }
  // Another expiry than the first card's, so the mandate's card visibly changes.
  const replaced = await postCardForm(formUrl, token, '4242424242424242', {
    exp_month: '11',
    exp_year: String(new Date().getUTCFullYear() + 6),
  });
  await replaced.arrayBuffer();
  if (replaced.status !== 303) throw new TypeError(`Replacing the card answered ${replaced.status}.`);
  return get(api, `/v1/mandates/${mandate}`);
}

/** Attempts of a cycle before a mandate fails (apps/payments mandates/cycle.ts: 3), plus room. */
const MAX_CALLS = 5;

export async function failedMandate(api: TimedApi): Promise<Obj> {
  const link = await post(api, '/v1/payment-links', {
    type: 'recurring',
    amount: 1500,
    currency: 'USD',
    description: 'paygrid trigger (monthly)',
    recurring: { interval: 'month' },
  });
  const status = await payLinkOnHostedPage(api, String(link.url), '4000000000000341');
  if (status !== 200) throw new TypeError(`Paying the recurring link answered ${status}.`);
  const payments = (await api.request('GET', `/v1/transactions?payment_link=${link.id}`)) as { data: Obj[] };
  const mandate = payments.data[0]?.mandate;
  if (typeof mandate !== 'string') throw new TypeError('The recurring checkout made no mandate.');
  for (let call = 0; call < MAX_CALLS; call++) {
    const after = await post(api, `/v1/mandates/${mandate}/test-helpers/charge`);
    if (after.status === 'failed') return after;
  }
  throw new TypeError(`The mandate ${mandate} did not fail after ${MAX_CALLS} charges.`);
}
