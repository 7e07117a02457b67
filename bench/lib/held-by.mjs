// What holds a figure that misses its target, for the report's targets table (run.mjs): the
// resource the machine's CPU accounting (machine.mjs) says was saturated while the figure was
// measured, the CPU of each platform process per operation, and where its profile is.
//
// A run where both cores were at least BUSY_SATURATED busy is CPU-bound, and the groups are
// named largest first; below that the machine had room, so what held the figure was a wait
// (round trips, locks, fsync, a queue) or one thread at its limit, which the profile named
// tells apart. Platform processes that did less than a tenth of the busiest one's work per
// operation (the other mode's apps, idle) are left out.

import { cpuPerProcess } from './machine.mjs';

/** Both cores' busy fraction from which a measurement counts as CPU-bound. */
export const BUSY_SATURATED = 0.85;

const GROUP_NAMES = {
  platform: 'platform apps',
  postgres: 'PostgreSQL',
  kafka: 'Kafka',
  this_process: 'load generator (bench process)',
  others: 'other processes',
};

/** A fraction as a whole percentage, "?" when not measured. */
export const pct = (f) => (f === undefined ? '?' : `${Math.round(f * 100)}%`);

/**
 * One line: "CPU, both cores 92% busy: platform apps 57% (per operation: payments 5.22 ms, ...),
 * PostgreSQL 25%, ...; profile: bench/README.md findings 28, 52", or "" without a load.
 */
export function heldBy(load, ops, profile) {
  if (!load || load.cpu_busy === undefined) return '';
  const groups = Object.entries(load.cpu_by_group ?? {})
    .filter(([, f]) => f >= 0.01)
    .sort((a, b) => b[1] - a[1]);
  const processes = cpuPerProcess(load, ops).sort((a, b) => b.ms - a.ms);
  const perOp = processes.filter((p) => p.ms >= processes[0].ms / 10);
  const line = (p) =>
    `${p.name} ${p.perOp.toFixed(2)} ms${p.cores === undefined ? '' : ` at ${p.cores.toFixed(2)} core`}`;
  const named = groups
    .map(([group, f]) => {
      const detail =
        group === 'platform' && ops && perOp.length ? ` (per operation: ${perOp.map(line).join(', ')})` : '';
      return `${GROUP_NAMES[group] ?? group} ${pct(f)}${detail}`;
    })
    .join(', ');
  const where = profile ? `; profile: bench/README.md ${profile}` : '';
  if (load.cpu_busy >= BUSY_SATURATED) return `CPU, both cores ${pct(load.cpu_busy)} busy: ${named}${where}`;
  return `not both cores (${pct(load.cpu_busy)} busy: ${named}): a wait or one thread at its limit${where}`;
}

/**
 * A target row's `met` and `held` cells. `met` is true, false, or undefined (nothing to judge:
 * both cells empty); `held` (heldBy of the service's measurement, after `prefix`) only when not met.
 */
export function verdict(met, { load, ops, profile, prefix = '' } = {}) {
  if (met === undefined) return { met: '', held: '' };
  return { met: met ? 'yes' : '**no**', held: met ? '' : prefix + heldBy(load, ops, profile) };
}
