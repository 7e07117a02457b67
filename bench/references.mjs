// The references of issue 15's table, run in the same run as the service on the same
// machine, each reported with its ratio to the service's figure of this run (lib/figures.mjs):
//
//   checkout       pgbench, minimal two-commit checkout SQL (reference/scripts.mjs), one link
//                  per client                                              target >= 0.2
//   refund         pgbench, minimal refund SQL (guarded update, refund row, legs, outbox)  >= 0.3
//   invoice        pgbench, minimal create-finalize-send SQL (counter, invoice + lines,
//                  3 events, mail row)                                     target >= 0.2
//   renewal        pgbench, minimal SQL of one renewal, one client (one engine) >= 0.3
//   list tx / inv  pgbench running the service's SELECT of the page at the same concurrency,
//                  p99 from pgbench's per-transaction log                  service p99 <= 3 x
//   read           a bare Fastify + pg server (reference/read-server.mjs) doing the key lookup
//                  and query of GET /v1/merchants, same load generator     target >= 0.5
//   deliveries     a bare undici loop posting the same signed payloads to the same receiver:
//                  measured by webhooks.mjs next to the service (it owns the receiver)
//
// Distributed mode only (pgbench needs PostgreSQL): on the shared platform's database, after
// the service benchmarks, so the tables hold what the service's rows ran against (1,000,000
// transactions and invoices in a full run). Run alone (`--only references`) it seeds what it
// needs itself (the --rows of the run) and reports the references without ratios.
//
// Each reference row carries the CPU split of its measurement; run.mjs adds the speed check.

import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure, figureLoad } from './lib/figures.mjs';
import { verdict } from './lib/held-by.mjs';
import { closedLoop, httpClient } from './lib/load.mjs';
import { cpuTimes, machineLoad } from './lib/machine.mjs';
import { pgbenchBinary, runPgbench } from './lib/pgbench.mjs';
import { provisionAccount, sharedTarget, targetAvailability } from './lib/platform-target.mjs';
import { resultsFile, toStderr, writeReport } from './lib/report.mjs';
import { round } from './lib/stats.mjs';
import { invoicingSetup, paymentsSetup, startReadServer } from './lib/reference-setup.mjs';
import {
  checkoutScript,
  invoiceScript,
  listInvoicesScript,
  listTransactionsScript,
  refundScript,
  renewalScript,
} from './reference/scripts.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Which references exist, their service figure (lib/figures.mjs) and their target. */
export const REFERENCES = {
  checkout: {
    figure: 'checkout_per_s',
    higher: true,
    target: 0.2,
    label: 'checkout payment (GET page + POST card)',
    profile: 'findings 28, 52, 59',
  },
  read: {
    figure: 'read_per_s',
    higher: true,
    target: 0.5,
    label: 'authenticated read (GET /v1/merchants)',
    profile: 'findings 10, 19, 52',
  },
  refund: { figure: 'refund_per_s', higher: true, target: 0.3, label: 'refund', profile: 'findings 46, 52' },
  invoice: {
    figure: 'invoice_per_s',
    higher: true,
    target: 0.2,
    label: 'invoice create-finalize-send',
    profile: 'findings 21, 32',
  },
  'list-transactions': {
    figure: 'list_transactions_p99_ms',
    higher: false,
    target: 3,
    label: 'list transactions, page of 100, 3 filters, p99',
    profile: 'findings 48, 59',
  },
  'list-invoices': {
    figure: 'list_invoices_p99_ms',
    higher: false,
    target: 3,
    label: 'list invoices, page of 100, 3 filters, p99',
    profile: 'findings 39, 59, 60',
  },
  renewal: {
    figure: 'billing_per_s',
    higher: true,
    target: 0.3,
    label: 'billing engine, one instance',
    profile: 'findings 41, 43',
  },
};

/** The ratio as issue 15 states it: service ÷ reference for rates, service p99 ÷ reference p99 for lists. */
export function ratioOf(name, service, reference) {
  if (!service || !reference) return undefined;
  return round(service / reference, 3);
}

export function meets(name, ratio) {
  if (ratio === undefined) return undefined;
  const ref = REFERENCES[name];
  return ref.higher ? ratio >= ref.target : ratio <= ref.target;
}

async function measured(fn) {
  const before = cpuTimes();
  const result = await fn();
  return { ...result, machine_load: machineLoad(before, cpuTimes()) };
}

export const references = {
  name: 'references',
  description:
    'the physical references of issue 15 (pgbench minimal SQL, bare read server) in the same run, with the ratio of each service figure to its reference',
  async run({ quick = false, say = toStderr, out = resultsFile('references'), parts, ...opts } = {}) {
    const skipped = [];
    const results = [];
    const binary = pgbenchBinary();
    const wanted = (opts.transports ?? ['kafka']).includes('kafka');
    // `--only references.read,references.refund` runs those references only (run.mjs: parts).
    const pick = (name) => !parts || parts.includes(name);
    if (!wanted || !targetAvailability().distributed.ok) {
      skipped.push({ transport: 'distributed', reason: 'needs the distributed infrastructure (PostgreSQL)' });
      return writeReport(out, { benchmark: 'references', quick, skipped, results });
    }
    if (!binary) {
      skipped.push({
        transport: 'distributed',
        reason: 'pgbench not found (postgresql-contrib, or PGBENCH=)',
      });
      return writeReport(out, { benchmark: 'references', quick, skipped, results });
    }
    const target = await sharedTarget('distributed', say);
    const seconds = opts.seconds ?? (quick ? 2 : 10);
    const clients = opts.connections ?? 16;
    const rows = opts.rows ?? (quick ? 20_000 : 1_000_000);
    const tag = randomBytes(3).toString('hex');
    const dir = join(HERE, 'results', 'pgbench');
    mkdirSync(dir, { recursive: true });
    const script = (name, text) => {
      const file = join(dir, `${name}.sql`);
      writeFileSync(file, text);
      return file;
    };
    const service = (name) => figure('distributed', REFERENCES[name].figure);
    const push = (name, reference, value, extra) => {
      const serviceValue = service(name);
      const ratio = ratioOf(name, serviceValue, value);
      results.push({
        mode: 'distributed',
        name,
        label: REFERENCES[name].label,
        reference,
        reference_value: value,
        service_value: serviceValue,
        // The machine while the service's figure was measured: what held it (lib/held-by.mjs).
        service_load: figureLoad('distributed', REFERENCES[name].figure),
        ratio,
        target: REFERENCES[name].target,
        meets_target: meets(name, ratio),
        ...extra,
      });
    };
    const bench = async (name, text, vars, c = clients) =>
      measured(() =>
        runPgbench({
          binary,
          script: script(name, text),
          url: target.databaseUrl,
          clients: c,
          seconds,
          vars,
        }),
      );

    // Enough refundable payments and due subscriptions that a run never runs out (~5,000/s).
    const pool = Math.max(2_000, seconds * 5_000);
    if (['checkout', 'refund', 'list-transactions'].some(pick)) {
      const pay = await paymentsSetup(target, { clients, rows, refunds: pool, tag, say });
      // The list's SELECT first, on the rows the service's list saw: the refund reference
      // below adds its refund transactions at the top of the list's index (newer than every
      // payment, and not rows the page's filters keep), and the SELECT run after it read
      // past tens of thousands of them per page (bench/README.md, finding 47).
      if (pick('list-transactions')) {
        say(`[references] list transactions: pgbench, the page's SELECT, ${clients} clients, ${seconds} s`);
        const r = await bench('list-transactions', listTransactionsScript(), { account: pay.accountId });
        const [{ n }] = await target.sql(
          'select count(*)::int as n from payments.transactions where account_id = $1',
          [pay.accountId],
        );
        push('list-transactions', `pgbench: the page's SELECT, ${clients} clients, p99`, r.latency_ms.p99, {
          pgbench: r,
          unit: 'ms p99',
          table_rows: n,
        });
      }
      if (pick('checkout')) {
        say(`[references] checkout: pgbench, minimal two-commit SQL, ${clients} clients, ${seconds} s`);
        const r = await bench('checkout', checkoutScript(), { linkprefix: pay.linkPrefix });
        const [{ n }] = await target.sql(
          `select count(*)::int as n from payments.transactions where payment_link like $1 and status = 'succeeded'`,
          [`${pay.linkPrefix}%`],
        );
        // A checkout counts when commit 2 made it succeed (pgbench counts script runs).
        push('checkout', 'pgbench: minimal two-commit checkout SQL (3 round trips)', round(n / seconds, 1), {
          pgbench: r,
          unit: 'checkouts/s',
          succeeded: n,
        });
      }
      if (pick('refund')) {
        say(`[references] refund: pgbench, minimal refund SQL, ${clients} clients, ${seconds} s`);
        const r = await bench('refund', refundScript(), { payprefix: pay.payPrefix, clients, i: -1 });
        const [{ n }] = await target.sql(
          `select count(*)::int as n from payments.transactions where id like $1 and amount_refunded > 0`,
          [`${pay.payPrefix}%`],
        );
        push('refund', 'pgbench: minimal refund SQL (one commit)', round(n / seconds, 1), {
          pgbench: r,
          unit: 'refunds/s',
          refunded: n,
        });
      }
    }
    if (['invoice', 'renewal', 'list-invoices'].some(pick)) {
      const inv = await invoicingSetup(target, { rows, renewals: pool, tag, say });
      const customers = `{${inv.customers.join(',')}}`;
      // The list's SELECT first, as for the transactions: on the invoices the service's list
      // saw, before the invoice and renewal references add theirs.
      if (pick('list-invoices')) {
        say(`[references] list invoices: pgbench, the page's SELECT, ${clients} clients, ${seconds} s`);
        const since = new Date(Date.now() - 200 * 86_400_000).toISOString();
        const r = await bench('list-invoices', listInvoicesScript(), {
          account: inv.accountId,
          customers,
          since,
        });
        push('list-invoices', `pgbench: the page's SELECT, ${clients} clients, p99`, r.latency_ms.p99, {
          pgbench: r,
          unit: 'ms p99',
        });
      }
      if (pick('invoice')) {
        say(
          `[references] invoice: pgbench, minimal create-finalize-send SQL, ${clients} clients, ${seconds} s`,
        );
        const r = await bench('invoice', invoiceScript(), {
          account: inv.accountId,
          model: inv.modelId,
          customers,
          numprefix: inv.numberPrefix,
        });
        const [{ n }] = await target.sql(
          `select count(*)::int as n from invoicing.invoices where account_id = $1 and id like 'inv_ref%' and status = 'open'`,
          [inv.accountId],
        );
        push('invoice', 'pgbench: minimal create-finalize-send SQL (one commit)', round(n / seconds, 1), {
          pgbench: r,
          unit: 'invoices/s',
          created: n,
        });
      }
      if (pick('renewal')) {
        say(`[references] renewal: pgbench, minimal SQL of one renewal, 1 client (one engine), ${seconds} s`);
        const r = await bench(
          'renewal',
          renewalScript(),
          { clock: inv.clock, model: inv.modelId, numprefix: inv.numberPrefix },
          1,
        );
        const [{ n }] = await target.sql(
          'select count(*)::int as n from invoicing.subscription_periods where test_clock = $1',
          [inv.clock],
        );
        push('renewal', 'pgbench: minimal SQL of one renewal (one commit), 1 client', round(n / seconds, 1), {
          pgbench: r,
          unit: 'renewals/s',
          billed: n,
        });
      }
    }
    if (pick('read')) {
      const key =
        target.state.api?.key ?? (await provisionAccount(target, { name: 'Bench references read' })).key;
      const server = await startReadServer(target.databaseUrl);
      const client = httpClient(server.url, clients);
      try {
        say(`[references] read: bare Fastify + pg server, ${clients} connections, ${seconds} s`);
        const r = await measured(() =>
          closedLoop({
            connections: clients,
            seconds,
            warmup: quick ? 1 : 2,
            op: async () => {
              const res = await client.request('GET', '/v1/merchants?limit=10', {
                headers: { authorization: `Bearer ${key}` },
              });
              return { status: res.status, ok: res.status === 200 };
            },
          }),
        );
        push('read', 'bare Fastify + pg server: the key lookup and the query', r.ops_per_s, {
          closed_loop: r,
          unit: 'req/s',
        });
      } finally {
        await client.close();
        await server.stop();
      }
    }
    return writeReport(out, { benchmark: 'references', quick, skipped, results });
  },
  rows: (x) => [
    {
      benchmark: 'references',
      // For the report's table of issue 15's targets (run.mjs).
      target: targetRow(x),
      mode: x.mode,
      transport: `${x.label}: ${x.reference}`,
      load: `${x.pgbench?.params?.clients ?? x.closed_loop?.connections} ${x.pgbench ? 'clients' : 'connections'}, ${x.pgbench?.params?.seconds ?? x.closed_loop?.seconds} s`,
      throughput:
        x.unit === 'ms p99' ? `${Math.round(x.pgbench.tps)} queries/s` : `${x.reference_value} ${x.unit}`,
      count: x.pgbench?.latency_ms?.count ?? x.closed_loop?.latency_ms?.count,
      p50: (x.pgbench ?? x.closed_loop).latency_ms.p50,
      p90: (x.pgbench ?? x.closed_loop).latency_ms.p90,
      p99: (x.pgbench ?? x.closed_loop).latency_ms.p99,
      max: (x.pgbench ?? x.closed_loop).latency_ms.max,
      unit: x.pgbench ? 'ms per script run (pgbench log)' : 'ms per request (closed model)',
      notes:
        (x.ratio === undefined
          ? 'service figure not measured in this run (no ratio)'
          : `**ratio ${x.ratio}** (service ${x.service_value} ${x.unit} ÷ reference ${x.reference_value}; target ${REFERENCES[x.name].higher ? '≥' : '≤'} ${x.target}: ${x.meets_target ? 'met' : 'not met'})`) +
        (x.pgbench?.failed ? `; pgbench failed ${x.pgbench.failed}` : '') +
        `; CPU of both cores: ${cpuNote(x.machine_load ?? (x.pgbench ?? x.closed_loop)?.machine_load)}`,
    },
  ],
};

/** One line of the report's targets table: the figure, both absolute values, the ratio, the target. */
export function targetRow(x) {
  const higher = REFERENCES[x.name]?.higher ?? true;
  return {
    figure: x.label,
    service: x.service_value === undefined ? 'not measured' : `${x.service_value} ${x.unit}`,
    reference: `${x.reference_value} ${x.unit} (${x.reference})`,
    ratio: x.ratio,
    target: `${higher ? '≥' : '≤'} ${x.target}`,
    ...verdict(x.meets_target, {
      load: x.service_load?.machine_load,
      ops: x.service_load?.ops,
      profile: REFERENCES[x.name]?.profile,
    }),
  };
}

const pct = (f) => (f === undefined ? '?' : `${Math.round(f * 100)}%`);
function cpuNote(load) {
  const g = load?.cpu_by_group ?? {};
  return `${pct(load?.cpu_busy)} busy (bench process ${pct(g.this_process)}, platform apps ${pct(g.platform)}, postgres ${pct(g.postgres)}, kafka ${pct(g.kafka)}, other processes ${pct(g.others)})`;
}
