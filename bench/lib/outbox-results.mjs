// The outbox-latency benchmark's results (bench/outbox-latency.mjs): latency per second of the
// run, and the table its command prints.

import { markdownTable, summarize } from './stats.mjs';
import { ms } from './outbox-rig.mjs';

export function timeline(handled, firstDue) {
  const buckets = new Map();
  for (const r of handled) {
    const second = Math.floor(ms(firstDue, r.dueNs) / 1000);
    if (!buckets.has(second)) buckets.set(second, []);
    buckets.get(second).push(ms(r.commitNs, r.handled[0]));
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([second, samples]) => {
      const s = summarize(samples);
      return { second, count: s.count, p50: s.p50, p99: s.p99, max: s.max };
    });
}

const pct = (fraction) => (fraction === undefined ? '?' : `${Math.round(fraction * 100)}%`);

export function resultTable(results) {
  return markdownTable(
    [
      'transport',
      'rate/s (target → achieved)',
      'events',
      'p50 ms',
      'p90 ms',
      'p99 ms',
      'max ms',
      'lost',
      'dup',
      'commit→relay send p50/p99',
      'send→handler p50/p99',
      'CPU: all / this / pg / kafka / others',
    ],
    results.map((r) => [
      r.transport,
      `${r.params.rate_per_s} → ${r.achieved_rate_per_s.committed}`,
      r.latency_ms.count,
      r.latency_ms.p50,
      r.latency_ms.p90,
      r.latency_ms.p99,
      r.latency_ms.max,
      r.events.lost,
      r.events.duplicates,
      `${r.stages_ms.commit_to_relay_send.p50} / ${r.stages_ms.commit_to_relay_send.p99}`,
      `${r.stages_ms.relay_send_to_handler.p50} / ${r.stages_ms.relay_send_to_handler.p99}`,
      [
        r.machine_load.cpu_busy,
        ...['this_process', 'postgres', 'kafka', 'others'].map((g) => r.machine_load.cpu_by_group?.[g]),
      ]
        .map(pct)
        .join(' / '),
    ]),
  );
}
