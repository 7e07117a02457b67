// What bench/references.mjs's references run against, on the shared platform's database: the
// service's own rows copied or seeded beside it (an account, links, refundable payments,
// invoices, due renewals under a frozen test clock), and the bare read server as a process.

import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { seedTransactions } from '../api.mjs';
import { seedInvoices } from '../invoices.mjs';
import { countAsPlatform } from './machine.mjs';
import { apiCall, provisionAccount, stopProcess } from './platform-target.mjs';

const BENCH = dirname(dirname(fileURLToPath(import.meta.url)));
const LINES = [
  { description: 'Consulting', quantity: 3, unit_amount: 15000 },
  { description: 'Hosting', quantity: 1, unit_amount: 4900 },
];

/** Copies the service's row `id` of `table` under `newId` (every column, so no schema drift). */
async function copyRow(target, table, id, newIdSql, extra = {}) {
  await target.sql(
    `insert into ${table} select (jsonb_populate_record(null::${table}, to_jsonb(m) || jsonb_build_object('id', ${newIdSql}) || $2::jsonb)).*
       from ${table} m where m.id = $1`,
    [id, JSON.stringify(extra)],
  );
}

/** The payments side: an account (the api benchmark's when it ran), links and refundable payments. */
export async function paymentsSetup(target, { clients, rows, refunds, tag, say }) {
  let accountId = target.state.api?.accountId;
  let key = target.state.api?.key;
  if (!accountId) {
    ({
      account: { id: accountId },
      key,
    } = await provisionAccount(target, { name: 'Bench references' }));
    say(`[references] seeding ${rows.toLocaleString('en')} transactions (the api benchmark did not run)`);
    await seedTransactions(target, accountId, rows);
  }
  const model = await apiCall(target, key, 'POST', '/v1/payment-links', {
    amount: 2500,
    currency: 'EUR',
    description: 'Reference checkout',
    max_completions: 1_000_000,
  });
  const linkPrefix = `plink_ref${tag}_`;
  for (let i = 0; i < clients; i++) {
    await copyRow(target, 'payments.payment_links', model.id, `'${linkPrefix}' || ${i}`);
  }
  const payPrefix = `txn_refpay${tag}_`;
  await target.sql(
    `insert into payments.transactions (id, account_id, livemode, merchant_id, type, status, amount, currency,
       payment_method, processor_reference, metadata, created_at, updated_at)
     select $2 || g, $1, false, null, 'payment', 'succeeded', 2500, 'EUR',
       '{"brand":"visa","last4":"4242","exp_month":12,"exp_year":2099}'::jsonb, 'sandbox_' || g, '{}'::jsonb,
       now() - interval '1 day', now() - interval '1 day'
     from generate_series(0, $3::int - 1) g`,
    [accountId, payPrefix, refunds],
  );
  await target.sql('analyze payments.transactions');
  return { accountId, linkPrefix, payPrefix };
}

/** The invoicing side: an account (the invoices benchmark's when it ran), its customers, model and clock. */
export async function invoicingSetup(target, { rows, renewals, tag, say }) {
  let { accountId, key, customers, modelId } = target.state.invoices ?? {};
  if (!accountId) {
    ({
      account: { id: accountId },
      key,
    } = await provisionAccount(target, {
      name: 'Bench references invoicing',
      groupings: ['invoicing'],
    }));
    customers = [];
    for (let i = 0; i < 20; i++) {
      const c = await apiCall(target, key, 'POST', '/v1/customers', {
        name: 'Reference Customer',
        email: 'ap@bench.test',
        currency: 'EUR',
      });
      customers.push(c.id);
    }
    modelId = (await apiCall(target, key, 'POST', '/v1/invoices', { customer: customers[0], lines: LINES }))
      .id;
    say(`[references] seeding ${rows.toLocaleString('en')} invoices (the invoices benchmark did not run)`);
    await seedInvoices(target, accountId, modelId, customers, rows);
  }
  const [{ number }] = await target.sql('select number from invoicing.invoices where id = $1', [modelId]);
  // A test clock frozen in the past holds the renewals: the service's engine bills a clock's
  // subscriptions only when the clock is advanced, so only the reference claims these.
  const clock = await apiCall(target, key, 'POST', '/v1/test-clocks', {
    frozen_time: '2024-01-01T00:00:00Z',
    name: 'Reference renewals',
  });
  await target.sql(
    `insert into invoicing.subscriptions (id, account_id, livemode, customer_id, test_clock, status, currency, interval,
       interval_count, items, time_zone, billing_cycle_anchor, start_date, bill_from, collection_method,
       dunning_end_state, next_period_index, next_action_at, created_at, updated_at)
     select 'sub_ref' || $4 || '_' || g, $1, false, ($2::text[])[1 + g % cardinality($2::text[])], $3, 'active', 'EUR',
       'month', 1, '[{"price":{"unit_amount":4900,"currency":"EUR"},"quantity":1}]'::jsonb, 'UTC',
       now() - interval '1 month', now() - interval '1 month', now() - interval '1 month', 'charge_automatically',
       'unpaid', 1, now() - interval '1 minute' + g * interval '1 microsecond', now(), now()
     from generate_series(1, $5::int) g`,
    [accountId, customers, clock.id, tag, renewals],
  );
  await target.sql('analyze invoicing.subscriptions');
  return { accountId, customers, modelId, clock: clock.id, numberPrefix: number.replace(/-\d+$/, '') + 'R' };
}

/** The bare read server as a process of its own (counted with the platform in the CPU split). */
export async function startReadServer(databaseUrl) {
  const child = spawn(process.execPath, [join(BENCH, 'reference', 'read-server.mjs')], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  countAsPlatform(child.pid);
  const line = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('read server did not start within 30 s')), 30_000);
    createInterface({ input: child.stdout }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`read server exited (${code})`)));
  });
  return { url: JSON.parse(line).url, stop: () => stopProcess(child) };
}
