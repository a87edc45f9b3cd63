#!/usr/bin/env bash
# Fails when what a browser downloads first grows past its budget: the
# brotli copies the build stored of the wasm, the page script and the
# stylesheet (`scripts/build.sh --wasm-release` or `--release`). The whole
# first visit, as Chromium counts it, is checked by
# end2end/tests/performance.spec.js (≤ 600 KB with the map's data).
set -euo pipefail
cd "$(dirname "$0")/.."
site=${1:-target/site}
# The wasm's share of the first visit's 600 KB (with the page, script,
# stylesheet, drawing, status letters and icon: about 45 KB more).
declare -A budget=([wasm]=530000 [js]=12000 [css]=6000)
status=0
while read -r kind hash; do
  kind=${kind%:}
  file="$site/pkg/holdfast.$hash.$kind.br"
  if [ ! -f "$file" ]; then
    echo "size budget: $file is missing (build with --wasm-release)" >&2
    exit 1
  fi
  size=$(stat -c %s "$file")
  limit=${budget[$kind]}
  verdict=ok
  if [ "$size" -gt "$limit" ]; then verdict="OVER"; status=1; fi
  printf 'size budget: %-5s %8d bytes brotli (budget %d) %s\n' "$kind" "$size" "$limit" "$verdict"
done < "$site/hash.txt"
exit $status
