// How cost grows (issue 15 item 3): `npm run bench -- --curves`, a longer mode of its own.
// Distributed mode, on the shared platform (lib/platform-target.mjs), each curve a table in
// report-curves.md and an SVG plot in bench/curves/ (lib/svg.mjs):
//
//   checkout    checkout payments/s and p99 at 1 / 4 / 16 / 64 connections (one link each)
//   list        GET /v1/transactions page of 100, 3 filters, 16 connections: p99 at 10 k /
//               100 k / 1 M rows of the account (10 M with --curves-10m), next to pgbench
//               running the page's SELECT at the same concurrency on the same table (p99)
//   billing     one billing engine at 10 k / 100 k due subscriptions (1 M with --curves-1m):
//               subscriptions/s (billing-engine.mjs, a fresh database per point)
//   deliveries  max deliveries/s of one webhooks instance with the backlog spread over
//               1 / 10 / 100 / 1,000 endpoints of the local receiver
//
// `--quick` shrinks every axis (for checking the tooling, not for figures) and writes
// report-curves-quick.* and its plots under results/ (gitignored). `--only curves.list` (or
// checkout, billing, deliveries) runs one curve.
//
// Embedded mode has no curves here: it is one process on one PGlite session, sized for
// development; its scaling is the distributed figures' business (docs/scaling.md).

import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkoutOnce, seedTransactions } from './api.mjs';
import { billingEngine } from './billing-engine.mjs';
import { closedLoop, httpClient } from './lib/load.mjs';
import { cpuTimes, machineLoad } from './lib/machine.mjs';
import { pgbenchBinary, runPgbench } from './lib/pgbench.mjs';
import { apiCall, provisionAccount, sharedTarget, targetAvailability } from './lib/platform-target.mjs';
import { resultsFile, toStderr, writeReport } from './lib/report.mjs';
import { markdownTable, round } from './lib/stats.mjs';
import { lineChart } from './lib/svg.mjs';
import { listTransactionsScript } from './reference/scripts.mjs';
import { maxDeliveries, startReceiver } from './webhooks.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The points of each curve (full run; --quick shrinks them, the flags add the largest). */
export function axes({ quick = false, tenMillion = false, oneMillion = false } = {}) {
  return quick
    ? { connections: [1, 4, 16], rows: [2_000, 20_000], subscriptions: [200, 1_000], endpoints: [1, 10, 100] }
    : {
        connections: [1, 4, 16, 64],
        rows: [10_000, 100_000, 1_000_000, ...(tenMillion ? [10_000_000] : [])],
        subscriptions: [10_000, 100_000, ...(oneMillion ? [1_000_000] : [])],
        endpoints: [1, 10, 100, 1_000],
      };
}

async function measured(fn) {
  const before = cpuTimes();
  const result = await fn();
  return { ...result, machine_load: machineLoad(before, cpuTimes()) };
}

async function checkoutCurve(target, { connections, seconds, warmup }, say) {
  const { key } = await provisionAccount(target, { name: 'Bench curves checkout' });
  const links = [];
  for (let i = 0; i < Math.max(...connections); i++) {
    const link = await apiCall(target, key, 'POST', '/v1/payment-links', {
      amount: 2500,
      currency: 'EUR',
      description: `Curve checkout ${i}`,
      max_completions: 1_000_000,
    });
    links.push(link.id);
  }
  const points = [];
  for (const c of connections) {
    say(`[curves] checkout at ${c} connection(s), ${seconds} s`);
    const client = httpClient(target.gateway, c);
    try {
      const r = await measured(() =>
        closedLoop({ connections: c, seconds, warmup, op: (worker) => checkoutOnce(client, links[worker]) }),
      );
      points.push({
        x: c,
        ops_per_s: r.ops_per_s,
        latency_ms: r.latency_ms,
        statuses: r.statuses,
        machine_load: r.machine_load,
      });
    } finally {
      await client.close();
    }
  }
  return { curve: 'checkout', x_label: 'connections', points };
}

async function listCurve(target, { rows, seconds, warmup }, say) {
  const { account, key } = await provisionAccount(target, { name: 'Bench curves list' });
  const client = httpClient(target.gateway, 16);
  const binary = pgbenchBinary();
  const script = join(HERE, 'results', 'pgbench', 'curve-list-transactions.sql');
  mkdirSync(dirname(script), { recursive: true });
  writeFileSync(script, listTransactionsScript());
  const path = '/v1/transactions?limit=100&status=succeeded&currency=EUR&type=payment';
  const points = [];
  let seeded = 0;
  try {
    for (const size of rows) {
      say(`[curves] list: seeding up to ${size.toLocaleString('en')} transactions`);
      const seedSeconds = await seedTransactions(target, account.id, size - seeded);
      seeded = size;
      say(`[curves] list at ${size.toLocaleString('en')} rows, 16 connections, ${seconds} s`);
      const r = await measured(() =>
        closedLoop({
          connections: 16,
          seconds,
          warmup,
          op: async () => {
            const res = await client.request('GET', path, { headers: { authorization: `Bearer ${key}` } });
            return { status: res.status, ok: res.status === 200 && res.text.includes('"has_more":true') };
          },
        }),
      );
      const reference = binary
        ? await runPgbench({
            binary,
            script,
            url: target.databaseUrl,
            clients: 16,
            seconds,
            vars: { account: account.id },
          })
        : undefined;
      points.push({
        x: size,
        ops_per_s: r.ops_per_s,
        latency_ms: r.latency_ms,
        statuses: r.statuses,
        reference_p99_ms: reference?.latency_ms.p99,
        ratio_p99: reference ? round(r.latency_ms.p99 / reference.latency_ms.p99, 2) : undefined,
        seed_seconds: seedSeconds,
        machine_load: r.machine_load,
      });
    }
  } finally {
    await client.close();
  }
  return { curve: 'list', x_label: 'rows of the account', points };
}

async function billingCurve({ subscriptions }, say) {
  const points = [];
  for (const n of subscriptions) {
    say(`[curves] billing engine at ${n.toLocaleString('en')} due subscriptions`);
    const report = await billingEngine.run({
      targets: ['postgres'],
      subscriptions: n,
      say,
      out: resultsFile(`curve-billing-${n}`),
    });
    const [r] = report.results;
    points.push({
      x: n,
      subscriptions_per_s: r.subscriptions_per_second,
      seconds: r.seconds,
      machine_load: r.machine_load,
    });
  }
  return { curve: 'billing', x_label: 'due subscriptions', points };
}

async function deliveriesCurve(target, { endpoints, backlog }, say) {
  const { account, key } = await provisionAccount(target, { name: 'Bench curves deliveries' });
  const handlers = {};
  const receiver = await startReceiver((p, body, at, id) => handlers.max?.(at, id));
  const points = [];
  try {
    // One endpoint through the API (its secret sealed as the service does), the others copies
    // of its row with their own id and path (1,000 API calls would only measure the API).
    const model = await apiCall(target, key, 'POST', '/v1/webhooks', {
      url: `${receiver.url}/max/0`,
      enabled_events: ['payment_link.completed'],
    });
    const tag = randomBytes(3).toString('hex');
    const most = Math.max(...endpoints);
    await target.sql(
      `insert into webhooks.endpoints
       select (jsonb_populate_record(null::webhooks.endpoints, to_jsonb(m) ||
               jsonb_build_object('id', 'we_curve' || $2 || '_' || g, 'url', $3 || '/max/' || g))).*
         from webhooks.endpoints m cross join generate_series(1, $4::int - 1) g where m.id = $1`,
      [model.id, tag, receiver.url, most],
    );
    const ids = [model.id, ...Array.from({ length: most - 1 }, (_, i) => `we_curve${tag}_${i + 1}`)];
    for (const n of endpoints) {
      const r = await maxDeliveries(
        target,
        account.id,
        receiver,
        handlers,
        ids.slice(0, n),
        { backlog, instances: 1 },
        say,
      );
      points.push({
        x: n,
        deliveries_per_s: r.deliveries_per_s,
        delivered: r.delivered,
        undelivered: r.undelivered_at_timeout,
        machine_load: r.machine_load,
      });
    }
  } finally {
    await receiver.close();
  }
  return { curve: 'deliveries', x_label: 'endpoints', points };
}

export const curves = {
  name: 'curves',
  description:
    'how cost grows: checkout by connections, list p99 by rows, billing by due subscriptions, deliveries by endpoints',
  async run({ quick = false, say = toStderr, out, parts, seconds, ...opts } = {}) {
    const skipped = [];
    const results = [];
    if (!targetAvailability().distributed.ok) {
      skipped.push({ transport: 'distributed', reason: targetAvailability().distributed.reason });
      return writeReport(out ?? resultsFile('curves'), { benchmark: 'curves', quick, skipped, results });
    }
    const pick = (name) => !parts || parts.includes(name);
    const a = axes({ quick, tenMillion: Boolean(opts.curves10m), oneMillion: Boolean(opts.curves1m) });
    const timing = { seconds: seconds ?? (quick ? 2 : 10), warmup: quick ? 1 : 2 };
    if (pick('checkout') || pick('list') || pick('deliveries')) {
      const target = await sharedTarget('distributed', say);
      if (pick('checkout'))
        results.push(await checkoutCurve(target, { connections: a.connections, ...timing }, say));
      if (pick('list')) results.push(await listCurve(target, { rows: a.rows, ...timing }, say));
      if (pick('deliveries'))
        results.push(
          await deliveriesCurve(
            target,
            { endpoints: a.endpoints, backlog: opts.backlog ?? (quick ? 300 : 4000) },
            say,
          ),
        );
    }
    if (pick('billing')) results.push(await billingCurve({ subscriptions: a.subscriptions }, say));
    return writeReport(out ?? resultsFile('curves'), {
      benchmark: 'curves',
      quick,
      axes: a,
      skipped,
      results,
    });
  },
};

const pct = (f) => (f === undefined ? '?' : `${Math.round(f * 100)}%`);
const cpu = (l) => {
  const g = l?.cpu_by_group ?? {};
  return `${pct(l?.cpu_busy)} (bench ${pct(g.this_process)}, apps ${pct(g.platform)}, postgres ${pct(g.postgres)}, kafka ${pct(g.kafka)}, other ${pct(g.others)})`;
};

/** Each curve as a markdown table and an SVG chart: { markdown, charts: { file: svg } }. */
export function renderCurves(report, { note, chartDir = 'curves' }) {
  const sections = [];
  const charts = {};
  for (const c of report.results) {
    const x = c.points.map((p) => p.x);
    if (c.curve === 'checkout') {
      sections.push(
        '## Checkout payments by connections',
        '',
        markdownTable(
          ['connections', 'payments/s', 'p50 ms', 'p99 ms', 'ok / statuses', 'CPU of both cores'],
          c.points.map((p) => [
            p.x,
            p.ops_per_s,
            p.latency_ms.p50,
            p.latency_ms.p99,
            JSON.stringify(p.statuses),
            cpu(p.machine_load),
          ]),
        ),
        '',
        `![checkout](${chartDir}/checkout.svg)`,
        '',
      );
      charts['checkout.svg'] = lineChart({
        title: 'Checkout payment (GET page + POST card) by connections',
        xLabel: 'connections',
        yLabel: 'payments/s',
        yRightLabel: 'p99 ms',
        x,
        series: [
          { name: 'payments/s', values: c.points.map((p) => p.ops_per_s) },
          { name: 'p99 ms', values: c.points.map((p) => p.latency_ms.p99), axis: 'right', dashed: true },
        ],
        note,
      });
    } else if (c.curve === 'list') {
      sections.push(
        '## List transactions (page of 100, 3 filters, 16 connections) by rows',
        '',
        markdownTable(
          [
            'rows',
            'req/s',
            'p50 ms',
            'p99 ms',
            'pgbench SELECT p99 ms',
            'p99 ratio',
            'seeded in s',
            'CPU of both cores',
          ],
          c.points.map((p) => [
            p.x.toLocaleString('en'),
            p.ops_per_s,
            p.latency_ms.p50,
            p.latency_ms.p99,
            p.reference_p99_ms ?? '',
            p.ratio_p99 ?? '',
            p.seed_seconds,
            cpu(p.machine_load),
          ]),
        ),
        '',
        `![list](${chartDir}/list.svg)`,
        '',
      );
      charts['list.svg'] = lineChart({
        title: 'List transactions, page of 100, p99 by table size',
        xLabel: 'rows of the account',
        yLabel: 'p99 ms',
        x,
        series: [
          { name: 'service p99 ms', values: c.points.map((p) => p.latency_ms.p99) },
          { name: 'pgbench SELECT p99 ms', values: c.points.map((p) => p.reference_p99_ms), dashed: true },
        ],
        note,
      });
    } else if (c.curve === 'billing') {
      sections.push(
        '## Billing engine (one instance) by due subscriptions',
        '',
        markdownTable(
          ['due subscriptions', 'subscriptions/s', 'seconds', 'CPU of both cores'],
          c.points.map((p) => [
            p.x.toLocaleString('en'),
            p.subscriptions_per_s,
            p.seconds,
            cpu(p.machine_load),
          ]),
        ),
        '',
        `![billing](${chartDir}/billing.svg)`,
        '',
      );
      charts['billing.svg'] = lineChart({
        title: 'Billing engine, one instance, by due subscriptions',
        xLabel: 'due subscriptions',
        yLabel: 'subscriptions/s',
        x,
        series: [{ name: 'subscriptions/s', values: c.points.map((p) => p.subscriptions_per_s) }],
        note,
      });
    } else if (c.curve === 'deliveries') {
      sections.push(
        '## Webhook deliveries (one instance) by endpoints',
        '',
        markdownTable(
          ['endpoints', 'deliveries/s', 'delivered', 'still queued', 'CPU of both cores'],
          c.points.map((p) => [
            p.x.toLocaleString('en'),
            p.deliveries_per_s,
            p.delivered,
            p.undelivered,
            cpu(p.machine_load),
          ]),
        ),
        '',
        `![deliveries](${chartDir}/deliveries.svg)`,
        '',
      );
      charts['deliveries.svg'] = lineChart({
        title: 'Webhook deliveries/s, one instance, by endpoints',
        xLabel: 'endpoints (backlog spread over them)',
        yLabel: 'deliveries/s',
        x,
        series: [{ name: 'deliveries/s', values: c.points.map((p) => p.deliveries_per_s) }],
        note,
      });
    }
  }
  return { markdown: sections.join('\n'), charts };
}
