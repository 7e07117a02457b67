#!/usr/bin/env bash
# Validates e-invoices (UBL or CII XML, Factur-X PDF) with the Mustang project's validator
# (org.mustangproject:validator 2.16.2 from Maven Central) against EN 16931: prints each
# report, exits 1 unless every file is completely valid. Needs a JDK 17+ (Validate.java runs
# in source-file mode, which needs the compiler) and Maven; on a Debian machine without them
# it installs openjdk-17-jdk-headless and maven (apt-get, as root or with passwordless sudo,
# as scripts/ensure-chromium.sh does), else stops with the command to run. The class path is
# resolved once into PAYGRID_TOOLS_CACHE (about 40 MB of jars; the first run takes ~1 min).
# `validate.sh --prepare` only installs and resolves (CI runs it before the suites).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

if ! command -v javac >/dev/null 2>&1 || ! command -v mvn >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      SUDO="sudo -n"
    else
      echo "The e-invoice validator needs a JDK and Maven: sudo apt-get install -y openjdk-17-jdk-headless maven" >&2
      exit 1
    fi
  fi
  command -v apt-get >/dev/null 2>&1 || { echo "The e-invoice validator needs a JDK 17+ and Maven." >&2; exit 1; }
  echo "[einvoice] installing openjdk-17-jdk-headless and maven (Debian packages)" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get -o DPkg::Lock::Timeout=300 update -q >&2
  $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends openjdk-17-jdk-headless maven >&2
fi

cache="${PAYGRID_TOOLS_CACHE:-$HOME/.cache/paygrid-tools}/mustang-2.16.2"
mkdir -p "$cache"
if [ ! -s "$cache/classpath.txt" ]; then
  mvn -q -B -f "$here/pom.xml" dependency:build-classpath -Dmdep.outputFile="$cache/classpath.txt.tmp" >&2
  mv "$cache/classpath.txt.tmp" "$cache/classpath.txt"
fi
[ "${1:-}" = "--prepare" ] && exit 0
# The validator logs through SLF4J without a binding: its warning goes to stderr, reports to stdout.
exec java -Xmx1g -cp "$(cat "$cache/classpath.txt")" "$here/Validate.java" "$@"
