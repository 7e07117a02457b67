#!/usr/bin/env bash
# Checks the committed Grafana dashboard and Prometheus alert rules: the static checks of
# scripts/check-observability.mjs (well-formed, every series documented), then promtool's own:
# `check rules` (PromQL parses, templates render) and `test rules` with
# deploy/prometheus/alerts.test.yaml (each alert fires on the series that should raise it).
# promtool comes from Debian's prometheus package, unpacked into the tools cache with
# `apt-get download` + `dpkg -x` (a few seconds, no install scripts run, so no Prometheus server
# is set up or started). Building it from the Prometheus Go module instead took about 35 minutes
# of compilation from an empty Go cache on this 2-core machine (promtool links every
# service-discovery SDK), too much for CI. Debian's 2.42 reads and unit-tests these rules as
# 3.x does. That every queried series is really exported is tests/distributed/metrics.test.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="${PAYGRID_TOOLS_DIR:-${HOME:-/tmp}/.cache/paygrid-tools}"
log() { printf '[check-observability] %s\n' "$*" >&2; }

node scripts/check-observability.mjs

PROMTOOL="$TOOLS/prometheus-deb/usr/bin/promtool"
if [ ! -x "$PROMTOOL" ]; then
  log "unpacking promtool from Debian's prometheus package"
  work="$(mktemp -d)"
  chmod 0755 "$work" # apt's download user must be able to write there
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo -n"
  (cd "$work" && { $SUDO apt-get download prometheus >/dev/null 2>&1 \
    || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get download prometheus >/dev/null; }; })
  rm -rf "$TOOLS/prometheus-deb"
  mkdir -p "$TOOLS"
  dpkg -x "$work"/prometheus_*.deb "$TOOLS/prometheus-deb"
  rm -rf "$work"
fi
"$PROMTOOL" check rules deploy/prometheus/alerts.yaml
(cd deploy/prometheus && "$PROMTOOL" test rules alerts.test.yaml)
log ok
