#!/usr/bin/env bash
# Checks the committed Grafana dashboard and Prometheus alert rules: the static checks of
# scripts/check-observability.mjs (well-formed, every series documented), then promtool's own:
# `check rules` (PromQL parses, templates render) and `test rules` with
# deploy/prometheus/alerts.test.yaml (each alert fires on the series that should raise it).
# promtool is built once from the Prometheus Go module into the tools cache. Prometheus's
# go.mod has exclude directives, which `go install pkg@version` refuses, so it is built from a
# small module of ours that requires it. Cost, measured on the 2-core development machine
# under a load average of 15-26 (other test runs): about 35 minutes of compilation from an
# empty Go cache (promtool links every service-discovery SDK: AWS, Azure, GCE, Kubernetes...),
# 45 s with a warm Go build cache, 1 s once built; expect well under that on an idle CI machine,
# but it is the slowest tool of the tools cache. That every queried series is really exported
# is tests/distributed/metrics.test.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="${PAYGRID_TOOLS_DIR:-${HOME:-/tmp}/.cache/paygrid-tools}"
BIN="$TOOLS/go-bin"
PROMETHEUS_VERSION=v0.307.3 # Prometheus 3.7.3
log() { printf '[check-observability] %s\n' "$*" >&2; }

node scripts/check-observability.mjs

mkdir -p "$BIN"
if [ ! -x "$BIN/promtool" ]; then
  log "building promtool (Go module github.com/prometheus/prometheus $PROMETHEUS_VERSION, several minutes once)"
  mod="$TOOLS/promtool-module"
  mkdir -p "$mod"
  (
    cd "$mod"
    [ -f go.mod ] || go mod init paygrid-tools/promtool >/dev/null 2>&1
    go get "github.com/prometheus/prometheus/cmd/promtool@$PROMETHEUS_VERSION" >/dev/null 2>&1
    go build -o "$BIN/promtool" github.com/prometheus/prometheus/cmd/promtool
  )
fi
"$BIN/promtool" check rules deploy/prometheus/alerts.yaml
(cd deploy/prometheus && "$BIN/promtool" test rules alerts.test.yaml)
log ok
