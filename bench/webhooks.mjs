// Webhook delivery, per mode, to a receiver in the bench process (a local HTTP server that
// answers 200 at once):
//
//   e2e latency     open model, 20 and then 200 API calls per second (`--webhook-rate N`: N
//                   only; issue 15's target is p99 <= 50 ms at 200/s): POST /v1/payment-links
//                   through the gateway, each tagged metadata.bench_seq; latency = receiver handler time −
//                   time the API call was sent, for the payment_link.created delivery it causes.
//                   The path: payments tx + outbox → relay → Kafka (embedded: the embedded bus)
//                   → webhooks event log (inbox, fan-out into webhooks.deliveries) → worker
//                   claim (woken by the consumer, 200 ms poll as fallback) → signed POST.
//   max deliveries  a backlog of `backlog` deliveries inserted straight into webhooks.deliveries
//                   (spread over 20 endpoints of the receiver, distinct objects, ~1 KiB
//                   payload each), all due at the same instant; the figure is the receiver's
//                   rate while the workers drain it (10th to 90th percentile of arrivals, so
//                   start-up and tail do not count), with one webhooks instance and then, in
//                   distributed mode, with two (a second process started for it).
//
// 20 endpoints because one endpoint is capped at 10 deliveries in flight (the per-endpoint
// limit): a single endpoint's rate is bounded by 10 ÷ its response time.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpClient, openLoop } from './lib/load.mjs';
import { recordFigure } from './lib/figures.mjs';
import { countAsPlatform, cpuTimes, machineLoad } from './lib/machine.mjs';
import { perModeBenchmark } from './lib/report.mjs';
import { round, summarize } from './lib/stats.mjs';
import { apiCall, provisionAccount, sharedTarget } from './lib/platform-target.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ENDPOINTS = 20;
/** Issue 15: end to end at 200 events/s, p99 <= 50 ms. */
export const E2E_TARGET_RATE = 200;
export const E2E_TARGET_P99_MS = 50;
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (millis) => new Promise((r) => setTimeout(r, millis));

/** The local receiver: calls onDelivery(path, body, arrivalMs) for each request, answers 200. */
export async function startReceiver(onDelivery) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = nowMs();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      onDelivery(req.url, Buffer.concat(chunks).toString('utf8'), at, req.headers['webhook-id']);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

async function e2e(target, key, receiver, handlers, { rate, seconds, drain }, say) {
  const endpoint = await apiCall(target, key, 'POST', '/v1/webhooks', {
    url: `${receiver.url}/e2e`,
    enabled_events: ['payment_link.created'],
  });
  const run = randomBytes(3).toString('hex');
  const sentAt = new Map();
  const latencies = [];
  const seen = new Map();
  handlers.e2e = (body, at) => {
    const event = JSON.parse(body);
    const tag = event.data?.object?.metadata?.bench_seq;
    if (!tag?.startsWith(run)) return;
    seen.set(tag, (seen.get(tag) ?? 0) + 1);
    if (seen.get(tag) === 1 && sentAt.has(tag)) latencies.push(at - sentAt.get(tag));
  };
  const client = httpClient(target.gateway, 64);
  const call = (tag) =>
    client.request('POST', '/v1/payment-links', {
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1000, currency: 'EUR', metadata: { bench_seq: tag } }),
    });
  // Priming: one event all the way through (consumer group join, pools, JIT).
  const primeTag = `${run}-prime`;
  sentAt.set(primeTag, nowMs());
  await call(primeTag);
  const primeDeadline = Date.now() + 60_000;
  while (!seen.has(primeTag) && Date.now() < primeDeadline) await sleep(50);
  latencies.length = 0;

  say(`[webhooks] ${target.mode}: e2e latency at ${rate}/s for ${seconds} s`);
  const before = cpuTimes();
  const load = await openLoop({
    rate,
    seconds,
    op: async (i) => {
      const tag = `${run}-${i}`;
      sentAt.set(tag, nowMs());
      const r = await call(tag);
      return { status: r.status, ok: r.status === 200 };
    },
  });
  const machine = machineLoad(before, cpuTimes());
  const expected = load.statuses[200] ?? 0;
  // Waits while deliveries still arrive: past capacity (200/s on a slow machine) the events
  // queue and arrive late, which the latency shows; lost is what never came, `drain` seconds
  // without a delivery (or 5 minutes in all).
  const measured = () => [...seen.keys()].filter((t) => t !== primeTag).length;
  const cap = Date.now() + 300_000;
  let count = measured();
  let lastArrival = Date.now();
  while (count < expected && Date.now() - lastArrival < drain * 1000 && Date.now() < cap) {
    await sleep(100);
    const arrived = measured();
    if (arrived !== count) [count, lastArrival] = [arrived, Date.now()];
  }
  await sleep(500); // late duplicates
  await client.close();
  await apiCall(target, key, 'DELETE', `/v1/webhooks/${endpoint.id}`);
  const duplicates = [...seen.values()].reduce((n, c) => n + (c > 1 ? c - 1 : 0), 0);
  return {
    name: 'e2e-latency',
    params: {
      rate_per_s: rate,
      seconds,
      drain_s: drain,
      event: 'payment_link.created',
      cause: 'POST /v1/payment-links',
    },
    api_calls: load.sent,
    api_ok: expected,
    api_latency_ms: load.latency_ms,
    delivered: measured(),
    lost: Math.max(0, expected - measured()),
    duplicates,
    latency_ms: summarize(latencies),
    machine_load: machine,
  };
}

/** The rate between the 10th and the 90th percentile of arrivals, and over the whole drain. */
function arrivalRates(arrivals) {
  arrivals.sort((a, b) => a - b);
  const n = arrivals.length;
  const lo = Math.floor(n * 0.1);
  const hi = Math.max(lo + 1, Math.ceil(n * 0.9) - 1);
  const steady = n > 10 ? (hi - lo) / ((arrivals[hi] - arrivals[lo]) / 1000) : undefined;
  const whole = n > 1 ? n / ((arrivals[n - 1] - arrivals[0]) / 1000) : undefined;
  return { n, steady, whole };
}

/**
 * The reference of the max-deliveries figure (issue 15): reference/delivery-loop.mjs, a bare
 * undici loop in a process of its own, posting `backlog` payloads of the same shape, signed
 * the same way, over the same endpoint paths of the same receiver, measured the same way.
 */
export async function bareDeliveries(receiver, handlers, { backlog, endpoints }, say) {
  const tag = `r${randomBytes(4).toString('hex')}`;
  const arrivals = [];
  const ids = new Set();
  handlers.max = (at, id) => {
    if (!String(id).startsWith(`evt_b${tag}`)) return;
    ids.add(id);
    arrivals.push(at);
  };
  say(`[webhooks] reference: bare undici loop, ${backlog} deliveries over ${endpoints} endpoint paths`);
  const before = cpuTimes();
  const child = spawn(process.execPath, [join(HERE, 'reference', 'delivery-loop.mjs')], {
    env: {
      PATH: process.env.PATH ?? '',
      RECEIVER: receiver.url,
      PATHS: JSON.stringify(Array.from({ length: endpoints }, (_, i) => `/max/${i}`)),
      COUNT: String(backlog),
      TAG: tag,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  countAsPlatform(child.pid);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  const machine = machineLoad(before, cpuTimes());
  if (code !== 0) throw new Error(`delivery loop exited ${code}`);
  const { sent, failed } = JSON.parse(out);
  const { n, steady, whole } = arrivalRates(arrivals);
  return {
    name: 'bare-delivery-loop',
    params: { backlog, endpoints, in_flight: 200, per_endpoint: 10, keep_alive: true },
    delivered: ids.size,
    sent,
    failed,
    deliveries_per_s: steady === undefined ? undefined : round(steady, 1),
    deliveries_per_s_whole_run: whole === undefined ? undefined : round(whole, 1),
    drain_seconds: n > 1 ? round((arrivals[n - 1] - arrivals[0]) / 1000, 2) : undefined,
    machine_load: machine,
  };
}

export async function maxDeliveries(
  target,
  accountId,
  receiver,
  handlers,
  endpoints,
  { backlog, instances, waitSeconds = 180 },
  say,
) {
  const tag = randomBytes(4).toString('hex');
  const arrivals = [];
  const ids = new Set();
  let duplicates = 0;
  handlers.max = (at, id) => {
    if (!String(id).startsWith(`evt_b${tag}`)) return;
    if (ids.has(id)) duplicates++;
    ids.add(id);
    arrivals.push(at);
  };
  const padding = 'x'.repeat(700);
  say(`[webhooks] ${target.mode}: max deliveries/s, ${backlog} queued, ${instances} instance(s)`);
  await target.sql(
    `insert into webhooks.deliveries (id, endpoint_id, event_id, event_type, object_id, payload, account_id, livemode,
       status, next_attempt_at, created_at, updated_at)
     select 'del_b' || $1 || g, ($2::text[])[1 + g % array_length($2::text[], 1)], 'evt_b' || $1 || g, 'bench.delivery',
       'obj_b' || $1 || g,
       jsonb_build_object('id', 'evt_b' || $1 || g, 'object', 'event', 'type', 'bench.delivery', 'account', $3::text,
         'livemode', false, 'created_at', now(), 'data', jsonb_build_object('object',
           jsonb_build_object('id', 'obj_b' || $1 || g, 'padding', $5::text))),
       $3, false, 'pending', now() + interval '2 seconds', now(), now()
     from generate_series(1, $4::int) g`,
    [tag, endpoints, accountId, backlog, padding],
  );
  const before = cpuTimes();
  const deadline = Date.now() + waitSeconds * 1000;
  while (ids.size < backlog && Date.now() < deadline) await sleep(100);
  const machine = machineLoad(before, cpuTimes());
  await sleep(300);
  const { n, steady, whole } = arrivalRates(arrivals);
  return {
    name: 'max-deliveries',
    params: { backlog, instances, endpoints: endpoints.length },
    delivered: ids.size,
    // Not lost: still queued when the bench stopped waiting (the rate says how far it got).
    undelivered_at_timeout: backlog - ids.size,
    wait_seconds: waitSeconds,
    duplicates,
    deliveries_per_s: steady === undefined ? undefined : round(steady, 1),
    deliveries_per_s_whole_run: whole === undefined ? undefined : round(whole, 1),
    drain_seconds: n > 1 ? round((arrivals[n - 1] - arrivals[0]) / 1000, 2) : undefined,
    machine_load: machine,
  };
}

export async function runMode(mode, opts, say) {
  const target = await sharedTarget(mode, say);
  const { account, key } = await provisionAccount(target, { name: 'Bench webhooks' });
  const handlers = {};
  const receiver = await startReceiver((path, body, at, id) => {
    if (path === '/e2e') handlers.e2e?.(body, at);
    else handlers.max?.(at, id);
  });
  const results = [];
  try {
    // Lightly loaded (20/s), and at issue 15's rate (200/s, its target p99 <= 50 ms).
    for (const rate of opts.rates)
      results.push(await e2e(target, key, receiver, handlers, { ...opts, rate }, say));
    const endpoints = [];
    for (let i = 0; i < ENDPOINTS; i++) {
      const endpoint = await apiCall(target, key, 'POST', '/v1/webhooks', {
        url: `${receiver.url}/max/${i}`,
        enabled_events: ['payment_link.completed'],
      });
      endpoints.push(endpoint.id);
    }
    const one = await maxDeliveries(
      target,
      account.id,
      receiver,
      handlers,
      endpoints,
      { ...opts, instances: 1 },
      say,
    );
    results.push(one);
    recordFigure(mode, 'deliveries_per_s', one.deliveries_per_s);
    // The reference, same receiver, same payloads, right after the service's figure.
    const bare = await bareDeliveries(
      receiver,
      handlers,
      { backlog: opts.backlog, endpoints: ENDPOINTS },
      say,
    );
    results.push({
      ...bare,
      service_deliveries_per_s: one.deliveries_per_s,
      // The machine while the service's figure was measured: what held it (lib/held-by.mjs).
      service_load: { machine_load: one.machine_load, ops: one.delivered },
      ratio:
        one.deliveries_per_s && bare.deliveries_per_s
          ? round(one.deliveries_per_s / bare.deliveries_per_s, 3)
          : undefined,
    });
    if (target.startExtraWebhooks) {
      const extra = await target.startExtraWebhooks();
      results.push(
        await maxDeliveries(
          target,
          account.id,
          receiver,
          handlers,
          endpoints,
          { ...opts, instances: 2 },
          say,
        ),
      );
      await extra.stop();
    }
  } finally {
    await receiver.close();
  }
  return { mode, results };
}

export const webhooks = perModeBenchmark({
  name: 'webhooks',
  description:
    'webhook end-to-end latency (API call → receiver handler) at a steady rate, and maximum deliveries/s with one and two instances',
  params: ({ quick, webhookRate, seconds, backlog }) => ({
    rates: webhookRate ? [webhookRate] : [20, E2E_TARGET_RATE],
    seconds: seconds ?? (quick ? 3 : 10),
    drain: quick ? 15 : 30,
    backlog: backlog ?? (quick ? 500 : 4000),
  }),
  runMode,
});
