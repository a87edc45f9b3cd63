#![recursion_limit = "256"]
//! Holdfast's Leptos crate: pages and components (rendered on the server,
//! hydrated in the browser) and server functions. The booking core they
//! call (`holdfast-core`, behind `ssr`) and the plain data (`holdfast-model`)
//! are crates of their own: editing a view compiles neither again.

pub mod i18n;
pub use holdfast_model as model;
pub mod server_fns;
pub mod ui;

#[cfg(feature = "ssr")]
pub use holdfast_core as core;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Title};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

/// The console's pages where the console is built in: on the server and
/// in the console's wasm.
#[cfg(any(feature = "ssr", feature = "console"))]
mod console {
    pub use crate::ui::console::dashboard::AdminEventPage;
    pub use crate::ui::console::door_scanner::DoorScanner;
    pub use crate::ui::console::home::AdminHome;
}

/// The buyer's wasm has no console (so a buyer's first visit does not
/// download it): a link followed inside it to a console page loads that
/// page from the server, which sends the console's wasm with it.
#[cfg(not(any(feature = "ssr", feature = "console")))]
mod console {
    pub use crate::ui::console_elsewhere::ConsoleElsewhere as AdminEventPage;
    pub use crate::ui::console_elsewhere::ConsoleElsewhere as DoorScanner;
    pub use crate::ui::console_elsewhere::ConsoleElsewhere as AdminHome;
}

/// The HTML document around every page (server side).
pub fn shell(options: LeptosOptions) -> impl IntoView {
    let locale = i18n::page_locale();
    #[cfg(feature = "ssr")]
    let options = bundle_of_page(options);
    view! {
        <!DOCTYPE html>
        <html lang=locale.tag()>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <link rel="icon" href="/favicon.ico"/>
                <link rel="stylesheet" id="leptos" href=stylesheet_href(&options)/>
                <AutoReload options=options.clone()/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// Which wasm hydrates the page: the console's under `/admin`, the buyer's
/// (without the console) everywhere else. Each is named by its own hash
/// file (`hash.txt`, `hash-console.txt`, written by the build).
#[cfg(feature = "ssr")]
fn bundle_of_page(mut options: LeptosOptions) -> LeptosOptions {
    let path = use_context::<axum::http::request::Parts>()
        .map(|parts| parts.uri.path().to_string())
        .unwrap_or_default();
    if path == "/admin" || path.starts_with("/admin/") {
        options.output_name = "holdfast-console".into();
        let hash_file = options.hash_file.replace("hash.txt", "hash-console.txt");
        // A site built before the split has no console hash file: the
        // unhashed names are asked for then (and answered 404), rather
        // than the buyer's wasm on a console page.
        options.hash_files &= std::path::Path::new(&hash_file).is_file();
        options.hash_file = hash_file.into();
    }
    options
}

/// The stylesheet's path: named by its hash when the build wrote the hash
/// file (then browsers keep it for good), plain otherwise. Read per page,
/// as Leptos reads the script's and the wasm's.
fn stylesheet_href(options: &LeptosOptions) -> String {
    let hash = options
        .hash_files
        .then(|| std::fs::read_to_string(options.hash_file.as_ref()).ok())
        .flatten()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.trim().strip_prefix("css:").map(|h| h.trim().to_string()))
        });
    match hash {
        Some(h) => format!("/pkg/holdfast.{h}.css"),
        None => "/pkg/holdfast.css".to_string(),
    }
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let l = i18n::page_locale();
    provide_context(l);
    view! {
        <Title text="Holdfast"/>
        <Router>
            <header class="topbar">
                <a class="brand" href="/">"Holdfast"</a>
                <span class="tagline">{l.t(i18n::Msg::Tagline)}</span>
                <a class="nav" href="/sailings">{l.t(i18n::Msg::SailingsHeading)}</a>
                <a class="nav" href="/bookings">{l.t(i18n::Msg::NavMyBookings)}</a>
                <ui::account_nav::AccountNav/>
                <ui::language::LanguageSwitch/>
            </header>
            <main>
                <Routes fallback=move || view! { <p class="notice">{l.t(i18n::Msg::PageNotFound)}</p> }>
                    <Route path=path!("/") view=ui::buyer::event_list::EventList/>
                    <Route path=path!("/sailings") view=ui::buyer::sailings::SailingList/>
                    <Route path=path!("/events/:id") view=ui::buyer::event::page::EventPage/>
                    <Route path=path!("/bookings") view=ui::buyer::booking_page::MyBookings/>
                    <Route path=path!("/bookings/:id") view=ui::buyer::booking_page::BookingPage/>
                    <Route path=path!("/admin") view=console::AdminHome/>
                    <Route path=path!("/admin/events/:id") view=console::AdminEventPage/>
                    <Route path=path!("/admin/scan") view=console::DoorScanner/>
                </Routes>
            </main>
        </Router>
    }
}
