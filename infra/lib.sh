# shellcheck shell=bash disable=SC2034,SC2016
# Shared configuration and helpers for infra-up.sh / infra-down.sh.
# Sourced, never executed directly. All messages go to stderr.

INFRA_STATE_DIR="${INFRA_STATE_DIR:-${HOME:-/tmp}/.cache/paygrid-infra}"
STATE_DIR="$INFRA_STATE_DIR"

PG_PORT="${PG_PORT:-5432}"
REDIS_PORT="${REDIS_PORT:-6379}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
STRIPE_MOCK_PORT="${STRIPE_MOCK_PORT:-12111}"

# Which services to manage (space separated subset of: postgres redis kafka stripe-mock).
INFRA_SERVICES_ALL="postgres redis kafka stripe-mock"
INFRA_SERVICES="${INFRA_SERVICES:-$INFRA_SERVICES_ALL}"

# PostgreSQL 15 from Debian. Always use the versioned bin dir: /usr/local/bin/pg_ctl
# (or the postgresql-common wrappers in /usr/bin) may be something else.
PG_VERSION_MAJOR=15
PG_BIN="/usr/lib/postgresql/${PG_VERSION_MAJOR}/bin"
PG_APP_USER=paygrid
PG_APP_PASSWORD=paygrid
PG_APP_DB=paygrid

# Kafka (jars resolved from Maven Central with Maven).
KAFKA_VERSION="${KAFKA_VERSION:-3.9.1}"
KAFKA_FALLBACK_VERSION="${KAFKA_FALLBACK_VERSION:-3.9.0}"
KAFKA_SCALA_VERSION=2.13
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-180}"
KAFKA_FRESH_STORAGE="${KAFKA_FRESH_STORAGE:-0}"
KAFKA_DIR="$STATE_DIR/kafka"
KAFKA_LIBS="$KAFKA_DIR/libs"
KAFKA_PIDFILE="$KAFKA_DIR/kafka.pid"

REDIS_DIR="$STATE_DIR/redis"
REDIS_PIDFILE="$REDIS_DIR/redis.pid"

# Stripe's mock server (a Go module built into the tools cache by infra/stripe-mock.sh).
STRIPE_MOCK_DIR="$STATE_DIR/stripe-mock"
STRIPE_MOCK_PIDFILE="$STRIPE_MOCK_DIR/stripe-mock.pid"

_infra_tag="${_infra_tag:-infra}"
log() { printf '[%s] %s\n' "$_infra_tag" "$*" >&2; }
die() { printf '[%s] ERROR: %s\n' "$_infra_tag" "$*" >&2; exit 1; }

service_enabled() { case " $INFRA_SERVICES " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# OS user that owns and runs the PostgreSQL cluster. postgres refuses to run as root,
# so as root we use the Debian `postgres` account; otherwise the current user.
if is_root; then PG_OS_USER=postgres; else PG_OS_USER="$(id -un)"; fi

# Run a command as the PostgreSQL OS user (from / so an unreadable cwd such as
# /root does not produce warnings).
as_pg() {
  if is_root; then
    (cd / && runuser -u "$PG_OS_USER" -- "$@")
  else
    (cd / && "$@")
  fi
}

# Where the PostgreSQL cluster lives. Normally $STATE_DIR/postgres, but when running
# as root with a state dir under a private home (e.g. /root is mode 700) the
# `postgres` account cannot reach it, so the cluster goes to
# /var/lib/postgresql/paygrid-infra/<hash of state dir> instead (recorded in
# $STATE_DIR/postgres.location). INFRA_PG_DIR overrides both.
pg_base_dir() {
  if [ -n "${INFRA_PG_DIR:-}" ]; then
    printf '%s\n' "$INFRA_PG_DIR"
  elif ! is_root; then
    printf '%s\n' "$STATE_DIR/postgres"
  elif [ -d "$STATE_DIR" ] && id "$PG_OS_USER" >/dev/null 2>&1 \
       && (cd / && runuser -u "$PG_OS_USER" -- test -x "$STATE_DIR") 2>/dev/null; then
    printf '%s\n' "$STATE_DIR/postgres"
  else
    local h
    h="$(printf '%s' "$STATE_DIR" | md5sum | cut -c1-12)"
    printf '%s\n' "/var/lib/postgresql/paygrid-infra/$h"
  fi
}

# True if something accepts TCP connections on 127.0.0.1:$1.
port_open() {
  timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"' _ "$1" >/dev/null 2>&1
}

# Prints the pid from pidfile $1 if that process is alive and its command line
# contains $2; returns 1 otherwise.
live_pid() {
  local pidfile="$1" pattern="$2" pid
  [ -s "$pidfile" ] || return 1
  pid="$(tr -dc '0-9' <"$pidfile")"
  [ -n "$pid" ] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$pattern" || return 1
  printf '%s\n' "$pid"
}

# Minimal Kafka wire-protocol client in bash (no JVM, answers in milliseconds):
# send the request bytes $2 (a printf format with \x escapes, size prefix included) to
# 127.0.0.1:$1 and print the first $3 bytes of the response as hex.
kafka_rpc() {
  timeout 5 bash -c '
      exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
      printf "$2" >&3
      head -c "$3" <&3 | od -An -tx1 | tr -d " \n"
    ' _ "$1" "$2" "$3" 2>/dev/null
}
# All requests use correlation_id 0x50415947 ("PAYG") and client_id "infra".
KAFKA_REQ_HDR='\x00\x00\x50\x41\x59\x47\x00\x05infra'   # api_version=0 | correlation_id | client_id

# ApiVersions v0 (key 18): the broker answers with error_code 0.
kafka_probe() {
  local hex
  hex="$(kafka_rpc "${1:-$KAFKA_PORT}" "\x00\x00\x00\x0f\x00\x12$KAFKA_REQ_HDR" 10)" || return 1
  [ "${hex:8:12}" = "504159470000" ]     # correlation_id | error_code=0
}

# FindCoordinator v0 (key 10) for group "infra-warmup": error_code 0 once the group
# coordinator is up (the first call also makes the broker create __consumer_offsets).
kafka_group_coordinator_ok() {
  local hex
  hex="$(kafka_rpc "${1:-$KAFKA_PORT}" "\x00\x00\x00\x1d\x00\x0a$KAFKA_REQ_HDR\x00\x0cinfra-warmup" 10)" || return 1
  [ "${hex:8:12}" = "504159470000" ]     # correlation_id | error_code=0
}

# InitProducerId v0 (key 22), transactional_id=null: error_code 0 once the broker can hand
# out producer ids (what idempotent producers ask for first).
kafka_producer_id_ok() {
  local hex
  hex="$(kafka_rpc "${1:-$KAFKA_PORT}" "\x00\x00\x00\x15\x00\x16$KAFKA_REQ_HDR\xff\xff\x00\x00\xea\x60" 14)" || return 1
  [ "${hex:8:8}" = "50415947" ] && [ "${hex:24:4}" = "0000" ]   # correlation_id | throttle | error_code=0
}

redis_ping() {
  if command -v redis-cli >/dev/null 2>&1; then
    [ "$(timeout 3 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = "PONG" ]
  else
    local r
    r="$(timeout 3 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1; printf "PING\r\n" >&3; head -c 5 <&3' _ "$REDIS_PORT" 2>/dev/null)" || return 1
    [ "$r" = "+PONG" ]
  fi
}

pg_app_ok() {
  PGPASSWORD="$PG_APP_PASSWORD" PGCONNECT_TIMEOUT=3 \
    "$PG_BIN/psql" -X -h 127.0.0.1 -p "$PG_PORT" -U "$PG_APP_USER" -d "$PG_APP_DB" -Atqc 'select 1' \
    >/dev/null 2>&1
}

# Stop process $1 with SIGTERM, waiting up to $2 seconds, then SIGKILL.
stop_pid() {
  local pid="$1" wait_s="${2:-30}" i=0
  kill -TERM "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$i" -ge "$((wait_s * 5))" ]; then
      log "pid $pid did not stop after ${wait_s}s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.2
    i=$((i + 1))
  done
}
