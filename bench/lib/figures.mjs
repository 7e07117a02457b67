// The service's figures of this run, by mode, for the references (bench/references.mjs) to
// put each ratio beside its absolute figure: the modules that measure a figure record it here,
// with the machine's load while it was measured (lib/machine.mjs machineLoad) and the number of
// operations done, so that a figure missing its target can say what held it (lib/held-by.mjs).

const figures = new Map();
const loads = new Map();

/**
 * Records `value` (a number) for `name` in `mode` (distributed | embedded), and optionally
 * `{ machine_load, ops }` of its measurement.
 */
export function recordFigure(mode, name, value, load) {
  if (typeof value === 'number' && Number.isFinite(value)) figures.set(`${mode}:${name}`, value);
  if (load?.machine_load) loads.set(`${mode}:${name}`, load);
}

/** The figure measured in this run, or undefined when its benchmark did not run. */
export const figure = (mode, name) => figures.get(`${mode}:${name}`);

/** `{ machine_load, ops }` of the figure's measurement, or undefined. */
export const figureLoad = (mode, name) => loads.get(`${mode}:${name}`);

/** `{ machine_load, ops }` of a closed loop's result (lib/load.mjs: ops_total operations). */
export const loadOf = (result) => ({ machine_load: result.machine_load, ops: result.ops_total });
