#!/usr/bin/env bash
# The README's test command runs browser tests in Debian's Chromium (playwright-core drives
# it; it ships no browser of its own). On a fresh machine this installs the package before any
# suite starts (apt-get, as root or with passwordless sudo, as infra/infra-up.sh does for
# PostgreSQL); where it cannot, it stops at once with the one command to run.
set -euo pipefail
CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$CHROMIUM_PATH" ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    echo "The browser tests need Chromium at $CHROMIUM_PATH. Install it with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y chromium" >&2
    exit 1
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "The browser tests need Chromium at $CHROMIUM_PATH (no apt-get here: install it with your package manager, or set CHROMIUM_PATH)." >&2
  exit 1
fi
echo "[test] installing Chromium for the browser tests (Debian package 'chromium')" >&2
log="$(mktemp)"
export DEBIAN_FRONTEND=noninteractive
if ! { $SUDO apt-get -o DPkg::Lock::Timeout=300 update -q \
       && $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends chromium; } >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  echo "Installing Chromium failed (full log: $log). Install it with: sudo apt-get update && sudo apt-get install -y chromium" >&2
  exit 1
fi
rm -f "$log"
[ -x "$CHROMIUM_PATH" ] || { echo "chromium installed but not at $CHROMIUM_PATH; set CHROMIUM_PATH" >&2; exit 1; }
