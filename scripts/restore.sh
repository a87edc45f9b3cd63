#!/usr/bin/env bash
# Restores what scripts/backup.sh took (docs/OPERATIONS.md, "Backups and
# restores").
#
#   scripts/restore.sh postgres DIR PGDATA --to TIME
#       the latest base backup in DIR/base taken before TIME, into the
#       empty (or absent) directory PGDATA, set to replay DIR/wal up to
#       TIME and then become a primary. Start Postgres on PGDATA (as its
#       `postgres` user) to run the replay; it promotes itself at TIME.
#       TIME as Postgres reads it: "2026-12-07 06:00:00+00"; a commit after
#       it must be in the archive (the replay stops there). Archiving is
#       left off in the copy: turn it on once this copy is the one kept.
#   scripts/restore.sh sqlite BACKUP FILE
#       BACKUP in place of the database FILE, with Holdfast stopped; the
#       file it replaces (and its -wal and -shm) kept beside it as
#       FILE.before-restore-<UTC time>.
set -euo pipefail
kind=${1:?postgres|sqlite}
started=$(date +%s.%N)
took() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f} s')" "$started" "$(date +%s.%N)"; }

case "$kind" in
postgres)
  dir=${2:?backup directory}
  pgdata=${3:?new data directory}
  [ "${4:-}" = --to ] || { echo "usage: scripts/restore.sh postgres DIR PGDATA --to TIME" >&2; exit 2; }
  target=${5:?TIME}
  target_stamp=$(date -u -d "$target" +%Y%m%dT%H%M%SZ)
  base=$(ls "$dir/base" 2>/dev/null | sort | awk -v t="$target_stamp" '$0 < t' | tail -n1)
  [ -n "$base" ] || { echo "!! no base backup in $dir/base before $target" >&2; exit 1; }
  if [ -d "$pgdata" ] && [ -n "$(ls -A "$pgdata")" ]; then
    echo "!! $pgdata is not empty: restore into a new directory" >&2
    exit 1
  fi
  mkdir -p "$pgdata"
  tar -xzf "$dir/base/$base/base.tar.gz" -C "$pgdata"
  mkdir -p "$pgdata/pg_wal"
  wal=$(cd "$dir/wal" && pwd)
  cat >>"$pgdata/postgresql.auto.conf" <<CONF
# Set by scripts/restore.sh: replay the archive up to the target, then
# become a primary. Archiving stays off in a restored copy until it is the
# one kept.
restore_command = 'cp $wal/%f %p'
recovery_target_time = '$target'
recovery_target_action = 'promote'
archive_mode = 'off'
CONF
  touch "$pgdata/recovery.signal"
  chmod 700 "$pgdata"
  [ "$(id -u)" = 0 ] && chown -R postgres "$pgdata"
  echo "restored base backup $base into $pgdata, to replay until $target ($(took)); start Postgres on it"
  ;;
sqlite)
  backup=${2:?backup file}
  file=${3:?database file}
  [ -s "$backup" ] || { echo "!! $backup is missing or empty" >&2; exit 1; }
  aside="$file.before-restore-$(date -u +%Y%m%dT%H%M%SZ)"
  kept=
  for part in "" -wal -shm; do
    if [ -e "$file$part" ]; then
      mv "$file$part" "$aside$part"
      kept="; the file it replaced is $aside"
    fi
  done
  cp "$backup" "$file.restoring"
  mv "$file.restoring" "$file"
  echo "restored $backup into $file ($(took))$kept"
  ;;
*)
  echo "usage: scripts/restore.sh postgres DIR PGDATA --to TIME | sqlite BACKUP FILE" >&2
  exit 2
  ;;
esac
