#!/usr/bin/env bash
# Builds the site and the server: the same steps `cargo leptos build` runs
# (hydrate lib to wasm, wasm-bindgen, assets, ssr binary), without needing
# cargo-leptos itself, whose install takes 18–55 minutes on this kind of
# machine. `--release` for an optimised build.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-tools.sh

profile=debug
cargo_profile=()
wasm_profile=()
if [ "${1:-}" = "--release" ]; then
  profile=release
  cargo_profile=(--release)
  wasm_profile=(--profile wasm-release)
fi
wasm_dir=debug
[ "$profile" = release ] && wasm_dir=wasm-release

site=target/site
mkdir -p "$site/pkg"

echo "==> hydrate (wasm)"
cargo build --lib --target wasm32-unknown-unknown --no-default-features --features hydrate "${wasm_profile[@]}"
wasm-bindgen --target web --no-typescript --out-dir "$site/pkg" --out-name holdfast \
  "target/wasm32-unknown-unknown/$wasm_dir/holdfast.wasm"
# Leptos loads `holdfast.wasm` when LEPTOS_OUTPUT_NAME is set at build time.
mv -f "$site/pkg/holdfast_bg.wasm" "$site/pkg/holdfast.wasm"

echo "==> assets"
cp -f style/main.css "$site/pkg/holdfast.css"
cp -rf public/. "$site/"

echo "==> server (ssr)"
cargo build --bin holdfast --bin holdfast-bench --no-default-features --features ssr "${cargo_profile[@]}"
echo "built: target/$profile/holdfast, site in $site"
