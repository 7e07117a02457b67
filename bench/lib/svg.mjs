// A line chart as a standalone SVG file, for the curves of the benchmark report (curves.mjs).
// Written here rather than taken from a charting library: four small charts of a few points
// each need axes, ticks, lines and a legend, which is ~100 lines of string building; the
// libraries made for it (Vega, Chart.js, D3) need a DOM or a canvas in Node, or bring a
// renderer and dozens of dependencies to the bench for that.
//
//   lineChart({ title, xLabel, yLabel, x: [1, 4, 16, 64], xLog: true,
//               series: [{ name: 'checkouts/s', values: [..] }], yRight: { ... } })
//
// x values are placed on a log scale when `xLog` (connections, rows, endpoints grow by
// factors), else linearly. Each series is drawn against the left axis unless it says
// `axis: 'right'` (e.g. a p99 in ms next to a rate). Missing values (undefined) leave a gap.

const W = 640;
const H = 380;
const M = { top: 48, right: 70, bottom: 56, left: 70 };
const COLORS = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df'];

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Round tick values over [0, max]: about five, at 1, 2 or 5 times a power of ten. */
export function ticks(max) {
  if (!(max > 0)) return [0, 1];
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  if (out[out.length - 1] < max) out.push(Math.round((out[out.length - 1] + step) * 1e6) / 1e6);
  return out;
}

const fmt = (v) => (v >= 1e6 ? `${v / 1e6}M` : v >= 1e3 ? `${v / 1e3}k` : String(Math.round(v * 100) / 100));

export function lineChart({ title, xLabel, yLabel, yRightLabel, x, xLog = true, series, note }) {
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const xs = x.map((v) => (xLog ? Math.log10(v) : v));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const px = (i) => M.left + (x1 === x0 ? plotW / 2 : ((xs[i] - x0) / (x1 - x0)) * plotW);
  const axisMax = (axis) =>
    Math.max(
      0,
      ...series
        .filter((s) => (s.axis ?? 'left') === axis)
        .flatMap((s) => s.values.filter((v) => typeof v === 'number')),
    );
  const left = ticks(axisMax('left'));
  const right = series.some((s) => s.axis === 'right') ? ticks(axisMax('right')) : undefined;
  const py = (v, axis) => {
    const t = axis === 'right' ? right : left;
    return M.top + plotH - (v / t[t.length - 1]) * plotH;
  };
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(title)}</text>`,
  ];
  for (const v of left) {
    const y = py(v, 'left');
    parts.push(
      `<line x1="${M.left}" x2="${M.left + plotW}" y1="${y}" y2="${y}" stroke="#e5e7eb"/>`,
      `<text x="${M.left - 6}" y="${y + 4}" text-anchor="end">${fmt(v)}</text>`,
    );
  }
  if (right)
    for (const v of right)
      parts.push(`<text x="${M.left + plotW + 6}" y="${py(v, 'right') + 4}">${fmt(v)}</text>`);
  x.forEach((v, i) =>
    parts.push(
      `<line x1="${px(i)}" x2="${px(i)}" y1="${M.top + plotH}" y2="${M.top + plotH + 5}" stroke="#333"/>`,
      `<text x="${px(i)}" y="${M.top + plotH + 18}" text-anchor="middle">${fmt(v)}</text>`,
    ),
  );
  parts.push(
    `<line x1="${M.left}" x2="${M.left + plotW}" y1="${M.top + plotH}" y2="${M.top + plotH}" stroke="#333"/>`,
    `<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${M.top + plotH}" stroke="#333"/>`,
    `<text x="${M.left + plotW / 2}" y="${H - 14}" text-anchor="middle">${esc(xLabel)}${xLog ? ' (log scale)' : ''}</text>`,
    `<text transform="translate(16 ${M.top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
  );
  if (right)
    parts.push(
      `<text transform="translate(${W - 12} ${M.top + plotH / 2}) rotate(90)" text-anchor="middle">${esc(yRightLabel ?? '')}</text>`,
    );
  series.forEach((s, k) => {
    const color = COLORS[k % COLORS.length];
    const axis = s.axis ?? 'left';
    let path = '';
    s.values.forEach((v, i) => {
      if (typeof v !== 'number') return;
      path += `${path && typeof s.values[i - 1] === 'number' ? 'L' : 'M'}${px(i).toFixed(1)},${py(v, axis).toFixed(1)} `;
      parts.push(`<circle cx="${px(i).toFixed(1)}" cy="${py(v, axis).toFixed(1)}" r="3.5" fill="${color}"/>`);
    });
    parts.push(
      `<path d="${path.trim()}" fill="none" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
      `<rect x="${M.left + 10}" y="${M.top + 6 + k * 18}" width="14" height="3" fill="${color}"/>`,
      `<text x="${M.left + 30}" y="${M.top + 11 + k * 18}">${esc(s.name)}${axis === 'right' ? ' (right axis)' : ''}</text>`,
    );
  });
  if (note) parts.push(`<text x="${M.left}" y="${H - 2}" font-size="10" fill="#555">${esc(note)}</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
