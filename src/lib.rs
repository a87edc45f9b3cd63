//! The Holdfast server process (`ssr`) and the browser's hydrate entry
//! (`hydrate`). Pages and the booking core live in the `holdfast-app` crate.

#[cfg(feature = "ssr")]
pub mod server;

/// The server's allocator, for every binary that links the server (the
/// process, the bench, the tests): mimalloc's per-thread free lists instead
/// of glibc's arenas, which a page render's many short strings kept busy.
#[cfg(feature = "ssr")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Called by the generated JS once the wasm is loaded: takes over the
/// server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(holdfast_app::App);
}
