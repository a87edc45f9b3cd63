#!/usr/bin/env bash
# Fails when what a browser downloads first grows past its budget: the
# brotli copies the build stored of the wasm, the page script and the
# stylesheet (`scripts/build.sh --wasm-release` or `--release`). The whole
# first visit, as Chromium counts it, is checked by
# end2end/tests/performance.spec.js (≤ 600 KB with the map's data).
set -euo pipefail
cd "$(dirname "$0")/.."
site=${1:-target/site}
# The buyer's bundle: the wasm's share of the first visit's 600 KB, the
# page script and the stylesheet (the page itself, the drawing, the status
# letters and the icon take the rest). Raising a budget is a decision,
# recorded with its reason in the commit message that raises it.
declare -A budget=([wasm]=500000 [js]=12000 [css]=6200)
# The console's wasm (every page and the console, sent only with the pages
# under /admin): not part of a buyer's visit; kept from growing unnoticed.
declare -A console_budget=([wasm]=790000 [js]=12000)
status=0
check() {
  local bundle=$1 hash_file=$2 budget_name=$3
  local -n limits=$budget_name
  while read -r kind hash; do
    kind=${kind%:}
    file="$site/pkg/$bundle.$hash.$kind.br"
    if [ ! -f "$file" ]; then
      echo "size budget: $file is missing (build with --wasm-release)" >&2
      exit 1
    fi
    size=$(stat -c %s "$file")
    limit=${limits[$kind]}
    verdict=ok
    if [ "$size" -gt "$limit" ]; then verdict="OVER"; status=1; fi
    printf 'size budget: %-16s %-5s %8d bytes brotli (budget %d) %s\n' "$bundle" "$kind" "$size" "$limit" "$verdict"
  done < "$site/$hash_file"
}
check holdfast hash.txt budget
check holdfast-console hash-console.txt console_budget
exit $status
