#!/usr/bin/env bash
# A throwaway PostgreSQL for tests: `pg.sh start DIR` initialises a cluster in
# DIR (as the `postgres` user: initdb refuses root), listens on 127.0.0.1 on a
# free port and prints its URL; `pg.sh stop DIR` stops it by its pid file;
# `pg.sh crash DIR` stops it immediately (no checkpoint) and `pg.sh resume
# DIR` starts it again on the same port. `PG_OPTIONS` adds server settings
# (e.g. `-c shared_preload_libraries=pg_stat_statements` for a profile).
# `pg.sh archive DIR WALDIR` turns WAL archiving into WALDIR on (as
# docs/OPERATIONS.md sets it up) and restarts the cluster with it.
set -euo pipefail
cmd=${1:?start|stop|crash|resume|archive}
dir=${2:?directory}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
if [ -z "$bin" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
fi
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "$cmd" in
start)
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  source "$(dirname "$0")/lib.sh"
  port=$(free_port)
  as_pg "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
  echo "-h 127.0.0.1 -p $port -k $dir -c max_connections=300 -c shared_buffers=256MB -c fsync=on -c log_lock_waits=on -c deadlock_timeout=200ms ${PG_OPTIONS:-}" > "$dir/options"
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "$(cat "$dir/options")" start >/dev/null
  echo "postgres://postgres@127.0.0.1:$port/postgres"
  ;;
crash)
  # An immediate stop: no checkpoint, like a power cut; the next start
  # replays the write-ahead log.
  as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
  ;;
resume)
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "$(cat "$dir/options")" start >/dev/null
  ;;
archive)
  wal=${3:?WAL directory}
  mkdir -p "$wal"
  [ "$(id -u)" = 0 ] && chown postgres "$wal"
  port=$(sed -E 's/.*-p ([0-9]+).*/\1/' "$dir/options")
  # A segment is archived once full, or after a minute at most: a restore
  # to a recent moment needs the segment that holds it.
  "$bin/psql" -qX -h 127.0.0.1 -p "$port" -U postgres postgres <<SQL
alter system set archive_mode = on;
alter system set archive_command = 'test ! -f $wal/%f && cp %p $wal/%f';
alter system set archive_timeout = '60s';
SQL
  as_pg "$bin/pg_ctl" -D "$dir/data" -w stop >/dev/null
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "$(cat "$dir/options")" start >/dev/null
  ;;
stop)
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || kill "$(head -n1 "$dir/data/postmaster.pid")" || true
  fi
  ;;
esac
