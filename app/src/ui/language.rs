//! The language switch in every page's header: a plain form to `/lang`
//! (works before hydration and without JavaScript), which remembers the
//! choice in a cookie and comes back to the same page, now in that
//! language.

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::i18n::{use_locale, Locale, Msg};

#[component]
pub fn LanguageSwitch() -> impl IntoView {
    let l = use_locale();
    let location = use_location();
    let back = move || {
        let (path, search) = (location.pathname.get(), location.search.get());
        match search.trim_start_matches('?') {
            "" => path,
            q => format!("{path}?{q}"),
        }
    };
    view! {
        <form class="language" method="get" action="/lang" aria-label=l.t(Msg::Language)>
            <input type="hidden" name="back" prop:value=back value=back/>
            {Locale::ALL.into_iter().map(|other| view! {
                <button type="submit" name="to" value=other.tag() lang=other.tag()
                    aria-current=(other == l).then_some("true")
                    data-testid=format!("language-{}", other.tag())>
                    {other.native_name()}
                </button>
            }).collect_view()}
        </form>
    }
}
