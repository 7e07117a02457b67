// Summarises V8 CPU profiles (.cpuprofile, as written by `node --cpu-prof`, e.g. by the
// services of a bench run with BENCH_CPU_PROF=<dir>): self time by package and by function,
// and the total time under each of the project's own functions.
//
//   node bench/profile-summary.mjs <file.cpuprofile> [more ...] [--top 25] [--last SECONDS]
//
// --last: only the samples of the profile's last SECONDS (a service's profile runs from its
// start, so its module loading and a bench's seeding crowd out the load the bench measured;
// the load is the end of it when the bench stops the service right after).

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { numberFlag, parseArgs } from './lib/args.mjs';
import { runIfMain } from './lib/module.mjs';

/** Where a frame's code comes from: a package, the project's own code, Node itself, or V8. */
export function origin(url) {
  if (!url) return '(v8)';
  if (url.startsWith('node:')) return 'node';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const project = /\/(apps|libs)\/([^/]+)\//.exec(url);
  return project ? `${project[1]}/${project[2]}` : url;
}

/**
 * Self milliseconds per frame (summed over the samples whose leaf it is) and total
 * milliseconds per frame (samples with it anywhere on the stack, each counted once).
 */
export function summarise(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const frameName = (node) => {
    const f = node.callFrame;
    const file = f.url ? `${basename(f.url)}:${f.lineNumber + 1}` : '';
    return `${f.functionName || '(anonymous)'} ${file}`.trim();
  };
  const self = new Map();
  const total = new Map();
  const packages = new Map();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    all += ms;
    const leaf = byId.get(id);
    const name = frameName(leaf);
    self.set(name, (self.get(name) ?? 0) + ms);
    const pkg = origin(leaf.callFrame.url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!/\/(apps|libs)\//.test(node.callFrame.url) || /node_modules/.test(node.callFrame.url)) continue;
      const ownName = frameName(node);
      if (seen.has(ownName)) continue;
      seen.add(ownName);
      total.set(ownName, (total.get(ownName) ?? 0) + ms);
    }
  });
  const sorted = (m) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  const idle = self.get('(idle)') ?? 0;
  return { all, idle, self: sorted(self), total: sorted(total), packages: sorted(packages) };
}

/**
 * Which thread wrote the profile, from the name `node --cpu-prof` gives it
 * (CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile): thread 0 is the main thread
 * (the event loop), any other a worker thread (the PDF pool's, a webhooks delivery thread).
 */
export function threadOf(file) {
  const match = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile$/.exec(basename(file));
  if (!match) return '';
  return match[2] === '0' ? `main thread of pid ${match[1]}` : `worker thread ${match[2]} of pid ${match[1]}`;
}

/** The profile with only the samples of its last `seconds`. */
export function lastSeconds(profile, seconds) {
  const from = profile.endTime - seconds * 1e6;
  let at = profile.startTime;
  const kept = [];
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from) kept.push([id, at]);
  });
  return {
    ...profile,
    startTime: kept[0]?.[1] ?? profile.endTime,
    samples: kept.map(([id]) => id),
    timeDeltas: kept.map(([, t], i) => (i === 0 ? 0 : t - kept[i - 1][1])),
  };
}

function table(title, rows, all, top) {
  const lines = [`${title}`];
  for (const [name, ms] of rows.slice(0, top)) {
    lines.push(`  ${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / all).toFixed(1).padStart(5)} %  ${name}`);
  }
  return lines.join('\n');
}

export async function main(argv) {
  const files = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const flags = parseArgs(argv.filter((a) => !files.includes(a)));
  const top = numberFlag(flags, 'top', 25, { min: 1 });
  const last = numberFlag(flags, 'last', 0, { min: 0 });
  if (!files.length) {
    throw new Error('usage: node bench/profile-summary.mjs <file.cpuprofile> ... [--top N] [--last SECONDS]');
  }
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8'));
    const s = summarise(last ? lastSeconds(profile, last) : profile);
    const busy = s.all - s.idle;
    const thread = threadOf(file);
    console.log(
      `\n# ${basename(file)}${thread ? ` (${thread})` : ''}: ${s.all.toFixed(0)} ms profiled, ${busy.toFixed(0)} ms busy`,
    );
    console.log(table('self time by origin', s.packages, s.all, top));
    console.log(table('self time by function', s.self, s.all, top));
    console.log(table("total time under the project's functions", s.total, s.all, top));
  }
}

runIfMain(import.meta.url, 'profile-summary', () => main(process.argv.slice(2)));
