#!/usr/bin/env bash
# Backups as docs/OPERATIONS.md ("Backups and restores") sets them up.
#
#   scripts/backup.sh postgres URL DIR
#       a base backup of the cluster at URL into DIR/base/<UTC time>/
#       (tar, gzip). The cluster archives its write-ahead log into DIR/wal
#       (archive_mode = on, archive_command as OPERATIONS.md shows), so a
#       base backup and the archive restore to any moment after it
#       (scripts/restore.sh postgres … --to TIME). Waits until the backup's
#       own WAL is archived: a backup that returned is restorable.
#   scripts/backup.sh sqlite DATABASE_URL FILE
#       an online copy while Holdfast serves (`holdfast backup`: one
#       consistent snapshot, checked before it is kept).
#
# Prints what it wrote and how long it took.
set -euo pipefail
kind=${1:?postgres|sqlite}
root=$(cd "$(dirname "$0")/.." && pwd)
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
started=$(date +%s.%N)
took() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f} s')" "$started" "$(date +%s.%N)"; }

case "$kind" in
postgres)
  url=${2:?URL of the cluster}
  dir=${3:?backup directory, whose wal/ is the archive}
  [ -d "$dir/wal" ] || { echo "!! $dir/wal is not there: the cluster must archive into it first" >&2; exit 1; }
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  mkdir -p "$dir/base"
  # -X none: the WAL comes from the archive (the backup waits for it).
  "$pgbin/pg_basebackup" -d "$url" -D "$dir/base/$stamp" -Ft -z -X none -c fast --no-password
  echo "base backup $dir/base/$stamp ($(du -sh "$dir/base/$stamp" | cut -f1)) in $(took)"
  ;;
sqlite)
  url=${2:?DATABASE_URL of the SQLite database}
  to=${3:?file to write}
  bin=${HOLDFAST_BIN:-$root/target/debug/holdfast}
  DATABASE_URL="$url" "$bin" backup "$to"
  echo "in $(took)"
  ;;
*)
  echo "usage: scripts/backup.sh postgres URL DIR | sqlite DATABASE_URL FILE" >&2
  exit 2
  ;;
esac
