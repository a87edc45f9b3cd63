//! `use_event_stream`: a component's subscription to one of the server's
//! live streams (server-sent events). Each event's `data` is read as the
//! type the server wrote; `live` says whether the stream is connected (the
//! browser reconnects by itself); the stream is closed when the component
//! goes away, so moving between pages in the browser does not pile up open
//! streams against the ~6 connections a browser allows per host.

use leptos::prelude::*;
use serde::de::DeserializeOwned;

/// Subscribes to `url`, calling `on_message` with each `event` parsed as
/// `T` (a message that does not parse is skipped); `on_reset`, if given,
/// runs on an `event: reset`.
#[cfg(feature = "hydrate")]
pub fn use_event_stream<T: DeserializeOwned + 'static>(
    url: &str,
    event: &'static str,
    live: RwSignal<bool>,
    mut on_message: impl FnMut(T) + 'static,
    on_reset: Option<Box<dyn FnMut()>>,
) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let Ok(source) = web_sys::EventSource::new(url) else {
        return;
    };
    let on_event =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            if let Some(message) = ev
                .data()
                .as_string()
                .and_then(|text| serde_json::from_str::<T>(&text).ok())
            {
                on_message(message);
            }
        });
    let _ = source.add_event_listener_with_callback(event, on_event.as_ref().unchecked_ref());
    on_event.forget();
    if let Some(mut reset) = on_reset {
        let on_reset = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_| reset());
        let _ = source.add_event_listener_with_callback("reset", on_reset.as_ref().unchecked_ref());
        on_reset.forget();
    }
    let on_open = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| live.set(true));
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| live.set(false));
    source.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    source.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_open.forget();
    on_error.forget();
    let stream = source.clone();
    on_cleanup(move || stream.close());
}

/// On the server there is no stream: the page renders, the browser connects.
#[cfg(not(feature = "hydrate"))]
pub fn use_event_stream<T: DeserializeOwned + 'static>(
    _: &str,
    _: &'static str,
    _: RwSignal<bool>,
    _: impl FnMut(T) + 'static,
    _: Option<Box<dyn FnMut()>>,
) {
}
