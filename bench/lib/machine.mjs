// What the figures were measured on: cores, CPU model, memory, Node version, OS.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

export function machineInfo() {
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) cpuModel = line.split(':').slice(1).join(':').trim();
  } catch {
    // not Linux: os.cpus() is good enough
  }
  return {
    cores: os.availableParallelism(),
    cpu: cpuModel,
    memory_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/**
 * A fixed single-threaded workload (SHA-256 of 64 KiB and a JSON round trip of a small
 * object) run for about `millis` ms: iterations per second, i.e. what one thread gets from
 * the machine at that moment. Runs are only comparable at similar speeds: it drops when
 * other work holds the cores or the host slows the virtual CPU.
 */
export function cpuSpeed(millis = 1000) {
  const block = Buffer.alloc(64 * 1024, 7);
  const object = { id: 'txn_0123456789', amount: 2500, currency: 'EUR', metadata: { order: '6735' } };
  let iterations = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(millis) * 1_000_000n;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 10; i++) {
      createHash('sha256').update(block).digest();
      JSON.parse(JSON.stringify(object));
    }
    iterations += 10;
    now = process.hrtime.bigint();
  }
  return Math.round((iterations * 1e9) / Number(now - start));
}

/** System-wide CPU counters from /proc/stat (Linux), for the busy fraction over an interval. */
function systemTimes() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
  return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal: steal ?? 0 };
}

/** The processes of the platform under test (lib/platform-target.mjs registers them), by pid: their name. */
const platformPids = new Map();

/**
 * Counts the process `pid` as the platform under test from now on; `name` (gateway,
 * invoicing, ...) also gets its own CPU figure in machineLoad's `cpu_ms_by_process`.
 */
export function countAsPlatform(pid, name) {
  if (pid) platformPids.set(pid, name);
}

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/**
 * Which group a process counts in: this process, the platform under test, the
 * infrastructure, or anything else (another session's work shows up there).
 */
function classify(pid, comm) {
  if (pid === process.pid) return 'this_process';
  if (platformPids.has(pid)) return 'platform';
  if (comm === 'postgres') return 'postgres';
  if (comm === 'java') {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('kafka.Kafka')) return 'kafka';
    } catch {
      // gone
    }
  }
  return 'others';
}

/** Per-process CPU ticks (utime + stime), keyed by pid, with the group of each process. */
function processTimes() {
  const result = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // fields[0] is field 3 (state); utime and stime are fields 14 and 15, cutime and cstime
      // (the children it has reaped) 16 and 17.
      const pid = Number(entry);
      const group = classify(pid, comm);
      // A PostgreSQL backend that ends within the interval (a pool's idle connection closed,
      // a benchmark's own pool) takes its ticks with it; the postmaster that reaps it gains
      // them as its children's time. Counted there, or a long point's database CPU is lost
      // (the billing curve's 1 M point read "postgres 1 %"). Only for postgres: this
      // process's children are platform apps, counted on their own while they run.
      const ticks =
        Number(fields[11]) +
        Number(fields[12]) +
        (group === 'postgres' ? Number(fields[13]) + Number(fields[14]) : 0);
      result.set(pid, { ticks, group });
    } catch {
      // the process ended meanwhile
    }
  }
  return result;
}

/** A snapshot of the machine's CPU counters (Linux); undefined elsewhere. */
export function cpuTimes() {
  try {
    return { system: systemTimes(), processes: processTimes() };
  } catch {
    return undefined;
  }
}

/**
 * Each platform process that did any work in `load` (machineLoad), in its order there:
 * `{ name, ms, perOp, cores }`, its CPU milliseconds, those per operation (of `ops`) and the
 * cores it used over the interval (undefined without interval_ms).
 */
export function cpuPerProcess(load, ops) {
  return Object.entries(load?.cpu_ms_by_process ?? {})
    .filter(([, ms]) => ms > 0)
    .map(([name, ms]) => ({
      name,
      ms,
      perOp: ops ? ms / ops : undefined,
      cores: load.interval_ms ? ms / load.interval_ms : undefined,
    }));
}

/**
 * What the machine's cores did between two cpuTimes() snapshots, as fractions of all cores:
 * busy in total, and by group: this process (load generator + relay + consumer, and PGlite
 * in embedded mode), postgres and kafka (the infrastructure, whoever its clients were) and
 * every other process. Other sessions on a shared machine show up in `others`.
 */
export function machineLoad(before, after) {
  const load = { loadavg_1m: Math.round(os.loadavg()[0] * 100) / 100 };
  if (!before || !after) return load;
  const s0 = before.system;
  const s1 = after.system;
  const busy = s1.busy - s0.busy;
  const total = busy + (s1.idle - s0.idle) + (s1.steal - s0.steal);
  if (total <= 0) return load;
  const groups = { this_process: 0, platform: 0, postgres: 0, kafka: 0, others: 0 };
  for (const [pid, p] of after.processes) {
    groups[p.group] += Math.max(0, p.ticks - (before.processes.get(pid)?.ticks ?? 0));
  }
  // A backend that ended meanwhile reached the postmaster's children's time with its whole
  // life (processTimes); what it had used before the interval is not the interval's.
  for (const [pid, p] of before.processes) {
    if (p.group === 'postgres' && !after.processes.has(pid)) groups.postgres -= p.ticks;
  }
  groups.postgres = Math.max(0, groups.postgres);
  const frac = (ticks) => Math.round((ticks / total) * 100) / 100;
  // CPU milliseconds of each named platform process over the interval: divided by the
  // operations done, the per-request CPU budget of each process (issue 15), steadier than a
  // rate on a machine whose neighbours steal cycles.
  const byProcess = {};
  for (const [pid, name] of platformPids) {
    const p = after.processes.get(pid);
    if (!name || !p) continue;
    const ms = ((p.ticks - (before.processes.get(pid)?.ticks ?? 0)) * 1000) / USER_HZ;
    byProcess[name] = (byProcess[name] ?? 0) + ms;
  }
  return {
    ...load,
    cores: os.availableParallelism(),
    cpu_busy: frac(busy),
    cpu_by_group: Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, frac(v)])),
    steal: frac(s1.steal - s0.steal),
    // The interval's wall time, from the ticks of all cores: a process's CPU ms over it is the
    // cores it used.
    interval_ms: Math.round((total * 1000) / USER_HZ / os.availableParallelism()),
    cpu_ms_by_process: byProcess,
  };
}
