//! A layout exported as a JSON file and imported from one.

use leptos::prelude::*;

use super::super::setup_form::Setup;
use crate::i18n::{fill, t, Msg};
use crate::model::console::EventLayout;

/// The layout as JSON: downloaded as it stands, or pasted (or read from a
/// file) to fill the form.
#[component]
pub(super) fn LayoutJson(setup: Setup) -> impl IntoView {
    let pasted = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let import = move |text: String| match serde_json::from_str::<EventLayout>(&text) {
        Ok(layout) => {
            setup.load(&layout);
            problem.set(None);
        }
        Err(e) => problem.set(Some(fill(Msg::ImportFailed, &[("why", &e)]))),
    };
    let href = move || data_url(&setup.json());
    let show = move |_| pasted.set(setup.json());
    let from_file = move |ev: leptos::ev::Event| {
        #[cfg(feature = "hydrate")]
        {
            use leptos::task::spawn_local;
            use wasm_bindgen::JsCast;
            let file = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                .and_then(|i| i.files())
                .and_then(|f| f.get(0));
            if let Some(file) = file {
                spawn_local(async move {
                    let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
                    match text.ok().and_then(|t| t.as_string()) {
                        Some(text) => import(text),
                        None => problem.set(Some(fill(Msg::ImportFailed, &[("why", &"?")]))),
                    }
                });
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = ev;
    };
    view! {
        <details class="layout-json">
            <summary>{t(Msg::LayoutJsonLegend)}</summary>
            <p><a class="download-layout" download="layout.json" href=href>{t(Msg::DownloadLayout)}</a></p>
            <label>{t(Msg::ImportFile)}
                <input type="file" accept="application/json,.json" on:change=from_file/>
            </label>
            <label>{t(Msg::PasteLayout)}
                <textarea class="layout-text" rows="8" prop:value=pasted
                    on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
            </label>
            <p>
                <button type="button" class="show-layout" on:click=show>{t(Msg::ShowLayout)}</button> " "
                <button type="button" class="import-layout" on:click=move |_| import(pasted.get_untracked())>{t(Msg::ImportLayout)}</button>
            </p>
            {move || problem.get().map(|p| view! { <p class="error" role="alert">{p}</p> })}
        </details>
    }
}

/// `data:` URL of a JSON text.
fn data_url(json: &str) -> String {
    format!(
        "data:application/json;charset=utf-8,{}",
        crate::model::percent::encode(json)
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_data_url_carries_the_json_as_is() {
        assert_eq!(
            super::data_url("{\"a\": \"é\"}"),
            "data:application/json;charset=utf-8,%7B%22a%22%3A%20%22%C3%A9%22%7D"
        );
    }
}
