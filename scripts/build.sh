#!/usr/bin/env bash
# Builds the site and the server: the same steps `cargo leptos build` runs
# (hydrate lib to wasm, wasm-bindgen, assets, ssr binary), without needing
# cargo-leptos itself, whose install is a long build from source on a
# small machine. `--release` for an optimised build; `--wasm-release` for a
# development server with the optimised wasm a browser would really get
# (the test command's build).
#
# The wasm of an optimised build goes through `wasm-opt -Oz` (binaryen 132
# from npm: Debian's 108 breaks hydration). The script, wasm and stylesheet
# are named by their hash (hash.txt), and with the optimised wasm stored
# pre-compressed (.br, .gz) beside themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
use_build_dir
./scripts/install-tools.sh

profile=debug
cargo_profile=()
wasm_profile=()
wasm_dir=debug
case "${1:-}" in
  --release)
    profile=release
    cargo_profile=(--release)
    wasm_profile=(--profile wasm-release)
    wasm_dir=wasm-release ;;
  --wasm-release)
    wasm_profile=(--profile wasm-release)
    wasm_dir=wasm-release ;;
esac

site=target/site
mkdir -p "$site/pkg"

# Two wasm builds of the same pages: the buyer's (`hydrate`), and the
# console's (`console`: every page, the organizer's console included),
# which the server sends with the pages under /admin.
for bundle in holdfast holdfast-console; do
  features=hydrate
  [ "$bundle" = holdfast-console ] && features=console
  echo "==> $bundle (wasm, --features $features)"
  cargo build --lib --target wasm32-unknown-unknown --no-default-features --features "$features" "${wasm_profile[@]}"
  wasm-bindgen --target web --no-typescript --out-dir "$site/pkg" --out-name "$bundle" \
    "target/wasm32-unknown-unknown/$wasm_dir/holdfast.wasm"
  if [ "$wasm_dir" = wasm-release ]; then
    # The features Rust's wasm32 target emits; wasm-opt refuses others.
    # --converge (the buyer's): -Oz again until the wasm stops shrinking
    # (a smaller download than one round gives, for a longer build).
    converge=()
    [ "$bundle" = holdfast ] && converge=(--converge)
    echo "==> wasm-opt -Oz ${converge[*]} ($bundle)"
    tools/node_modules/.bin/wasm-opt -Oz "${converge[@]}" --strip-debug --strip-producers \
      --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue \
      "$site/pkg/${bundle}_bg.wasm" -o "$site/pkg/$bundle.wasm"
    rm -f "$site/pkg/${bundle}_bg.wasm"
  else
    mv -f "$site/pkg/${bundle}_bg.wasm" "$site/pkg/$bundle.wasm"
  fi
done

echo "==> assets"
cp -f style/main.css "$site/pkg/holdfast.css"
cp -rf public/. "$site/"
compress=()
[ "$wasm_dir" = wasm-release ] && compress=(--compress)
node scripts/site-assets.js "$site" "${compress[@]}"

echo "==> server (ssr)"
cargo build -p holdfast -p holdfast-bench --bin holdfast --bin holdfast-bench --no-default-features --features holdfast/ssr "${cargo_profile[@]}"
echo "built: target/$profile/holdfast, site in $site"
