// The benchmarks `npm run bench` runs (bench/run.mjs), in order, each with the function that
// turns its result into rows of the report's summary table. Adding a benchmark: export
// { name, description, run(opts) } from a module, where run returns { results: [...],
// skipped: [...] } with one entry per figure (each saying its transport/mode), and add it
// here with a rows(result) function; a module that exports its own rows is added with one
// line (`myBench,`).

import { api } from './api.mjs';
import { billingEngine } from './billing-engine.mjs';
import { dbPort } from './db-port.mjs';
import { gatewayOverhead } from './gateway-overhead.mjs';
import { invoices } from './invoices.mjs';
import { outboxLatency } from './outbox-latency.mjs';
import { OPEN_CONNECTIONS, overload } from './overload.mjs';
import { pgbenchBaseline } from './pgbench-baseline.mjs';
import { references } from './references.mjs';
import { soak } from './soak.mjs';
import { E2E_TARGET_P99_MS, E2E_TARGET_RATE, webhooks } from './webhooks.mjs';
import { pct, verdict } from './lib/held-by.mjs';
import { cpuPerProcess } from './lib/machine.mjs';
import { modesFor, sharedTarget } from './lib/platform-target.mjs';

const statusNote = (statuses = {}, errors = {}) =>
  [
    ...Object.entries(statuses).map(([k, v]) => `${k}: ${v}`),
    ...Object.entries(errors).map(([k, v]) => `${k}: ${v}`),
  ].join(', ');
const lat = (l) => ({ count: l.count, p50: l.p50, p90: l.p90, p99: l.p99, max: l.max });

/**
 * Issue 15's end-to-end row: p99 at 200 events/s, an absolute target (no reference). Met only
 * if every API call was answered 200 and every event delivered: a p99 of the few that got
 * through would say nothing.
 */
function e2eTarget(mode, x) {
  const complete = x.api_ok === x.api_calls && x.lost === 0;
  return {
    figure: `webhook end to end at ${E2E_TARGET_RATE} events/s, p99 (${mode})`,
    service:
      `${x.latency_ms.p99} ms p99 (API calls: ${x.api_ok} of ${x.api_calls} answered 200, p50 ${x.api_latency_ms.p50} ms; ` +
      `${x.delivered} events delivered, ${x.lost} lost)`,
    reference: 'none: an absolute target',
    ratio: '',
    target: `≤ ${E2E_TARGET_P99_MS} ms, all delivered`,
    ...verdict(complete && x.latency_ms.p99 <= E2E_TARGET_P99_MS, {
      load: x.machine_load,
      ops: x.delivered,
      profile: 'findings 50–53, 60',
    }),
  };
}

const cpuNote = (load) => {
  const g = load.cpu_by_group ?? {};
  return `${pct(load.cpu_busy)} busy (bench process ${pct(g.this_process)}, platform apps ${pct(g.platform)}, postgres ${pct(g.postgres)}, kafka ${pct(g.kafka)}, other processes ${pct(g.others)})`;
};

/** CPU milliseconds per operation (a checkout: its two requests) of each platform process that did any work (machine.mjs). */
const cpuPerOpNote = (load, ops) => {
  const processes = cpuPerProcess(load, ops);
  if (!ops || processes.length === 0) return '';
  return `; CPU per operation: ${processes.map((p) => `${p.name} ${p.perOp.toFixed(2)} ms`).join(', ')}`;
};

/**
 * name, description, run(opts) -> { results, skipped }, rows(result) -> summary rows
 * ({ benchmark, transport, mode, load, count, p50, p90, p99, max, unit, lost?, notes }).
 */
export const BENCHMARKS = [
  {
    ...outboxLatency,
    run: (opts) => outboxLatency.run(opts),
    rows: (r) => [
      {
        benchmark: 'outbox-latency',
        mode: r.mode,
        transport: r.transport,
        load: `${r.params.rate_per_s}/s target, ${r.achieved_rate_per_s.committed}/s achieved, ${r.params.seconds} s`,
        throughput: `${r.achieved_rate_per_s.committed} events/s`,
        count: r.latency_ms.count,
        p50: r.latency_ms.p50,
        p90: r.latency_ms.p90,
        p99: r.latency_ms.p99,
        max: r.latency_ms.max,
        unit: 'ms commit→consumer handler',
        lost: r.events.lost,
        notes:
          `lost ${r.events.lost}, duplicates ${r.events.duplicates}, redeliveries ${r.events.redeliveries}; ` +
          `CPU of both cores: ${cpuNote(r.machine_load)}`,
      },
    ],
  },
  {
    ...gatewayOverhead,
    // The kafka transport stands for the distributed infrastructure (which also needs Redis),
    // on the platform shared with the service benchmarks: one start-up per mode.
    run: (opts) =>
      gatewayOverhead.run({ ...opts, modes: modesFor(opts).modes, targetFor: (mode) => sharedTarget(mode) }),
    rows: (r) =>
      ['gateway', 'direct'].map((path) => ({
        benchmark: 'gateway-overhead',
        mode: r.mode,
        transport: path === 'gateway' ? 'through the gateway' : 'straight to payments',
        load: `${r.params.path}, ${r.params.connections} connections, ${r.params.seconds} s, ${r[path].requests_per_s} req/s`,
        throughput: `${r[path].requests_per_s} req/s`,
        count: r[path].latency_ms.count,
        p50: r[path].latency_ms.p50,
        p90: r[path].latency_ms.p90,
        p99: r[path].latency_ms.p99,
        max: r[path].latency_ms.max,
        unit: 'ms per request (closed model)',
        target:
          path === 'gateway'
            ? {
                figure: `gateway added latency p50 / p99 (${r.mode}, ${r.params.connections} connections)`,
                service: `${r.gateway.latency_ms.p50} / ${r.gateway.latency_ms.p99} ms through the gateway`,
                reference: `${r.direct.latency_ms.p50} / ${r.direct.latency_ms.p99} ms straight to payments`,
                ratio: `+${r.added_ms.p50} / +${r.added_ms.p99} ms`,
                target: '≤ +1 / +3 ms',
                ...verdict(r.added_ms.p50 <= 1 && r.added_ms.p99 <= 3, {
                  load: r.gateway.machine_load,
                  ops: Math.round(r.gateway.requests_per_s * r.params.seconds),
                  profile: 'findings 10, 30, 52',
                }),
              }
            : undefined,
        notes:
          (path === 'gateway'
            ? `added p50 ${r.added_ms.p50} ms, p99 ${r.added_ms.p99} ms; throughput ratio ${r.throughput_ratio}; ` +
              (r.gateway.gateway_cpu_us_per_request !== undefined
                ? `gateway process ${r.gateway.gateway_cpu_us_per_request} µs CPU per request; `
                : '')
            : '') +
          `platform processes ${r[path].platform_cpu_cores} cores; CPU of both cores: ${cpuNote(r[path].machine_load)}`,
      })),
  },
  {
    ...api,
    rows: (r) =>
      r.results.map((x) => ({
        benchmark: 'api',
        mode: r.mode,
        transport: {
          read: 'GET /v1/merchants (authenticated read)',
          checkout: 'checkout payment (GET /pay/:link + POST card)',
          'checkout-stripe': 'live checkout payment through the Stripe connector (stripe-mock)',
          'list-transactions': `GET /v1/transactions page of 100, filtered, ${x.table_rows?.toLocaleString('en')} rows`,
          refund: 'POST /v1/refunds (full refund)',
        }[x.name],
        load: `${x.connections} connections, ${x.seconds} s`,
        throughput: `${x.ops_per_s} ${x.name.startsWith('checkout') ? 'payments' : x.name === 'refund' ? 'refunds' : 'req'}/s`,
        ...lat(x.latency_ms),
        unit: 'ms per operation (closed model)',
        notes:
          `${statusNote(x.statuses, x.errors)}` +
          (x.sandbox_checkouts_per_s
            ? `; **Stripe ÷ sandbox = ${Math.round((x.ops_per_s / x.sandbox_checkouts_per_s) * 100) / 100}** (sandbox ${x.sandbox_checkouts_per_s} payments/s, same run)`
            : '') +
          (x.seed_seconds !== undefined ? `; seeded in ${x.seed_seconds} s` : '') +
          (x.unbalanced_after !== undefined
            ? `; unbalanced ledger transactions after: ${x.unbalanced_after}`
            : '') +
          `; CPU of both cores: ${cpuNote(x.machine_load)}` +
          cpuPerOpNote(x.machine_load, x.ops_total),
      })),
  },
  {
    ...invoices,
    rows: (r) =>
      r.results.map((x) => ({
        benchmark: 'invoices',
        mode: r.mode,
        transport:
          x.name === 'create-and-send'
            ? 'POST /v1/invoices (create, finalize, mail queued)'
            : `GET /v1/invoices page of 100, status+customer+created, ${x.table_rows?.toLocaleString('en')} rows`,
        load: `${x.connections} connections, ${x.seconds} s`,
        throughput: `${x.ops_per_s} ${x.name === 'create-and-send' ? 'invoices' : 'req'}/s`,
        ...lat(x.latency_ms),
        unit: 'ms per request (closed model)',
        notes:
          `${statusNote(x.statuses, x.errors)}` +
          (x.seed_seconds !== undefined ? `; seeded in ${x.seed_seconds} s` : '') +
          (x.page_bytes ? `; a full page is ${(x.page_bytes / 1024).toFixed(1)} KiB` : '') +
          (x.mail_drain
            ? `; its e-mails all sent ${(x.mail_drain.waited_ms / 1000).toFixed(1)} s after the loop` +
              (x.mail_drain.left_due ? ` (${x.mail_drain.left_due} still due at 120 s)` : '') +
              `, ${x.sent_per_s} invoices/s created and mailed, warm-up included`
            : '') +
          (x.numbering
            ? `; numbers ${x.numbering.numbered}, distinct ${x.numbering.distinct_numbers}, counter ${x.numbering.counter}`
            : '') +
          `; CPU of both cores: ${cpuNote(x.machine_load)}` +
          cpuPerOpNote(x.machine_load, x.ops_total),
      })),
  },
  {
    ...billingEngine,
    // Its own targets (postgres: a fresh database on DATABASE_URL; embedded: PGlite in the
    // bench process), not the shared platform: it drives BillingEngine.runDue directly.
    run: (o) =>
      billingEngine.run({
        // Distributed: one engine on PostgreSQL, then two engine processes against one.
        targets: o.transports.flatMap((t) => (t === 'kafka' ? ['postgres', 'scaling'] : [t])),
        quick: o.quick,
        subscriptions: o.subscriptions,
      }),
    // One result per target.
    rows: (x) => [
      x.target === 'scaling'
        ? {
            benchmark: 'billing-engine',
            mode: 'distributed',
            transport: `two engine processes against one, ${x.subscriptions.toLocaleString('en')} due subscriptions of ${x.accounts.toLocaleString('en')} accounts (postgres)`,
            load: `batch ${x.batch}, each run on a fresh copy; one engine ${x.one.seconds} s, two ${x.two.seconds} s`,
            throughput: `${x.two.subscriptions_per_second} subscriptions/s (one: ${x.one.subscriptions_per_second})`,
            count: x.subscriptions,
            unit: 'subscriptions billed per second, two engines',
            notes:
              `two engines billed ${x.two.handled_per_engine.join(' + ')} (engine CPU s ${x.two.engine_cpu_seconds.join(' + ')}, one engine alone ${x.one.engine_cpu_seconds[0]}); deadlocks ${x.two.deadlocks}; accounts with a numbering gap ${x.two.accounts_with_gaps}` +
              `; CPU of both cores, one engine: ${cpuNote(x.one.machine_load)}; two engines: ${cpuNote(x.two.machine_load)}`,
            target: {
              figure: 'billing engine, two instances ÷ one',
              service: `${x.two.subscriptions_per_second} subscriptions/s (two engine processes)`,
              reference: `${x.one.subscriptions_per_second} subscriptions/s (one engine process, same load)`,
              ratio: x.ratio,
              target: '≥ 1.6',
              ...verdict(x.ratio >= 1.6, {
                load: x.two.machine_load,
                ops: x.subscriptions,
                profile: 'finding 44',
              }),
            },
          }
        : {
            benchmark: 'billing-engine',
            mode: x.target === 'postgres' ? 'distributed' : 'embedded',
            transport: `one engine billing ${x.subscriptions.toLocaleString('en')} due subscriptions (${x.target})`,
            load: `batch ${x.batch}, ${x.subscriptions.toLocaleString('en')} subscriptions due at once`,
            throughput: `${x.subscriptions_per_second} subscriptions/s`,
            count: x.subscriptions,
            unit: 'subscriptions billed per second (invoice created, finalized, charge command)',
            notes:
              `${x.seconds} s; invoices finalized ${x.invoices_finalized}, charge commands ${x.charge_commands}, not billed ${x.not_billed}; bench process ${x.bench_process_cpu_seconds} CPU s` +
              (x.machine_load ? `; CPU of both cores: ${cpuNote(x.machine_load)}` : ''),
          },
    ],
  },
  {
    ...webhooks,
    rows: (r) =>
      r.results.map((x) =>
        x.name === 'bare-delivery-loop'
          ? {
              benchmark: 'webhooks',
              mode: r.mode,
              transport: 'reference: bare undici loop posting the same signed payloads to the same receiver',
              load: `${x.params.backlog} deliveries over ${x.params.endpoints} endpoints, ${x.params.in_flight} in flight (10 per endpoint), keep-alive`,
              throughput: `${x.deliveries_per_s} deliveries/s`,
              count: x.delivered,
              unit: 'deliveries/s (10th–90th percentile of arrivals)',
              target: {
                figure: `webhook deliveries, one instance (${r.mode})`,
                service: `${x.service_deliveries_per_s} deliveries/s`,
                reference: `${x.deliveries_per_s} deliveries/s (bare undici loop, same receiver)`,
                ratio: x.ratio,
                target: '≥ 0.5',
                ...verdict(x.ratio === undefined ? undefined : x.ratio >= 0.5, {
                  load: x.service_load?.machine_load,
                  ops: x.service_load?.ops,
                  profile: 'findings 20, 33, 36',
                }),
              },
              notes:
                `${x.ratio === undefined ? '' : `**ratio ${x.ratio}** (service ${x.service_deliveries_per_s} ÷ reference ${x.deliveries_per_s}; target ≥ 0.5); `}` +
                `sent ${x.sent}, failed ${x.failed}, whole drain ${x.deliveries_per_s_whole_run}/s; CPU of both cores: ${cpuNote(x.machine_load)}`,
            }
          : x.name === 'e2e-latency'
            ? {
                benchmark: 'webhooks',
                mode: r.mode,
                transport: 'end to end: API call → receiver handler',
                load: `${x.params.rate_per_s}/s steady (open model), ${x.params.seconds} s, ${x.params.cause}`,
                throughput: `${x.params.rate_per_s} events/s`,
                ...lat(x.latency_ms),
                unit: 'ms API call sent → receiver handler',
                lost: x.lost,
                ...(x.params.rate_per_s === E2E_TARGET_RATE ? { target: e2eTarget(r.mode, x) } : {}),
                notes: `delivered ${x.delivered}/${x.api_ok}, lost ${x.lost}, duplicates ${x.duplicates}; API call p50 ${x.api_latency_ms.p50} ms; CPU of both cores: ${cpuNote(x.machine_load)}`,
              }
            : {
                benchmark: 'webhooks',
                mode: r.mode,
                transport: `max deliveries/s, ${x.params.instances} webhooks instance${x.params.instances > 1 ? 's' : ''}`,
                load: `backlog of ${x.params.backlog} over ${x.params.endpoints} endpoints of a local receiver`,
                throughput: `${x.deliveries_per_s} deliveries/s`,
                count: x.delivered,
                unit: 'deliveries/s (10th–90th percentile of arrivals)',
                notes:
                  `whole drain ${x.deliveries_per_s_whole_run}/s in ${x.drain_seconds} s; ` +
                  `${x.undelivered_at_timeout ? `**${x.undelivered_at_timeout} still queued after ${x.wait_seconds} s**; ` : ''}` +
                  `duplicates ${x.duplicates}; CPU of both cores: ${cpuNote(x.machine_load)}`,
              },
      ),
  },
  {
    ...overload,
    rows: (r) =>
      r.phases.map((p) => ({
        benchmark: 'overload',
        mode: r.mode,
        transport: `${p.phase}: GET /v1/merchants at ${p.rate_per_s}/s (sustainable ${r.sustainable_per_s}/s = ${p.phase.includes('no key limit') ? 'half' : "the key's limit = half"} the measured ${r.measured_capacity_per_s}/s${p.phase.includes('no key limit') ? `; this key's limit ${r.unlimited_key_limit_per_s}/s` : ''})`,
        load: `open model, ${p.seconds} s, ${p.sent} sent, at most ${p.in_flight_max} outstanding${p.connections_max !== undefined ? `, ${p.connections_at_start} connections open at its start (${p.connections_max} at most)` : ''}${p.generator_queued ? ' (**the generator queued**)' : ''}`,
        throughput: `${p.ok_per_s} ok/s`,
        ...lat(p.latency_ms),
        unit: 'ms per 200 response',
        target: r.at_2x_capacity[p.phase]
          ? {
              figure: `${p.phase} (${r.mode}): shed, and admitted p99`,
              service: `${p.latency_ms.p99 ?? '-'} ms p99 of ${p.statuses[200] ?? 0} admitted; ${r.at_2x_capacity[p.phase].shed} shed (429/503), ${r.at_2x_capacity[p.phase].failures} failed, of ${p.sent}`,
              reference: `${p.rate_per_s}/s sent = 2 × ${r.measured_capacity_per_s}/s (the read's capacity, same run)`,
              target: 'sheds (429/503); admitted p99 ≤ 1 s',
              ...verdict(r.at_2x_capacity[p.phase].met, {
                load: p.machine_load,
                ops: p.statuses[200],
                profile: 'findings 45, 55',
                prefix: p.generator_queued
                  ? `the generator queued (${p.in_flight_max} outstanding, its pool ${OPEN_CONNECTIONS}); `
                  : '',
              }),
            }
          : undefined,
        notes:
          `${statusNote(p.statuses, p.errors)}; unfinished ${p.unfinished}` +
          (p.phase === 'recovery'
            ? `; recovered: ${r.recovered ? `yes, from second ${r.recovered_after_s} (p99 ≤ ${r.recovery_p99_threshold_ms} ms, all 200)` : 'no'}`
            : '') +
          `; CPU of both cores: ${cpuNote(p.machine_load)}`,
      })),
  },
  {
    ...soak,
    rows: (r) =>
      Object.entries(r.memory).map(([name, m]) => ({
        benchmark: 'soak',
        mode: r.mode,
        transport: `RSS of ${name}`,
        load: `${r.seconds} s mixed load (40 reads/s, 5 links/s, 2 checkouts/s)`,
        throughput: '',
        unit: 'MiB RSS',
        notes: `start ${m.start_mib}, at 1 min ${m.at_1min_mib}, end ${m.end_mib}, max ${m.max_mib}, growth after 1 min ${m.growth_after_1min_mib} MiB`,
      })),
  },
  {
    ...pgbenchBaseline,
    rows: (r) => [
      {
        benchmark: 'pgbench-baseline',
        mode: r.mode,
        transport: "pgbench: a checkout payment's SQL as of issue 8 (same PostgreSQL)",
        load: `${r.params.clients} clients, ${r.params.threads} threads, ${r.params.seconds} s`,
        throughput: `${Math.round(r.tps)} checkouts/s`,
        p50: r.latency_avg_ms,
        unit: 'ms average per checkout (pgbench reports no percentiles)',
        notes: `**service ÷ pgbench = ${r.ratio}** (service ${r.service_checkouts_per_s} checkouts/s); failed ${r.failed}; CPU of both cores: ${cpuNote(r.machine_load)}`,
      },
    ],
  },
  // The embedded database port (docs/adr/0015): in-process, no platform needed.
  dbPort,
  // Last: the references of issue 15 run after the service figures they are compared with.
  references,
];
