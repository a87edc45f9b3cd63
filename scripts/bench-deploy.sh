#!/usr/bin/env bash
# The deployment's figures (docs/BENCHMARKS.md, "Behind nginx" and
# "Backups"), from a release build:
#
# 1. Requests per second through nginx (deploy/nginx/holdfast.conf, two
#    instances, TLS, HTTP/2) of the status letters of the 10,000-seat
#    arena, next to /healthz through the same nginx in the same run, and
#    both straight to one instance: what the proxy costs, as a ratio to
#    the machine's own limit (h2load, 64 clients, 10 streams each).
# 2. How long a backup and a restore take, on the demo data and on a
#    sold-out 50,000-seat stadium (sold by the on-sale simulator): Postgres
#    (base backup; restore to a moment including the WAL replay) and
#    SQLite (`holdfast backup` while serving; restore).
#
#   scripts/bench-deploy.sh [--no-build]     (--no-build: the release build there is)
set -euo pipefail
# A step failing inside $( … ) stops the bench too.
shopt -s inherit_errexit
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/lib.sh
use_build_dir
work="$root/.tmp/bench-deploy-$$"
mkdir -p "$work"
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
restored=
cleanup() {
  scripts/nginx.sh stop "$work/nginx"
  stop_started
  [ -n "$restored" ] && as_pg "$pgbin/pg_ctl" -D "$restored" -m immediate -w stop >/dev/null 2>&1 || true
  scripts/pg.sh stop "$work/pg" >/dev/null 2>&1 || true
}
trap cleanup EXIT
if [ "${1:-}" != --no-build ]; then
  cargo build --release -p holdfast -p holdfast-bench --no-default-features --features holdfast/ssr --bin holdfast --bin holdfast-bench
fi
command -v h2load >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nghttp2-client >/dev/null
bin=target/release/holdfast
bench=target/release/holdfast-bench
token=bench-deploy-admin-token
env_common=(LEPTOS_SITE_ROOT=target/site ADMIN_TOKEN=$token RATE_LIMIT_IP_PER_MINUTE=0
  RATE_LIMIT_SESSION_PER_MINUTE=0 TRUSTED_PROXIES=127.0.0.1 RUST_LOG=warn)
seconds() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }

# Postgres archiving its WAL, as docs/OPERATIONS.md sets it up.
url=$(scripts/pg.sh start "$work/pg")
scripts/pg.sh archive "$work/pg" "$work/backup/wal"

echo "==> requests per second through nginx (h2load: 60,000 requests, 60 clients × 10 streams)"
for i in 1 2; do
  start_holdfast "port$i" "pid$i" "$work/holdfast-$i.log" "$bin" DATABASE_URL="$url" "${env_common[@]}"
done
read -r tls _ < <(scripts/nginx.sh start "$work/nginx" "$port1" "$port2")
# 1,000 requests a client: nginx ends an HTTP/2 connection after 1,000
# (keepalive_requests), and h2load does not open another.
rps() { # [--h1] URL
  h2load -n 60000 -c 60 -m 10 -H 'Accept-Encoding: gzip, br' "$@" 2>/dev/null \
    | awk '/^finished in/ { gsub(",", "", $4); print $4 }'
}
statuses="/api/events/1/seats/status"
printf '| %-44s | %10s |\n' "what" "req/s"
printf '| %-44s | %10s |\n' "/healthz through nginx (TLS, HTTP/2)" "$(rps "https://127.0.0.1:$tls/healthz")"
printf '| %-44s | %10s |\n' "status letters through nginx (TLS, HTTP/2)" "$(rps "https://127.0.0.1:$tls$statuses")"
printf '| %-44s | %10s |\n' "/healthz straight to one instance (HTTP/1.1)" "$(rps --h1 "http://127.0.0.1:$port1/healthz")"
printf '| %-44s | %10s |\n' "status letters straight to one instance (HTTP/1.1)" "$(rps --h1 "http://127.0.0.1:$port1$statuses")"
scripts/nginx.sh stop "$work/nginx"
kill "$pid2"

echo "==> backups: the demo data"
backup_pg() { # label (its first word names the directories)
  local t0 slug=${1%% *}
  t0=$(date +%s.%N)
  scripts/backup.sh postgres "$url" "$work/backup" >/dev/null
  local took_backup size
  took_backup=$(seconds "$t0")
  size=$(du -sh "$work/backup/base/$(ls "$work/backup/base" | sort | tail -n1)" | cut -f1)
  local target
  target=$("$pgbin/psql" -qAtX "$url" -c "select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'")
  # Recovery stops at the first commit after the target: one must exist.
  "$pgbin/psql" -qAtX "$url" -c "create table if not exists bench_marker (at timestamptz); insert into bench_marker values (now())" >/dev/null
  local segment
  segment=$("$pgbin/psql" -qAtX "$url" -c "select pg_walfile_name(pg_switch_wal())")
  until [ -f "$work/backup/wal/$segment" ]; do sleep 0.1; done
  restored="$work/restored-$slug"
  t0=$(date +%s.%N)
  scripts/restore.sh postgres "$work/backup" "$restored" --to "$target" >/dev/null
  local rport
  rport=$(free_port)
  mkdir -p "$work/run-$slug" && { [ "$(id -u)" != 0 ] || chown postgres "$work/run-$slug"; }
  as_pg "$pgbin/pg_ctl" -D "$restored" -l "$work/run-$slug/log" -w -t 600 \
    -o "-h 127.0.0.1 -p $rport -k $work/run-$slug -c max_connections=300" start >/dev/null
  local waited=0
  until [ "$("$pgbin/psql" -qAtX "postgres://postgres@127.0.0.1:$rport/postgres" -c 'select pg_is_in_recovery()' 2>/dev/null)" = f ]; do
    sleep 0.1
    waited=$((waited + 1))
    [ "$waited" -lt 6000 ] || { echo "!! the restored cluster did not finish its replay in 10 minutes" >&2; return 1; }
  done
  local took_restore
  took_restore=$(seconds "$t0")
  as_pg "$pgbin/pg_ctl" -D "$restored" -m fast -w stop >/dev/null
  restored=
  printf '| Postgres, %-22s | %8s | %10s s | %10s s |\n' "$1" "$size" "$took_backup" "$took_restore"
}
backup_sqlite() { # label database-file
  local t0 took_backup took_restore size slug=${1%% *}
  t0=$(date +%s.%N)
  DATABASE_URL="sqlite://$2" "$bin" backup "$work/$slug.db" >/dev/null
  took_backup=$(seconds "$t0")
  size=$(du -sh "$work/$slug.db" | cut -f1)
  t0=$(date +%s.%N)
  scripts/restore.sh sqlite "$work/$slug.db" "$work/$slug-restored.db" >/dev/null
  took_restore=$(seconds "$t0")
  printf '| SQLite, %-24s | %8s | %10s s | %10s s |\n' "$1" "$size" "$took_backup" "$took_restore"
}
results=()
results+=("$(backup_pg demo)")
start_holdfast sp spid "$work/sqlite.log" "$bin" DATABASE_URL="sqlite://$work/live.db" "${env_common[@]}"
results+=("$(backup_sqlite demo "$work/live.db")")

echo "==> a 50,000-seat stadium sold out (the on-sale simulator), then its backups"
sell_out() { # base-url database-url
  local event
  event=$("$bench" stadium-event "$2")
  "$bench" simulate --targets "$1" --database "$2" --event "$event" --buyers 60000 \
    --concurrency 256 --arrival 5 --admin-token "$token" --abandon 0 --late 0 --declined 0 \
    >"$work/stadium-$event.log" || { tail -n 20 "$work/stadium-$event.log"; return 1; }
  grep -E "sold out|bookings" "$work/stadium-$event.log" | head -n 3 >&2
}
sell_out "http://127.0.0.1:$port1" "$url"
results+=("$(backup_pg "stadium (sold out)")")
sell_out "http://127.0.0.1:$sp" "sqlite://$work/live.db"
results+=("$(backup_sqlite "stadium (sold out)" "$work/live.db")")

echo
printf '| %-32s | %8s | %12s | %12s |\n' "database" "backup" "backup took" "restore took"
printf '%s\n' "${results[@]}"
