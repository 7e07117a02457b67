#!/usr/bin/env bash
# Stop the PostgreSQL, Redis, Kafka and stripe-mock started by infra-up.sh. Idempotent; data is kept.
#   bash infra/infra-down.sh           # stop, keep data
#   bash infra/infra-down.sh --purge   # stop and delete all state (data, jars, logs)
# Only processes started from this state dir are stopped; servers that infra-up.sh merely
# reused (already listening on the port) are left alone.
set -euo pipefail

_infra_tag=infra-down
# shellcheck source=lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

PURGE=0
for arg in "$@"; do
  case "$arg" in
    --purge) PURGE=1 ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $arg" ;;
  esac
done

T0=$SECONDS
if [ "$PURGE" = 1 ] && [ "$INFRA_SERVICES" != "$INFRA_SERVICES_ALL" ]; then
  die "--purge removes all state; do not combine it with INFRA_SERVICES"
fi

if [ ! -d "$STATE_DIR" ]; then
  log "nothing to do: $STATE_DIR does not exist"
  exit 0
fi

# Kafka first (clients of the others may log noise otherwise; it also takes longest).
if ! service_enabled kafka; then :
elif pid="$(live_pid "$KAFKA_PIDFILE" kafka.Kafka)"; then
  log "kafka: stopping pid $pid (controlled shutdown)"
  stop_pid "$pid" 60
  rm -f "$KAFKA_PIDFILE"
else
  log "kafka: not running"
  rm -f "$KAFKA_PIDFILE"
fi

if ! service_enabled stripe-mock; then :
elif pid="$(live_pid "$STRIPE_MOCK_PIDFILE" stripe-mock)"; then
  log "stripe-mock: stopping pid $pid"
  stop_pid "$pid" 10
  rm -f "$STRIPE_MOCK_PIDFILE"
else
  log "stripe-mock: not running"
  rm -f "$STRIPE_MOCK_PIDFILE"
fi

if ! service_enabled redis; then :
elif pid="$(live_pid "$REDIS_PIDFILE" redis-server)"; then
  log "redis: stopping pid $pid"
  stop_pid "$pid" 20
  rm -f "$REDIS_PIDFILE"
else
  log "redis: not running"
  rm -f "$REDIS_PIDFILE"
fi

# PostgreSQL: location as infra-up.sh chose it.
if [ -n "${INFRA_PG_DIR:-}" ]; then
  PG_BASE="$INFRA_PG_DIR"
elif [ -s "$STATE_DIR/postgres.location" ]; then
  PG_BASE="$(cat "$STATE_DIR/postgres.location")"
else
  PG_BASE="$STATE_DIR/postgres"
fi
PGDATA_DIR="$PG_BASE/data"
if ! service_enabled postgres; then :
elif [ -f "$PGDATA_DIR/PG_VERSION" ] && as_pg "$PG_BIN/pg_ctl" status -D "$PGDATA_DIR" >/dev/null 2>&1; then
  log "postgres: stopping ($PGDATA_DIR)"
  as_pg "$PG_BIN/pg_ctl" stop -D "$PGDATA_DIR" -m fast -w -t 60 -s </dev/null >&2
else
  log "postgres: not running"
fi

if [ "$PURGE" = 1 ]; then
  if [ "$PG_BASE" != "$STATE_DIR/postgres" ] && [ -d "$PG_BASE" ]; then
    log "purging $PG_BASE"
    rm -rf "$PG_BASE"
    rmdir "$(dirname "$PG_BASE")" 2>/dev/null || true   # paygrid-infra/, if now empty
  fi
  log "purging $STATE_DIR"
  rm -rf "$STATE_DIR"
fi
log "done in $((SECONDS - T0))s"
