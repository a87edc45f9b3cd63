//! The time a running hold has left, as the buyer sees it tick: counted
//! down from the server's `expiresInMs` as its answer arrived (the buyer's
//! clock never decides when a hold ends), shown as minutes and seconds.

use leptos::prelude::*;

/// Milliseconds left, ticking every quarter second in the browser (the
/// effect never runs while the server renders: there it stays at
/// `expires_in_ms`). `at_end` runs once, when it reaches zero.
pub fn time_left(expires_in_ms: i64, at_end: impl Fn() + 'static) -> RwSignal<i64> {
    let left_ms = RwSignal::new(expires_in_ms);
    let at_end = std::rc::Rc::new(at_end);
    Effect::new(move |_| {
        let deadline = js_sys::Date::now() + expires_in_ms as f64;
        let at_end = at_end.clone();
        if let Ok(handle) = set_interval_with_handle(
            move || {
                let left = (deadline - js_sys::Date::now()).max(0.0) as i64;
                if left == 0 && left_ms.get_untracked() > 0 {
                    at_end();
                }
                left_ms.set(left);
            },
            std::time::Duration::from_millis(250),
        ) {
            on_cleanup(move || handle.clear());
        }
    });
    left_ms
}

/// `m:ss` of what is left.
pub fn minutes_seconds(left_ms: i64) -> String {
    let s = left_ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}
