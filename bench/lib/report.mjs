// What every benchmark module leaves behind and how the service benchmarks run per mode:
//
//   resultsFile(name)   bench/results/<name>.json (gitignored), the default `out` of a module
//   writeReport(out, r) { benchmark, description?, date, machine, ...r } written to `out`
//   selectRuns(...)     which transports/targets/modes to run and which to report as skipped
//   perModeBenchmark    a module for run.mjs running runMode(mode, params, say) on the shared
//                       platform of each mode (lib/platform-target.mjs) and writing its file

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineInfo } from './machine.mjs';
import { modesFor } from './platform-target.mjs';

const RESULTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** The default progress output of a benchmark: one line on stderr. */
export const toStderr = (line) => process.stderr.write(`${line}\n`);

export const resultsFile = (name) => join(RESULTS_DIR, `${name}.json`);

/**
 * Writes a benchmark's report to `out` and returns it: its name, its description when given,
 * the date and the machine (machineInfo() unless `fields` brings its own), then `fields`.
 */
export function writeReport(out, { benchmark, description, ...fields }) {
  const report = {
    benchmark,
    ...(description === undefined ? {} : { description }),
    date: new Date().toISOString(),
    machine: machineInfo(),
    ...fields,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

/**
 * The entries of `order` to run: the wanted ones (a wanted one that cannot run here throws).
 * An unwanted one that cannot run here is reported as skipped, `{ [key]: name, reason }`.
 */
export function selectRuns(order, wanted, availability, key = 'transport') {
  const run = [];
  const skipped = [];
  for (const name of order) {
    if (!wanted.includes(name)) {
      if (!availability[name].ok) skipped.push({ [key]: name, reason: availability[name].reason });
      continue;
    }
    if (!availability[name].ok) throw new Error(`${name}: ${availability[name].reason}`);
    run.push(name);
  }
  return { run, skipped };
}

/**
 * A service benchmark for run.mjs: `params(opts)` (opts: { quick, ...flags }) gives the
 * parameters, `runMode(mode, params, say)` measures one mode on its shared platform; the
 * report carries { quick, skipped, results } (one result per mode).
 */
export function perModeBenchmark({ name, description, params, runMode }) {
  return {
    name,
    description,
    async run({ quick = false, say = toStderr, out = resultsFile(name), ...opts } = {}) {
      const { modes, skipped } = modesFor(opts);
      // `parts` (run.mjs: --only NAME.PART) lets a module run some of its figures only.
      const chosen = { ...params({ quick, ...opts }), parts: opts.parts };
      const results = [];
      for (const mode of modes) results.push(await runMode(mode, chosen, say));
      return writeReport(out, { benchmark: name, quick, skipped, results });
    },
  };
}
