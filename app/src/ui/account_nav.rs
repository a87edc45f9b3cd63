//! The header's way to the buyer's account: "Sign in", or, once the
//! browser is known to be signed in, "Account" with the address it is
//! signed in to. Asked after the page is hydrated: a rendered page is the
//! same for every buyer (the page cache keeps it), so it cannot carry one
//! buyer's address.

use leptos::prelude::*;

use crate::i18n::{fill, t, Msg};
use crate::server_fns::bookings::signed_in_email;

#[component]
pub fn AccountNav() -> impl IntoView {
    let email = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        leptos::task::spawn_local(async move {
            if let Ok(Some(address)) = signed_in_email().await {
                email.set(Some(address));
            }
        });
    });
    move || match email.get() {
        Some(address) => {
            let said = fill(Msg::SignedInAs, &[("email", &address)]);
            view! {
                <a class="nav account signed-in" href="/sign-in" rel="external" title=said.clone() aria-label=said>
                    {t(Msg::NavAccount)}
                </a>
            }
            .into_any()
        }
        None => {
            view! { <a class="nav" href="/sign-in" rel="external">{t(Msg::SignIn)}</a> }.into_any()
        }
    }
}
