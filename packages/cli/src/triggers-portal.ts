// `paygrid trigger mandate.updated`: the one way a mandate changes without failing or ending is
// its customer replacing the card in the customer portal (docs/api.md, The customer portal),
// so the trigger walks that path as the customer would: an invoice paid on its hosted page
// with "save this card" (the customer's mandate), a portal session, the portal's "Replace
// card" link and the payments service's card form, posted with another test card.

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

/** A customer whose card is saved as their (on_demand) mandate by paying an invoice. */
async function customerWithSavedCard(api: TimedApi): Promise<{ customer: string; mandate: string }> {
  const customer = await post(api, '/v1/customers', {
    name: 'Trigger Portal Customer',
    email: 'portal@trigger.test',
    currency: 'USD',
  });
  const invoice = await post(api, '/v1/invoices', {
    customer: customer.id,
    currency: 'USD',
    lines: [{ description: 'paygrid trigger', quantity: 1, unit_amount: 1500 }],
    collection_method: 'send_invoice',
    send: true,
  });
  await payInvoicePage(api, String(invoice.hosted_url), '4242424242424242');
  const mandate = await until(async () => {
    const found = (await get(api, `/v1/customers/${customer.id}`)).default_mandate;
    return typeof found === 'string' ? found : undefined;
  }, 'the saved card to become the customer default mandate');
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
  const replaced = await fetch(formUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrf_token: token,
      cardholder_name: 'Trigger Payer',
      card_number: '4242424242424242',
      exp_month: '11',
      exp_year: String(new Date().getUTCFullYear() + 6),
      cvc: '123',
    }),
  });
  await replaced.arrayBuffer();
  if (replaced.status !== 303) throw new TypeError(`Replacing the card answered ${replaced.status}.`);
  return get(api, `/v1/mandates/${mandate}`);
}
