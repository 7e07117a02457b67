// The series names the committed dashboard (deploy/grafana/paygrid.json) and alert rules
// (deploy/prometheus/alerts.yaml) query, read from their PromQL expressions. Used by
// scripts/check-observability.mjs (documented names) and tests/distributed/metrics.test.ts
// (names the processes really export).

// CommonJS, so the ESM check script and the Jest suites (CommonJS) share it.

const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { parse } = require('yaml');

const SERIES = /\b((?:paygrid|nodejs|process)_[a-z0-9_]+)\b/g;

/** Every PromQL expression of the dashboard and of the rules, with where it comes from. */
function expressions(root) {
  const dashboard = JSON.parse(readFileSync(join(root, 'deploy/grafana/paygrid.json'), 'utf8'));
  const rules = parse(readFileSync(join(root, 'deploy/prometheus/alerts.yaml'), 'utf8'));
  const found = [];
  for (const panel of dashboard.panels) {
    for (const target of panel.targets ?? [])
      found.push({ where: `panel "${panel.title}"`, expr: target.expr });
  }
  for (const variable of dashboard.templating.list) {
    if (variable.type === 'query')
      found.push({ where: `variable ${variable.name}`, expr: variable.definition });
  }
  for (const group of rules.groups) {
    for (const rule of group.rules) found.push({ where: `alert ${rule.alert}`, expr: rule.expr });
  }
  return { dashboard, rules, found };
}

/** The series names an expression reads. */
function seriesOf(expr) {
  return [...new Set([...String(expr).matchAll(SERIES)].map((m) => m[1]))];
}

module.exports = { expressions, seriesOf };
