//! The console's pages as the buyer's wasm knows them: not at all. The
//! server sends the console's own wasm with every console page, so the
//! buyer's wasm meets one only when a link inside a buyer's page is
//! followed in the browser; the page is then loaded from the server.

use leptos::prelude::*;

#[component]
pub fn ConsoleElsewhere() -> impl IntoView {
    let hydrating = Owner::current_shared_context()
        .map(|context| context.during_hydration())
        .unwrap_or(false);
    // Hydrating a console page means the server sent the wrong wasm:
    // loading it again would only loop.
    // The router renders the page before it writes the new address into
    // the browser's: the page is asked for by the router's address.
    if !hydrating {
        let location = leptos_router::hooks::use_location();
        let path = location.pathname.get_untracked();
        let search = location.search.get_untracked();
        let url = if search.is_empty() {
            path
        } else {
            format!("{path}?{search}")
        };
        if let Some(window) = web_sys::window() {
            let _ = window.location().assign(&url);
        }
    }
}
