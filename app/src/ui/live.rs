//! `use_event_stream`: a component's subscription to one of the server's
//! live streams (server-sent events). Each event's `data` is read as the
//! type the server wrote; `live` says whether the stream is connected (the
//! browser reconnects by itself); the stream is closed when the component
//! goes away, so moving between pages in the browser does not pile up open
//! streams against the ~6 connections a browser allows per host.

use leptos::prelude::*;

/// What a stream's events are read as. Written per type, by event name,
/// rather than an untagged serde enum: that costs the wasm kilobytes.
pub trait StreamMessage: Sized + 'static {
    /// One event's `data` (`event`: its name); `None` skips it.
    fn read(event: &str, data: &str) -> Option<Self>;
}

/// A stream whose every event is one JSON type.
macro_rules! json_stream_message {
    ($($t:ty),*) => {$(
        impl StreamMessage for $t {
            fn read(_: &str, data: &str) -> Option<Self> {
                serde_json::from_str(data).ok()
            }
        }
    )*};
}
json_stream_message!(crate::model::console::Dashboard, crate::model::QueueStatus);

impl StreamMessage for crate::model::SeatStreamMessage {
    fn read(event: &str, data: &str) -> Option<Self> {
        use crate::model::SeatStreamMessage as M;
        match event {
            "seats" => serde_json::from_str(data).ok().map(M::Seats),
            "standing" => serde_json::from_str(data).ok().map(M::Standing),
            _ => None,
        }
    }
}

/// Subscribes to `url`, calling `on_message` with each event of the names
/// in `events` parsed as `T` (a message that does not parse is skipped); `on_reset`, if given,
/// runs on an `event: reset`. The browser reconnects a dropped stream by
/// itself, but gives up for good on an answer other than 200 (a 503
/// `TOO_MANY_STREAMS` at the height of an on-sale): then a new stream is
/// opened after a pause that doubles up to a minute.
#[cfg(feature = "hydrate")]
pub fn use_event_stream<T: StreamMessage>(
    url: &str,
    events: &'static [&'static str],
    live: RwSignal<bool>,
    on_message: impl FnMut(T) + 'static,
    on_reset: Option<Box<dyn FnMut()>>,
) {
    use std::cell::RefCell;
    use std::rc::Rc;
    let stream = Rc::new(Stream {
        url: url.to_string(),
        events,
        live,
        on_message: RefCell::new(Box::new(on_message)),
        on_reset: RefCell::new(on_reset),
        source: RefCell::new(None),
        closed: std::cell::Cell::new(false),
    });
    open(stream.clone(), 0);
    let stream = send_wrapper::SendWrapper::new(stream);
    on_cleanup(move || {
        stream.closed.set(true);
        if let Some(source) = stream.source.borrow_mut().take() {
            source.close();
        }
    });
}

#[cfg(feature = "hydrate")]
struct Stream<T> {
    url: String,
    events: &'static [&'static str],
    live: RwSignal<bool>,
    on_message: std::cell::RefCell<Box<dyn FnMut(T)>>,
    on_reset: std::cell::RefCell<Option<Box<dyn FnMut()>>>,
    source: std::cell::RefCell<Option<web_sys::EventSource>>,
    /// The component went away: no reconnecting.
    closed: std::cell::Cell<bool>,
}

/// Opens (or reopens, after `failures` refused tries) the stream.
#[cfg(feature = "hydrate")]
fn open<T: StreamMessage>(stream: std::rc::Rc<Stream<T>>, failures: u32) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    if stream.closed.get() {
        return;
    }
    let Ok(source) = web_sys::EventSource::new(&stream.url) else {
        return;
    };
    let s = stream.clone();
    let on_event =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            if let Some(message) = ev
                .data()
                .as_string()
                .and_then(|text| T::read(&ev.type_(), &text))
            {
                (s.on_message.borrow_mut())(message);
            }
        });
    for event in stream.events {
        let _ = source.add_event_listener_with_callback(event, on_event.as_ref().unchecked_ref());
    }
    on_event.forget();
    let s = stream.clone();
    let on_reset = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_| {
        if let Some(reset) = s.on_reset.borrow_mut().as_mut() {
            reset();
        }
    });
    let _ = source.add_event_listener_with_callback("reset", on_reset.as_ref().unchecked_ref());
    on_reset.forget();
    let live = stream.live;
    let on_open = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| live.set(true));
    let s = stream.clone();
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
        s.live.set(false);
        let closed_for_good = s
            .source
            .borrow()
            .as_ref()
            .is_some_and(|src| src.ready_state() == web_sys::EventSource::CLOSED);
        if closed_for_good && !s.closed.get() {
            let again = s.clone();
            let pause = (2_000u32 << failures.min(5)).min(60_000);
            let retry = Closure::once_into_js(move || open(again, failures + 1));
            if let Some(w) = web_sys::window() {
                let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                    retry.unchecked_ref(),
                    pause as i32,
                );
            }
        }
    });
    source.set_onopen(Some(on_open.as_ref().unchecked_ref()));
    source.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_open.forget();
    on_error.forget();
    *stream.source.borrow_mut() = Some(source);
}

/// On the server there is no stream: the page renders, the browser connects.
#[cfg(not(feature = "hydrate"))]
pub fn use_event_stream<T: StreamMessage>(
    _: &str,
    _: &'static [&'static str],
    _: RwSignal<bool>,
    _: impl FnMut(T) + 'static,
    _: Option<Box<dyn FnMut()>>,
) {
}
