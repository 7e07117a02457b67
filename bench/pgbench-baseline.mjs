// The pgbench baseline (issue 8): pgbench runs the SQL a hosted checkout payment performs,
// statement for statement and transaction for transaction, on the same PostgreSQL and the
// same database (distributed mode, after the api benchmark: its account, links, default
// merchant and its 1 M seeded transactions), with as many clients as the api benchmark's
// connections. The ratio service checkouts/s ÷ pgbench checkouts/s says how much of the
// database's capacity for this work the service delivers (HTTP, the gateway, rendering,
// the token's HMAC, the sandbox connector and Node all come on top).
//
// The statements as issue 8 found them, from apps/payments/src/payment-links
// (checkout.controller.ts, payment-links.service.ts) and transactions/transactions.service.ts,
// kept as they were: a fixed historical baseline, no longer the service's own sequence (the
// checkout's POST has been 9 statements in two commits since 2026-12-06, bench/README.md
// finding 56; issue 15's reference is `references.checkout`, the minimal two-commit SQL):
//   GET /pay/:id    findPublic
//   POST /pay/:id   findPublic; submission(hash);
//                   claimToken tx: link FOR UPDATE, token used?, in-flight count, insert submission;
//                   chargeCard tx1: resolve the default merchant, insert the pending transaction;
//                   (the sandbox connector: no SQL)
//                   tx2 recordSuccess: update → succeeded, 2 ledger entries, outbox row + pg_notify;
//                   recordCompletion tx: completions_count + 1;
//                   recordSubmission: the token's transaction.
// Only one statement is added: picking this client's link (the service knows it from the URL).
//
// The apps keep running (idle): the outbox rows pgbench writes are inserted already marked
// published (one column more than the service writes), so the relay never sends them.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuTimes, machineLoad } from './lib/machine.mjs';
import { parseSummary, pgbenchBinary, spawnPgbench } from './lib/pgbench.mjs';
import { resultsFile, toStderr, writeReport } from './lib/report.mjs';
import { round } from './lib/stats.mjs';
import { sharedTarget, targetAvailability } from './lib/platform-target.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

/** A payload of the size of a payment.succeeded envelope (~1.3 KiB). */
const PAYLOAD = JSON.stringify({
  id: 'evt_pgbench',
  object: 'event',
  type: 'payment.succeeded',
  account: 'acct',
  livemode: false,
  created_at: '2026-01-01T00:00:00.000Z',
  data: {
    object: {
      id: 'txn_pgbench',
      object: 'transaction',
      livemode: false,
      type: 'payment',
      status: 'succeeded',
      amount: 2500,
      currency: 'EUR',
      amount_refunded: 0,
      refundable_amount: 2500,
      refunded_transaction: null,
      merchant: null,
      payment_link: 'plink_pgbench',
      mandate: null,
      invoice: null,
      customer: null,
      client_reference_id: null,
      payment_method: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099 },
      failure_code: null,
      failure_message: null,
      metadata: {},
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    },
  },
})
  .replace(/'/g, "''")
  // pgbench reads ':name' as a variable anywhere in a command: no colon may touch a word.
  .replace(/:(?=\S)/g, ': ');

export function checkoutScript(links) {
  return `-- One hosted checkout payment (GET the form, POST the card), as the payments service runs it.
\\set n :client_id % ${links}
select id as link from payments.payment_links where account_id = :account and livemode = false and max_completions = 1000000 order by id offset :n limit 1 \\gset
-- GET /pay/:id
select l.*, m.business_name from payments.payment_links l left join payments.merchants m on m.id = l.merchant_id where l.id = :link;
-- POST /pay/:id
select l.*, m.business_name from payments.payment_links l left join payments.merchants m on m.id = l.merchant_id where l.id = :link;
select encode(sha256((random()::text || clock_timestamp()::text)::bytea), 'hex') as tok, 'txn_pgb' || replace(gen_random_uuid()::text, '-', '') as txn \\gset
select transaction_id from payments.checkout_submissions where token_hash = :tok;
begin;
select * from payments.payment_links where id = :link for update;
select 1 from payments.checkout_submissions where token_hash = :tok;
select count(*)::int as in_flight from payments.checkout_submissions where payment_link_id = :link and transaction_id is null and created_at > now() - interval '2 minutes';
insert into payments.checkout_submissions (token_hash, payment_link_id, created_at) values (:tok, :link, now()) on conflict (token_hash) do nothing returning token_hash;
commit;
begin;
select id, onboarding_status from payments.merchants where account_id = :account and livemode = false and is_default;
insert into payments.transactions (id, account_id, livemode, merchant_id, type, status, amount, currency, payment_link, mandate, invoice, customer, client_reference_id, payment_method, metadata, created_at, updated_at) values (:txn, :account, false, nullif(:merchant, 'none'), 'payment', 'pending', 2500, 'EUR', :link, null, null, null, null, '{"brand":"visa","last4":"4242","exp_month":12,"exp_year":2099}'::jsonb, '{}'::jsonb, now(), now()) returning *;
commit;
begin;
update payments.transactions set status = 'succeeded', processor_reference = 'sandbox_' || :txn::text, updated_at = now() where id = :txn and status = 'pending' returning *;
insert into payments.ledger_entries (account_id, livemode, transaction_id, ledger_account, direction, amount, currency, created_at) values (:account, false, :txn, 'processor_clearing', 'debit', 2500, 'EUR', now()), (:account, false, :txn, 'merchant_balance:' || coalesce(nullif(:merchant, 'none'), :account), 'credit', 2500, 'EUR', now());
with written as (insert into payments.outbox (topic, key, message_id, payload, published_at) values ('payments.events.v1', :account, 'evt_' || :txn::text, '${PAYLOAD}'::jsonb, now()) returning 1) select pg_notify('paygrid_pgbench', '') from written limit 1;
commit;
begin;
update payments.payment_links set completions_count = completions_count + 1, updated_at = now() where id = :link returning *;
commit;
update payments.checkout_submissions set transaction_id = :txn where token_hash = :tok;
`;
}

export const pgbenchBaseline = {
  name: 'pgbench-baseline',
  description:
    "pgbench running a checkout payment's SQL as it was at issue 8 on the same PostgreSQL; ratio of the service's checkout rate to it",
  async run({ quick = false, say = toStderr, out = resultsFile('pgbench-baseline'), ...opts } = {}) {
    const skipped = [];
    const results = [];
    const wanted = (opts.transports ?? ['kafka']).includes('kafka');
    const binary = pgbenchBinary();
    if (!wanted || !targetAvailability().distributed.ok) {
      skipped.push({ transport: 'distributed', reason: 'needs the distributed infrastructure (PostgreSQL)' });
    } else if (!binary) {
      skipped.push({ transport: 'distributed', reason: 'pgbench not found (postgresql-contrib / PGBENCH=)' });
    } else {
      const target = await sharedTarget('distributed', say);
      const accountId = target.state.api?.accountId;
      const links = target.state.checkoutLinks?.length;
      if (!accountId || !links)
        throw new Error('pgbench-baseline runs after the api benchmark (it reuses its account and links)');
      const [merchant] = await target.sql(
        'select id from payments.merchants where account_id = $1 and livemode = false and is_default',
        [accountId],
      );
      const dir = join(HERE, 'results');
      mkdirSync(dir, { recursive: true });
      const script = join(dir, 'pgbench-checkout.sql');
      writeFileSync(script, checkoutScript(links));
      const seconds = opts.seconds ?? (quick ? 3 : 10);
      const clients = opts.connections ?? 16;
      const args = [
        '-n',
        '-M',
        'extended',
        '-f',
        script,
        '-c',
        String(clients),
        '-j',
        '2',
        '-T',
        String(seconds),
        '-D',
        `account=${accountId}`,
        '-D',
        `merchant=${merchant?.id ?? 'none'}`,
        target.databaseUrl,
      ];
      say(`[pgbench-baseline] ${binary} -c ${clients} -j 2 -T ${seconds} (checkout SQL, ${links} links)`);
      const before = cpuTimes();
      const output = await spawnPgbench(binary, args);
      const parsed = parseSummary(output);
      const serviceRate = target.state.checkoutRate;
      results.push({
        mode: 'distributed',
        name: 'pgbench-checkout',
        params: { clients, threads: 2, seconds, script: 'bench/results/pgbench-checkout.sql' },
        ...parsed,
        service_checkouts_per_s: serviceRate,
        ratio: serviceRate && parsed.tps ? round(serviceRate / parsed.tps, 3) : undefined,
        machine_load: machineLoad(before, cpuTimes()),
        pgbench_output_tail: output.split('\n').slice(-14).join('\n'),
      });
    }
    return writeReport(out, { benchmark: 'pgbench-baseline', quick, skipped, results });
  },
};
