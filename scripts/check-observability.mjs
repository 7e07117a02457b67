// Static checks of the committed Grafana dashboard and Prometheus alert rules: the dashboard
// is well-formed (unique panel ids, a Prometheus data source variable, a PromQL expression in
// every target, panels within the 24-column grid), every rule has an alert name, an
// expression, a severity and a summary, and every series either queries is one
// docs/observability.md documents (after the histogram suffixes). Whether the processes
// really export them is tests/distributed/metrics.test.ts; promtool's own checks run in
// scripts/check-observability.sh.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import observabilityNames from './lib/observability-names.cjs';

const { expressions, seriesOf } = observabilityNames;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];
const { dashboard, rules, found } = expressions(root);

if (!dashboard.uid || !dashboard.title) problems.push('dashboard: uid and title are required');
if (!dashboard.templating.list.some((v) => v.type === 'datasource' && v.query === 'prometheus'))
  problems.push('dashboard: a Prometheus data source variable is required');
const ids = new Set();
for (const panel of dashboard.panels) {
  if (ids.has(panel.id)) problems.push(`dashboard: panel id ${panel.id} is used twice`);
  ids.add(panel.id);
  const { x, w } = panel.gridPos ?? {};
  if (!(x >= 0 && w > 0 && x + w <= 24))
    problems.push(`dashboard: panel "${panel.title}" is outside the grid`);
  if (panel.type === 'row') continue;
  if (!panel.targets?.length) problems.push(`dashboard: panel "${panel.title}" has no query`);
  if (panel.datasource?.uid !== '${datasource}')
    problems.push(`dashboard: panel "${panel.title}" does not use the datasource variable`);
}
const names = new Set();
for (const group of rules.groups ?? []) {
  for (const rule of group.rules ?? []) {
    if (!rule.alert || !rule.expr) problems.push(`rules: a rule of ${group.name} lacks alert or expr`);
    if (names.has(rule.alert)) problems.push(`rules: ${rule.alert} is defined twice`);
    names.add(rule.alert);
    if (!['critical', 'warning', 'info'].includes(rule.labels?.severity))
      problems.push(`rules: ${rule.alert} needs a severity label (critical, warning, info)`);
    if (!rule.annotations?.summary) problems.push(`rules: ${rule.alert} needs a summary annotation`);
  }
}

const docs = readFileSync(join(root, 'docs/observability.md'), 'utf8');
const documented = (series) => {
  const base = series.replace(/_(bucket|sum|count)$/, '');
  return docs.includes(`\`${series}\``) || docs.includes(`\`${base}\``) || /^(process|nodejs)_/.test(series);
};
for (const { where, expr } of found) {
  if (!expr) problems.push(`${where}: no expression`);
  const series = seriesOf(expr);
  if (!series.length) problems.push(`${where}: queries no Paygrid series`);
  for (const s of series) if (!documented(s)) problems.push(`${where}: ${s} is not in docs/observability.md`);
}

if (problems.length) {
  console.error(`check-observability: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `check-observability: dashboard (${dashboard.panels.length} panels) and ${names.size} alert rules are well-formed; ${found.length} expressions query documented series only`,
);
