// Throughput and latency of the public API through the gateway, per mode (closed model:
// N connections, each sending its next operation when the previous one was answered):
//
//   read            GET /v1/merchants?limit=10 with a test secret key
//   checkout        the hosted checkout form: GET /pay/:link (renders the form with a CSRF
//                   token), then POST /pay/:link with the token and a card (urlencoded); one
//                   operation = both requests, ok = 200 "payment succeeded" page
//   refund          POST /v1/refunds {transaction} on distinct succeeded payments
//   list            GET /v1/transactions?limit=100&status=succeeded&currency=EUR with the table
//                   holding `rows` transactions of the account (1,000,000; --quick: 20,000)
//
// Seeding: `generate_series` straight into payments.transactions (90 % succeeded, 10 % failed;
// EUR/USD/GBP; created over the past ~347 days) and, for every succeeded payment, its two
// ledger entries (debit processor_clearing, credit merchant_balance:<merchant or account>),
// exactly the legs the service posts, so the ledger stays balanced.
//
// The checkout links: one per connection, each with max_completions 1,000,000 (a link row is
// locked while a token is claimed, so one link would serialise all payers; many payers of one
// popular link is a different benchmark).

import { randomBytes } from 'node:crypto';
import { URLSearchParams } from 'node:url';
import { closedLoop, closedLoopParams, httpClient } from './lib/load.mjs';
import { cpuTimes, machineLoad } from './lib/machine.mjs';
import { loadOf, recordFigure } from './lib/figures.mjs';
import { perModeBenchmark } from './lib/report.mjs';
import { round } from './lib/stats.mjs';
import { adminCall, apiCall, provisionAccount, sharedTarget } from './lib/platform-target.mjs';

const CARD = '4242424242424242';

/** Seeds `rows` transactions (and their ledger entries) for the account; returns seconds taken. */
export async function seedTransactions(target, accountId, rows) {
  const started = Date.now();
  const [merchant] = await target.sql(
    'select id from payments.merchants where account_id = $1 and livemode = false and is_default',
    [accountId],
  );
  const owner = merchant?.id ?? null;
  const tag = randomBytes(4).toString('hex');
  const chunk = 250_000;
  for (let from = 1; from <= rows; from += chunk) {
    const to = Math.min(rows, from + chunk - 1);
    await target.sql(
      `insert into payments.transactions (id, account_id, livemode, merchant_id, type, status, amount, currency,
         payment_method, failure_code, failure_message, processor_reference, metadata, created_at, updated_at)
       select 'txn_seed' || $3 || lpad(g::text, 8, '0'), $1, false, $2, 'payment',
         case when g % 10 = 3 then 'failed' else 'succeeded' end,
         100 + (g::bigint * 7919) % 100000,
         case when g % 10 < 7 then 'EUR' when g % 10 < 9 then 'USD' else 'GBP' end,
         '{"brand":"visa","last4":"4242","exp_month":12,"exp_year":2099}'::jsonb,
         case when g % 10 = 3 then 'card_declined' end,
         case when g % 10 = 3 then 'The card was declined.' end,
         case when g % 10 = 3 then null else 'sandbox_' || g end,
         '{}'::jsonb,
         now() - g * interval '30 seconds', now() - g * interval '30 seconds'
       from generate_series($4::int, $5::int) g`,
      [accountId, owner, tag, from, to],
    );
    await target.sql(
      `insert into payments.ledger_entries (account_id, livemode, transaction_id, ledger_account, direction, amount, currency, created_at)
       select t.account_id, false, t.id, l.ledger_account, l.direction, t.amount, t.currency, t.created_at
       from payments.transactions t
       cross join (values ('processor_clearing', 'debit'), ('merchant_balance:' || coalesce($2, $1), 'credit'))
         as l (ledger_account, direction)
       where t.id >= 'txn_seed' || $3 || lpad($4::text, 8, '0') and t.id <= 'txn_seed' || $3 || lpad($5::text, 8, '0')
         and t.status = 'succeeded'`,
      [accountId, owner, tag, from, to],
    );
  }
  await target.sql('analyze payments.transactions');
  await target.sql('analyze payments.ledger_entries');
  return round((Date.now() - started) / 1000, 1);
}

/** The ledger's balance check over the account (every seeded and refunded amount posted). */
async function ledgerCheck(target, accountId) {
  const [row] = await target.sql(
    `select count(*)::int as unbalanced from (
       select transaction_id from payments.ledger_entries where account_id = $1
       group by transaction_id, currency
       having sum(case when direction = 'debit' then amount else -amount end) <> 0) x`,
    [accountId],
  );
  return row.unbalanced;
}

export function tokenOf(html) {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF token in the page');
  return match[1];
}

/** A card number no sandbox knows (Mastercard's test number): only a processor takes it. */
const STRIPE_CARD = '5555555555554444';

/** Live mode for `accountId` through a Stripe connection to the run's stripe-mock: `count` links. */
async function liveStripeLinks(target, accountId, count) {
  const { secret } = await adminCall(target, 'POST', `/admin/v1/accounts/${accountId}/keys`, {
    mode: 'live',
    kind: 'secret',
  });
  await adminCall(target, 'POST', `/admin/v1/accounts/${accountId}/processor-connections`, {
    mode: 'live',
    processor: 'stripe',
    // stripe-mock takes any test key; STRIPE_API_BASE (test-only) lifts the sk_live_ check.
    credentials: {
      secret_key: `sk_test_${'B3n'.repeat(8)}Bench`,
      webhook_signing_secret: `whsec_${'Bn7'.repeat(10)}`,
    },
    description: 'Bench: Stripe (stripe-mock)',
  });
  const merchant = await apiCall(target, secret, 'POST', '/v1/merchants', {
    business_name: 'Bench Live Shop',
    email: 'ops@bench-live.example',
    country: 'GB',
    default_currency: 'EUR',
    business_type: 'company',
    website: 'https://bench-live.example',
  });
  await adminCall(target, 'POST', `/admin/v1/merchants/${merchant.id}/approve`);
  const links = [];
  for (let i = 0; i < count; i++) {
    const link = await apiCall(target, secret, 'POST', '/v1/payment-links', {
      merchant: merchant.id,
      amount: 2500,
      currency: 'EUR',
      description: `Bench Stripe checkout ${i}`,
      max_completions: 1_000_000,
    });
    links.push(link.id);
  }
  return links;
}

/** The checkout form's body: the page's CSRF token and a card. */
export const form = (token, card = CARD) =>
  new URLSearchParams({
    csrf_token: token,
    cardholder_name: 'Bench Payer',
    card_number: card,
    exp_month: '12',
    exp_year: '2099',
    cvc: '123',
  }).toString();

/** One checkout payment on `link`: GET the page, POST the card; ok = the success page. */
export async function checkoutOnce(client, link, card = CARD) {
  const path = `/pay/${link}`;
  const page = await client.request('GET', path);
  if (page.status !== 200) return { status: `page ${page.status}`, ok: false };
  const paid = await client.request('POST', path, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form(tokenOf(page.text), card),
  });
  return { status: paid.status, ok: paid.status === 200 && paid.text.includes('txn_') };
}

async function measure(target, name, fn) {
  const before = cpuTimes();
  const result = await fn();
  return { name, ...result, machine_load: machineLoad(before, cpuTimes()) };
}

export async function runMode(mode, opts, say) {
  const target = await sharedTarget(mode, say);
  const { seconds, warmup, connections, rows } = opts;
  // --only api.read,api.checkout,api.list,api.refund runs those figures only.
  const want = (part) => !opts.parts || opts.parts.includes(part);
  const { account, key } = await provisionAccount(target, { name: 'Bench API' });
  target.state.api = { accountId: account.id, key };
  const client = httpClient(target.gateway, connections);
  const auth = { authorization: `Bearer ${key}` };
  const results = [];
  try {
    if (want('read')) {
      // Authenticated read.
      say(`[api] ${mode}: read, ${connections} connections, ${seconds} s`);
      results.push(
        await measure(target, 'read', () =>
          closedLoop({
            connections,
            seconds,
            warmup,
            op: async () => {
              const r = await client.request('GET', '/v1/merchants?limit=10', { headers: auth });
              return { status: r.status, ok: r.status === 200 };
            },
          }),
        ),
      );

      target.state.readRate = results.at(-1).ops_per_s;
      recordFigure(mode, 'read_per_s', results.at(-1).ops_per_s, loadOf(results.at(-1)));
    }
    if (want('checkout')) {
      // Checkout: one link per connection.
      const links = [];
      for (let i = 0; i < connections; i++) {
        const link = await apiCall(target, key, 'POST', '/v1/payment-links', {
          amount: 2500,
          currency: 'EUR',
          description: `Bench checkout ${i}`,
          max_completions: 1_000_000,
        });
        links.push(link.id);
      }
      target.state.checkoutLinks = links;
      say(`[api] ${mode}: checkout, ${connections} connections, ${seconds} s`);
      const checkout = await measure(target, 'checkout', () =>
        closedLoop({
          connections,
          seconds,
          warmup,
          op: (worker) => checkoutOnce(client, links[worker]),
        }),
      );
      results.push(checkout);
      target.state.checkoutRate = checkout.ops_per_s;
      recordFigure(mode, 'checkout_per_s', checkout.ops_per_s, loadOf(checkout));

      // The same checkout in live mode through the Stripe connector (issue 13), against the run's
      // stripe-mock: a live key, a Stripe connection, an approved live merchant, one link per
      // connection, and a card no sandbox knows. Each payment sends Stripe a PaymentMethod and a
      // confirmed PaymentIntent (with our intent id as its Idempotency-Key).
      const stripeLinks = await liveStripeLinks(target, account.id, connections);
      say(
        `[api] ${mode}: checkout through the Stripe connector (stripe-mock), ${connections} connections, ${seconds} s`,
      );
      const stripeCheckout = await measure(target, 'checkout-stripe', () =>
        closedLoop({
          connections,
          seconds,
          warmup,
          op: (worker) => checkoutOnce(client, stripeLinks[worker], STRIPE_CARD),
        }),
      );
      results.push({ ...stripeCheckout, sandbox_checkouts_per_s: checkout.ops_per_s });
    }
    if (want('list') || want('refund')) {
      // The transactions table: `rows` seeded rows for this account.
      say(`[api] ${mode}: seeding ${rows.toLocaleString('en')} transactions with their ledger entries`);
      const seedSeconds = await seedTransactions(target, account.id, rows);
      const [{ n }] = await target.sql(
        'select count(*)::int as n from payments.transactions where account_id = $1',
        [account.id],
      );

      if (want('list')) {
        say(
          `[api] ${mode}: list transactions (page of 100, filtered), ${connections} connections, ${seconds} s`,
        );
        const listPath = '/v1/transactions?limit=100&status=succeeded&currency=EUR&type=payment';
        const list = await measure(target, 'list-transactions', () =>
          closedLoop({
            connections,
            seconds,
            warmup,
            op: async () => {
              const r = await client.request('GET', listPath, { headers: auth });
              return { status: r.status, ok: r.status === 200 && r.text.includes('"has_more":true') };
            },
          }),
        );
        results.push({ ...list, table_rows: n, seed_seconds: seedSeconds, path: listPath });
        recordFigure(mode, 'list_transactions_p99_ms', list.latency_ms.p99, loadOf(list));
      }
    }
    if (want('refund')) {
      // Refunds of distinct payments of the test key's mode (full refunds): the seeded ones and
      // the sandbox checkout's. The Stripe checkout's payments are the account's live mode,
      // which the test key cannot see (404 resource_missing: 450 of 2,188 refunds in a run).
      const payable = await target.sql(
        `select id from payments.transactions where account_id = $1 and livemode = false and type = 'payment'
         and status = 'succeeded' and amount_refunded = 0 order by created_at desc limit $2`,
        [account.id, Math.min(rows, 200_000)],
      );
      let next = 0;
      say(
        `[api] ${mode}: refund, ${connections} connections, ${seconds} s (${payable.length} payments available)`,
      );
      const refund = await measure(target, 'refund', () =>
        closedLoop({
          connections,
          seconds,
          warmup,
          stopWhen: () => next >= payable.length,
          op: async () => {
            const id = payable[next++]?.id;
            if (!id) return { status: 'exhausted', ok: false };
            const r = await client.request('POST', '/v1/refunds', {
              headers: { ...auth, 'content-type': 'application/json' },
              body: JSON.stringify({ transaction: id }),
            });
            return { status: r.status, ok: r.status === 200 && r.text.includes('"succeeded"') };
          },
        }),
      );
      results.push({ ...refund, unbalanced_after: await ledgerCheck(target, account.id) });
      recordFigure(mode, 'refund_per_s', refund.ops_per_s, loadOf(refund));
    }
  } finally {
    await client.close();
  }
  return { mode, params: { seconds, warmup, connections, rows }, results };
}

export const api = perModeBenchmark({
  name: 'api',
  description:
    'authenticated read, hosted checkout payment, refund and a filtered page of 100 transactions out of 1 M, through the gateway',
  params: closedLoopParams,
  runMode,
});
