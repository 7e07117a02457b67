// Exact percentiles over recorded samples (nearest-rank) and small formatting helpers.

/** Summary of samples in milliseconds: count, min, p50, p90, p99, p999, max, mean. */
export function summarize(samplesMs) {
  const sorted = Float64Array.from(samplesMs).sort();
  const n = sorted.length;
  if (!n) return { count: 0 };
  const at = (p) => sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))];
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: n,
    min: round(sorted[0]),
    p50: round(at(50)),
    p90: round(at(90)),
    p99: round(at(99)),
    p999: round(at(99.9)),
    max: round(sorted[n - 1]),
    mean: round(sum / n),
  };
}

export function round(value, digits = 2) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** A markdown table from a header row and rows of cells. */
export function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.map((c) => String(c ?? '')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
