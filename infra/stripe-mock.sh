#!/usr/bin/env bash
# Stripe's official mock server (a Go module) for the Stripe connector's tests: built once into
# the tools cache, with fixture files that drive the succeeded / requires_action / declined
# PaymentIntent outcomes (infra/stripe-mock-fixtures.mjs).
#
#   bash infra/stripe-mock.sh install   # prints STRIPE_MOCK_BIN=... and STRIPE_MOCK_FIXTURES=...
#
# infra-up.sh uses it to start the shared instance; the test helper (tests/support/stripe-mock.ts)
# uses it to find the binary and starts one instance per fixture set on a free port.
# Knobs (env): PAYGRID_TOOLS_DIR (default ~/.cache/paygrid-tools), STRIPE_MOCK_VERSION.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="${PAYGRID_TOOLS_DIR:-${HOME:-/tmp}/.cache/paygrid-tools}"
VERSION="${STRIPE_MOCK_VERSION:-v0.197.0}"
BIN="$TOOLS/go-bin/stripe-mock"
FIXTURES="$TOOLS/stripe-mock-fixtures/$VERSION"
log() { printf '[stripe-mock] %s\n' "$*" >&2; }

case "${1:-install}" in
  install) ;;
  *) echo "usage: $0 install" >&2; exit 2 ;;
esac

command -v go >/dev/null 2>&1 || { log "go is not installed (Debian: golang-go)"; exit 1; }
mkdir -p "$TOOLS/go-bin"
# The version is pinned: a binary of another version is rebuilt.
if [ ! -x "$BIN" ] || [ "$(cat "$TOOLS/go-bin/stripe-mock.version" 2>/dev/null)" != "$VERSION" ]; then
  log "building github.com/stripe/stripe-mock@$VERSION (about a minute on a cold module cache)"
  t0=$SECONDS
  (cd /tmp && GOBIN="$TOOLS/go-bin" GOFLAGS=-mod=mod go install "github.com/stripe/stripe-mock@$VERSION")
  echo "$VERSION" >"$TOOLS/go-bin/stripe-mock.version"
  log "built in $((SECONDS - t0))s"
fi
if [ ! -f "$FIXTURES/succeeded.json" ]; then
  bundled="$(go env GOMODCACHE)/github.com/stripe/stripe-mock@$VERSION/embedded/openapi/fixtures3.json"
  if [ ! -f "$bundled" ]; then
    (cd /tmp && GOFLAGS=-mod=mod go mod download "github.com/stripe/stripe-mock@$VERSION")
  fi
  node infra/stripe-mock-fixtures.mjs "$bundled" "$FIXTURES" >/dev/null
fi
echo "STRIPE_MOCK_BIN=$BIN"
echo "STRIPE_MOCK_FIXTURES=$FIXTURES"
