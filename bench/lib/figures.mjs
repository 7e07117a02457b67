// The service's figures of this run, by mode, for the references (bench/references.mjs) to
// put each ratio beside its absolute figure: the modules that measure a figure record it here.

const figures = new Map();

/** Records `value` (a number) for `name` in `mode` (distributed | embedded). */
export function recordFigure(mode, name, value) {
  if (typeof value === 'number' && Number.isFinite(value)) figures.set(`${mode}:${name}`, value);
}

/** The figure measured in this run, or undefined when its benchmark did not run. */
export const figure = (mode, name) => figures.get(`${mode}:${name}`);
