//! The page's language: the buyer's `Locale`, `Msg` and `format` come from
//! `holdfast_model::i18n`; what is added here is which language the page
//! being built speaks (the request's on the server, `<html lang>` in the
//! browser), which only a page knows.

pub use holdfast_model::i18n::*;

/// A message in the language of the page being built.
pub fn t(m: Msg) -> &'static str {
    use_locale().t(m)
}

/// A message with its placeholders filled, in the language of the page
/// being built.
pub fn fill(m: Msg, values: &[(&str, &dyn std::fmt::Display)]) -> String {
    use_locale().fill(m, values)
}

/// The language of the page being built (provided by `App`).
pub fn use_locale() -> Locale {
    leptos::prelude::use_context::<Locale>().unwrap_or_else(page_locale)
}

/// The language of the page being rendered or the server function being
/// answered: on the server the request's, in the browser the one the
/// server wrote into `<html lang>`.
pub fn page_locale() -> Locale {
    #[cfg(feature = "ssr")]
    {
        leptos::prelude::use_context::<axum::http::request::Parts>()
            .map(|p| Locale::of_headers(&p.headers))
            .unwrap_or_default()
    }
    #[cfg(not(feature = "ssr"))]
    {
        // A page's language changes only with a new page: read once.
        thread_local! {
            static PAGE: std::cell::OnceCell<Locale> = const { std::cell::OnceCell::new() };
        }
        PAGE.with(|page| {
            *page.get_or_init(|| {
                leptos::web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.document_element())
                    .and_then(|e| e.get_attribute("lang"))
                    .and_then(|l| Locale::parse(&l))
                    .unwrap_or_default()
            })
        })
    }
}
