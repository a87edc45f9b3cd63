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
# stylesheet, drawing, status letters and icon: about 45 KB more). Raised
# from 530,000 with the buyer page of issue 20 (best-seat filters, tooltip,
# phone bar, live standing places, bookings that say what and when): 535 KB
# measured; a view costs Leptos both a hydrate and a hydrate_async path
# (twiggy: 11 % of the wasm before wasm-opt), so the next saving is in
# splitting the console out of the buyer's wasm, not in trimming views.
# Raised again to 560,000 with the pages' second language (issue 23: the
# Vietnamese catalogue, per-language money and dates; the console's words
# are in the buyer's wasm too): 555.4 KB measured. To stay within the
# first visit's 600 KB the icon is now sent compressed (4.3 KB → 0.1).
# Raised to 561,000 with the console's remaining words (issue 23: log codes,
# times in the event's zone, promo amounts in the event's currency): 560.0
# KB measured, while the drawing, compressed at brotli 11, gave the first
# visit 3.6 KB back (596,995 bytes measured by performance.spec.js).
# Raised to 562,000 with typed ids on the wire (issue 18: EventId, SeatId,
# BookingId, typed statuses in hold and console answers): 561.1 KB measured.
# Raised to 562,500 with buyer accounts (issue 17: the sign-in link in the
# top bar, the booking page's cancel and release forms — written as markup
# through inner_html, 1.3 KB, where views had cost 3.8 KB; the refund
# policies page is served as HTML, linked from the Jobs page, not the
# console's wasm; a partial refund's own explanation): 562.4 KB measured,
# the first visit 599,502 bytes of its 600,000.
# Lowered to 440,000 when the console left the buyer's wasm for its own
# (`--features console`, sent with the pages under /admin): 427.3 KB
# measured, the first visit 464,446 bytes.
# Raised to 480,000 with the cruise pages (issue 16: the home page's
# routes, a route's sailings by date, a sailing's ports and other dates,
# each cabin's party with its supplement, the deck plan drawn as a ship —
# cabins, hull, patterns): 469.4 KB measured, in the room the console's
# leaving made for these issues.
declare -A budget=([wasm]=480000 [js]=12000 [css]=6000)
# The console's wasm (every page and the console, sent only with the pages
# under /admin): not part of a buyer's visit; kept from growing unnoticed.
# Raised from 620,000 to 670,000 with issue 21's show-day console (three
# views, sales by category and section, the seat map by sale, the booking
# search, the questions destructive actions ask, the on-sale time, promo
# windows): 659.3 KB measured. The buyer's wasm did not grow: the console's
# words went to a catalogue section only the console's wasm carries.
# Raised again to 720,000 with issue 21's event setup (any number of
# categories, sections and standing areas, the live preview, layout JSON
# export and import): 705.3 KB measured; the buyer's stays at 475.6 KB.
declare -A console_budget=([wasm]=720000 [js]=12000)
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
