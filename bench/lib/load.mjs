// Load generation for the service benchmarks, in the bench process (the system under test
// runs in other processes). HTTP through undici pools (keep-alive). Two models:
//
//   closedLoop: N workers, each starting its next operation when the previous one finished
//               (throughput at a fixed concurrency; latency includes queueing).
//   openLoop:   operation i is due at t0 + i/rate and starts when due whether or not earlier
//               ones finished (no coordinated omission); for overload and steady-rate runs.
//
// An "operation" may be several requests (checkout: GET the page, POST the card); its
// latency is from its first byte sent to its last byte received, measured with hrtime.

import { createRequire } from 'node:module';
import { round, summarize } from './stats.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('undici');

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** A pool per origin, sized for the concurrency used against it. */
export function httpClient(origin, connections = 16) {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const connected = () => pool.stats.connected;
  return {
    /** One request; resolves { status, text } (the body read in full). */
    async request(method, path, { headers = {}, body } = {}) {
      const response = await pool.request({ method, path, headers, body });
      const text = await response.body.text();
      return { status: response.statusCode, text, headers: response.headers };
    },
    /**
     * Opens up to `n` connections before a measurement, by sending `n` requests for `path` at
     * once (one per connection: the pool does not pipeline); answers the connections then open.
     */
    async warm(n, path) {
      await Promise.all(
        Array.from({ length: n }, async () => {
          const response = await pool.request({ method: 'GET', path });
          await response.body.dump();
        }),
      );
      return connected();
    },
    /** The pool's connections open now (undici's PoolStats). */
    connected,
    close: () => pool.close(),
  };
}

/** Counts of statuses (and thrown errors) and latencies of operations with an ok outcome. */
function recorder() {
  const samples = [];
  const statuses = {};
  const errors = {};
  return {
    ok(latency, status) {
      statuses[status] = (statuses[status] ?? 0) + 1;
      samples.push(latency);
    },
    status(status) {
      statuses[status] = (statuses[status] ?? 0) + 1;
    },
    error(error) {
      const key = String(error?.code ?? error?.message ?? error).slice(0, 80);
      errors[key] = (errors[key] ?? 0) + 1;
    },
    samples,
    statuses,
    errors,
  };
}

/**
 * The parameters of a closed-model service benchmark (api, invoices): measured seconds,
 * warm-up, connections and seeded rows, from the run's flags.
 */
export function closedLoopParams({ quick = false, seconds, connections, rows }) {
  return {
    seconds: seconds ?? (quick ? 2 : 10),
    warmup: quick ? 1 : 2,
    connections: connections ?? 16,
    rows: rows ?? (quick ? 20_000 : 1_000_000),
  };
}

/**
 * Runs `op(worker, i)` in `connections` closed loops for `seconds` (after `warmup` seconds
 * whose results are dropped). `op` resolves { status, ok } (ok: counted in the latency).
 */
export async function closedLoop({ connections, seconds, warmup = 0, op, stopWhen }) {
  const measured = recorder();
  let measuring = warmup <= 0;
  const start = nowMs();
  const warmEnd = start + warmup * 1000;
  const end = warmEnd + seconds * 1000;
  let i = 0;
  let measureStart = measuring ? start : undefined;
  const worker = async (w) => {
    for (;;) {
      const t0 = nowMs();
      if (t0 >= end || stopWhen?.()) return;
      if (!measuring && t0 >= warmEnd) {
        measuring = true;
        measureStart = t0;
      }
      const counting = measuring;
      try {
        const result = await op(w, i++);
        const latency = nowMs() - t0;
        if (!counting) continue;
        if (result.ok) measured.ok(latency, result.status);
        else measured.status(result.status);
      } catch (error) {
        if (counting) measured.error(error);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, w) => worker(w)));
  const elapsed = (nowMs() - (measureStart ?? start)) / 1000;
  return {
    model: 'closed',
    connections,
    seconds: round(elapsed, 2),
    ops_per_s: round(measured.samples.length / elapsed, 1),
    // Every operation run, warm-up included: what a CPU figure over the whole loop divides by.
    ops_total: i,
    latency_ms: summarize(measured.samples),
    statuses: measured.statuses,
    errors: measured.errors,
  };
}

/**
 * Open model: `rate` operations per second for `seconds`; per-second timeline of statuses and
 * latency of ok operations. Outstanding operations are awaited (at most `drainMs`).
 */
export async function openLoop({ rate, seconds, op, drainMs = 30_000 }) {
  const all = recorder();
  const perSecond = Array.from({ length: Math.ceil(seconds) }, () => ({
    sent: 0,
    ok: 0,
    statuses: {},
    samples: [],
  }));
  const total = Math.round(rate * seconds);
  const start = nowMs();
  const pending = new Set();
  let lagMax = 0;
  let inFlightMax = 0;
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - nowMs();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    lagMax = Math.max(lagMax, nowMs() - due);
    const bucket = perSecond[Math.min(perSecond.length - 1, Math.floor((due - start) / 1000))];
    bucket.sent++;
    const work = (async () => {
      try {
        const result = await op(i);
        const latency = nowMs() - due; // from when it was due: queueing in the generator counts
        bucket.statuses[result.status] = (bucket.statuses[result.status] ?? 0) + 1;
        if (result.ok) {
          all.ok(latency, result.status);
          bucket.ok++;
          bucket.samples.push(latency);
        } else all.status(result.status);
      } catch (error) {
        all.error(error);
        bucket.statuses.error = (bucket.statuses.error ?? 0) + 1;
      }
    })();
    pending.add(work);
    inFlightMax = Math.max(inFlightMax, pending.size);
    void work.finally(() => pending.delete(work));
  }
  const sendEnd = nowMs();
  await Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, drainMs))]);
  return {
    model: 'open',
    rate_per_s: rate,
    seconds,
    sent: total,
    achieved_send_rate_per_s: round(total / ((sendEnd - start) / 1000), 1),
    generator_lag_max_ms: round(lagMax, 1),
    // The most operations outstanding at once: an op that needs a connection waits for one
    // in the client's pool beyond its size, so a figure at that size means the generator queued.
    in_flight_max: inFlightMax,
    unfinished: pending.size,
    latency_ms: summarize(all.samples),
    ok_per_s: round(all.samples.length / seconds, 1),
    statuses: all.statuses,
    errors: all.errors,
    timeline: perSecond.map((b, s) => {
      const l = summarize(b.samples);
      return { second: s, sent: b.sent, ok: b.ok, statuses: b.statuses, p50: l.p50, p99: l.p99 };
    }),
  };
}
