// Load behaviour at twice the sustainable rate (issue 8 item 4), per mode.
//
// The capacity C is the authenticated read's throughput measured by the api benchmark just
// before (closed model, 16 connections) on the same target. The sustainable rate R is what a
// key is allowed: a fresh account gets `rate_limit_per_second` = R = C / 2, as an operator
// sizing the platform with headroom would set it, and an open-model generator (requests
// start when due, whatever the answers) sends GET /v1/merchants?limit=10 in three phases of
// `seconds` each:
//
//   before     0.5 R   (reference)
//   overload   2 R     (twice the sustainable rate, = the measured capacity)
//   recovery   0.5 R   (must look like "before" again: no 429/503/errors, similar latency)
//
// Reported per phase: requests sent, statuses (200, 429, 503, ...), client errors
// (time-outs, resets), p50/p99 of the 200s and a per-second timeline. Shedding here is the
// gateway's per-key GCRA limit answering 429 with Retry-After before any upstream work;
// the gateway has no CPU- or queue-based 503 shedding of its own (see bench/README.md).

import { httpClient, openLoop } from './lib/load.mjs';
import { cpuTimes, machineLoad } from './lib/machine.mjs';
import { perModeBenchmark } from './lib/report.mjs';
import { provisionAccount, sharedTarget } from './lib/platform-target.mjs';

export async function runMode(mode, opts, say) {
  const target = await sharedTarget(mode, say);
  // The key's limit: half the measured capacity (headroom for other keys and the machine).
  const capacity = Math.round(opts.capacity ?? target.state.readRate ?? 400);
  const sustainable = Math.max(20, Math.round(capacity / 2));
  const { key } = await provisionAccount(target, { rateLimit: sustainable, name: 'Bench overload' });
  const client = httpClient(target.gateway, 256);
  const op = async () => {
    const r = await client.request('GET', '/v1/merchants?limit=10', {
      headers: { authorization: `Bearer ${key}` },
    });
    return { status: r.status, ok: r.status === 200 };
  };
  const phases = [];
  try {
    for (const [name, factor] of [
      ['before', 0.5],
      ['overload', 2],
      ['recovery', 0.5],
    ]) {
      const rate = Math.round(sustainable * factor);
      say(`[overload] ${mode}: ${name}, ${rate}/s for ${opts.seconds} s (sustainable ${sustainable}/s)`);
      const before = cpuTimes();
      const result = await openLoop({ rate, seconds: opts.seconds, op, drainMs: 20_000 });
      phases.push({ phase: name, ...result, machine_load: machineLoad(before, cpuTimes()) });
    }
  } finally {
    await client.close();
  }
  const byName = Object.fromEntries(phases.map((p) => [p.phase, p]));
  const shed = (p) => (p.statuses[429] ?? 0) + (p.statuses[503] ?? 0);
  const failures = (p) =>
    Object.values(p.errors).reduce((n, c) => n + c, 0) +
    Object.entries(p.statuses)
      .filter(([s]) => !['200', '429', '503'].includes(s))
      .reduce((n, [, c]) => n + c, 0);
  // Recovered: from some second of the recovery phase on, every second is answered 200 only,
  // with a p99 within max(3 × the "before" p99, + 50 ms) of the reference.
  const reference = byName.before.latency_ms.p99 ?? 0;
  const threshold = Math.max(3 * reference, reference + 50);
  const healthy = (b) => b.sent > 0 && b.ok === b.sent && b.p99 !== undefined && b.p99 <= threshold;
  const timeline = byName.recovery.timeline;
  let recoveredAfter;
  for (let k = timeline.length - 1; k >= 0 && healthy(timeline[k]); k--) recoveredAfter = k;
  return {
    mode,
    measured_capacity_per_s: capacity,
    sustainable_per_s: sustainable,
    shed_in_overload: shed(byName.overload),
    failures_in_overload: failures(byName.overload),
    recovery_p99_threshold_ms: Math.round(threshold),
    recovered: recoveredAfter !== undefined,
    recovered_after_s: recoveredAfter,
    phases,
  };
}

export const overload = perModeBenchmark({
  name: 'overload',
  description: 'twice the sustainable rate: load shed with 429/503 and recovery (open model)',
  params: ({ quick }) => ({ seconds: quick ? 2 : 10 }),
  runMode,
});
