//! The Holdfast server process (`ssr`) and the browser's hydrate entry
//! (`hydrate`). Pages and the booking core live in the `holdfast-app` crate.

#[cfg(feature = "ssr")]
pub mod server;

/// Called by the generated JS once the wasm is loaded: takes over the
/// server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(holdfast_app::App);
}
