// Invoices through the gateway, per mode (closed model: N connections, each sending its next
// request when the previous one was answered), with `rows` invoices of the account in
// invoicing.invoices (1,000,000; --quick: 20,000, the report says so):
//
//   create-and-send  POST /v1/invoices {customer, lines} (default send: created, finalized with
//                    the next number of the account's counter, e-mail queued, invoice.sent);
//                    ok = 200 with status "open" and sent_at set; the phase then waits for
//                    the queued e-mails to be sent (their PDFs are drawn after the answer), and
//                    its CPU figures include that tail
//   list             GET /v1/invoices?limit=100&status=paid&customer=<one of 20>&created[gte]=<~200
//                    days ago>; ok = 200 with has_more (a full page)
//
// Seeding, before both: one invoice is created and sent through the API (the model row: its
// lines, totals, seller and customer snapshots as the service writes them), then
// `generate_series` copies it straight into invoicing.invoices in chunks of 250,000: distinct
// ids and page tokens, spread over the account's 20 customers, one every 30 s back over ~347
// days, 60 % paid (out of band), 30 % open, 10 % void, each with the next invoice number, an
// open one past its due date already marked overdue (as the overdue sweep would have done the
// day it fell due: seeded unmarked, the sweep marked ~270,000 of them and emitted as many
// invoice.overdue events during the phases that followed, bench/README.md finding 41); the
// account's invoice_number_counters row is then moved past the last seeded number (so the
// numbers stay gapless and unique, and the create-and-send that follows continues them). Then
// ANALYZE. Lines live in the invoice row (jsonb), so "invoices + lines" is one table.

import { randomBytes } from 'node:crypto';
import { closedLoop, closedLoopParams, httpClient } from './lib/load.mjs';
import { cpuTimes, machineLoad } from './lib/machine.mjs';
import { loadOf, recordFigure } from './lib/figures.mjs';
import { perModeBenchmark } from './lib/report.mjs';
import { round } from './lib/stats.mjs';
import { apiCall, provisionAccount, sharedTarget } from './lib/platform-target.mjs';

const CUSTOMERS = 20;
const LINES = [
  { description: 'Consulting', quantity: 3, unit_amount: 15000 },
  { description: 'Hosting', quantity: 1, unit_amount: 4900 },
];

/**
 * Seeds `rows` invoices for the account, copies of the model invoice `modelId`, numbered after
 * the account's counter; returns seconds taken.
 */
export async function seedInvoices(target, accountId, modelId, customers, rows) {
  const started = Date.now();
  const [model] = await target.sql('select number from invoicing.invoices where id = $1', [modelId]);
  const prefix = model.number.replace(/-\d+$/, '');
  const [counter] = await target.sql(
    'select last_number::int as n from invoicing.invoice_number_counters where account_id = $1 and livemode = false',
    [accountId],
  );
  const base = counter.n;
  const tag = randomBytes(4).toString('hex');
  const chunk = 250_000;
  for (let from = 1; from <= rows; from += chunk) {
    const to = Math.min(rows, from + chunk - 1);
    await target.sql(
      `insert into invoicing.invoices (id, account_id, livemode, customer_id, status, number, currency,
         collection_method, days_until_due, due_date, description, lines, discount, subtotal, discount_total,
         tax_total, total, amount_paid, amount_due, seller_name, seller, customer_snapshot, page_token,
         send_count, paid_out_of_band, finalized_at, sent_at, paid_at, voided_at, overdue_at, metadata, created_at,
         updated_at)
       select 'inv_seed' || $2 || lpad(g::text, 8, '0'), m.account_id, false, ($3::text[])[1 + g % $4],
         s.status, $5 || '-' || lpad(($6 + g)::text, greatest(4, length(($6 + g)::text)), '0'), m.currency, m.collection_method, m.days_until_due,
         s.at + make_interval(days => m.days_until_due), m.description, m.lines, m.discount, m.subtotal,
         m.discount_total, m.tax_total, m.total,
         case when s.status = 'paid' then m.total else 0 end,
         case when s.status = 'open' then m.total else 0 end,
         m.seller_name, m.seller, m.customer_snapshot, 'seedtoken' || $2 || lpad(g::text, 8, '0'),
         1, s.status = 'paid', s.at, s.at,
         case when s.status = 'paid' then s.at end,
         case when s.status = 'void' then s.at end,
         -- An open invoice past its due date was marked overdue by the sweep when it fell due.
         case when s.status = 'open' and s.at + make_interval(days => m.days_until_due) <= now()
              then s.at + make_interval(days => m.days_until_due) end,
         '{}'::jsonb, s.at, s.at
       from invoicing.invoices m
       cross join generate_series($7::int, $8::int) g
       -- The status from g / customers, not g: every customer gets every status.
       cross join lateral (select case when (g / $4) % 10 < 6 then 'paid' when (g / $4) % 10 < 9 then 'open' else 'void' end
                                  as status,
                                  now() - g * interval '30 seconds' as at) s
       where m.id = $1`,
      [modelId, tag, customers, customers.length, prefix, base, from, to],
    );
  }
  await target.sql(
    'update invoicing.invoice_number_counters set last_number = last_number + $2 where account_id = $1 and livemode = false',
    [accountId, rows],
  );
  await target.sql('analyze invoicing.invoices');
  return round((Date.now() - started) / 1000, 1);
}

async function measure(name, fn) {
  const before = cpuTimes();
  const result = await fn();
  return { name, ...result, machine_load: machineLoad(before, cpuTimes()) };
}

/** Waits (at most 120 s) until no e-mail of the account is due; returns how long it took. */
async function drainMail(target, accountId) {
  const started = Date.now();
  for (;;) {
    const [{ due }] = await target.sql(
      `select count(*)::int as due from invoicing.mail_queue
        where account_id = $1 and status = 'pending' and next_attempt_at <= now()`,
      [accountId],
    );
    const waited_ms = Date.now() - started;
    if (due === 0 || waited_ms > 120_000) return { waited_ms, left_due: due };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Numbers of the account: how many, how many distinct, and the counter (must all agree). */
async function numberingCheck(target, accountId) {
  const [row] = await target.sql(
    `select count(number)::int as numbered, count(distinct number)::int as distinct_numbers,
            (select last_number::int from invoicing.invoice_number_counters where account_id = $1 and livemode = false)
              as counter
       from invoicing.invoices where account_id = $1 and livemode = false`,
    [accountId],
  );
  return row;
}

export async function runMode(mode, opts, say) {
  const target = await sharedTarget(mode, say);
  const { seconds, warmup, connections, rows } = opts;
  // --only invoices.create or invoices.list runs one figure (a profile of one path).
  const want = (part) => !opts.parts || opts.parts.includes(part);
  const { account, key } = await provisionAccount(target, {
    name: 'Bench Invoices',
    groupings: ['invoicing'],
  });
  const client = httpClient(target.gateway, connections);
  const auth = { authorization: `Bearer ${key}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const results = [];
  try {
    const customers = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const customer = await apiCall(target, key, 'POST', '/v1/customers', {
        name: 'Bench Customer',
        email: 'ap@bench.test',
        currency: 'EUR',
      });
      customers.push(customer.id);
    }
    const model = await apiCall(target, key, 'POST', '/v1/invoices', {
      customer: customers[0],
      lines: LINES,
    });

    // The references (references.mjs) run their invoice SQL on this account's tables.
    target.state.invoices = { accountId: account.id, key, customers, modelId: model.id };
    say(`[invoices] ${mode}: seeding ${rows.toLocaleString('en')} invoices`);
    const seedSeconds = await seedInvoices(target, account.id, model.id, customers, rows);
    const [{ n }] = await target.sql(
      'select count(*)::int as n from invoicing.invoices where account_id = $1',
      [account.id],
    );

    if (want('create')) {
      say(`[invoices] ${mode}: create-and-send, ${connections} connections, ${seconds} s`);
      // The phase ends when its e-mails are sent (each draws the invoice's PDF on the mail
      // worker's thread after the request has answered): the CPU figures include that work,
      // and the list below is not measured beside it (bench/README.md finding 25).
      const created = await measure('create-and-send', async () => {
        const loop = await closedLoop({
          connections,
          seconds,
          warmup,
          op: async (worker) => {
            const r = await client.request('POST', '/v1/invoices', {
              headers: json,
              body: JSON.stringify({ customer: customers[worker % CUSTOMERS], lines: LINES }),
            });
            return {
              status: r.status,
              ok:
                r.status === 200 && r.text.includes('"status":"open"') && !r.text.includes('"sent_at":null'),
            };
          },
        });
        const mail_drain = await drainMail(target, account.id);
        // Invoices created and mailed per second, the mail queue's tail included.
        const sustained = loop.ops_total / (warmup + loop.seconds + mail_drain.waited_ms / 1000);
        return { ...loop, mail_drain, sent_per_s: Math.round(sustained * 10) / 10 };
      });
      recordFigure(mode, 'invoice_per_s', created.ops_per_s, loadOf(created));
      results.push({
        ...created,
        table_rows: n,
        seed_seconds: seedSeconds,
        numbering: await numberingCheck(target, account.id),
      });
    }

    if (want('list')) {
      const since = new Date(Date.now() - 200 * 86_400_000).toISOString();
      const listPath = (worker) =>
        `/v1/invoices?limit=100&status=paid&customer=${customers[worker % CUSTOMERS]}&created[gte]=${encodeURIComponent(since)}`;
      say(
        `[invoices] ${mode}: list (page of 100, status+customer+created), ${connections} connections, ${seconds} s`,
      );
      // The bytes of a full page (the body through the gateway): what the page's cost grows with.
      let pageBytes = 0;
      const list = await measure('list-invoices', () =>
        closedLoop({
          connections,
          seconds,
          warmup,
          op: async (worker) => {
            const r = await client.request('GET', listPath(worker), { headers: auth });
            const ok = r.status === 200 && r.text.includes('"has_more":true');
            if (ok) pageBytes = Buffer.byteLength(r.text);
            return { status: r.status, ok };
          },
        }),
      );
      results.push({ ...list, table_rows: n, path: listPath(0), page_bytes: pageBytes });
      recordFigure(mode, 'list_invoices_p99_ms', list.latency_ms.p99, loadOf(list));
    }
  } finally {
    await client.close();
  }
  return { mode, params: { seconds, warmup, connections, rows }, results };
}

export const invoices = perModeBenchmark({
  name: 'invoices',
  description:
    'invoice create-and-send (POST /v1/invoices: finalize + mail queued) and a filtered page of 100 invoices out of 1 M, through the gateway',
  params: closedLoopParams,
  runMode,
});
