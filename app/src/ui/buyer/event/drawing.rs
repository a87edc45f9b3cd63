//! Puts the seats on the page's map: the drawing (every seat's place and
//! name, kept by the browser for good under its hash) and the status
//! letters (revalidated by ETag), fetched side by side once the page is
//! hydrated. The server-rendered page stays small: it carries neither.

use leptos::web_sys;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::model::seat_drawing::SeatDrawing;
use crate::model::EventId;
use crate::model::SeatId;
use crate::model::SeatStatuses;
use crate::ui::buyer::event::seats::apply_statuses;

/// What was drawn.
pub struct Drawn {
    /// The seat-map version the seats show (the live stream continues
    /// from it).
    pub version: u64,
    /// The smallest cabin number's height in map units, on a ship.
    pub number_units: Option<f64>,
}

/// Draws the seats into `target` with their statuses.
pub async fn draw_seats(
    target: &web_sys::Element,
    event_id: EventId,
    drawing_url: &str,
    yours: &[SeatId],
    kind: crate::model::EventKind,
    l: crate::i18n::Locale,
) -> Result<Drawn, String> {
    let window = web_sys::window().ok_or("no window")?;
    // Both requests leave now; their answers are read in turn.
    let svg = window.fetch_with_str(drawing_url);
    let statuses = window.fetch_with_str(&format!("/api/events/{event_id}/seats/status"));
    let drawing: SeatDrawing = serde_json::from_str(&text_of(svg, "the drawing").await?)
        .map_err(|e| format!("the drawing: {e}"))?;
    let statuses: SeatStatuses = serde_json::from_str(&text_of(statuses, "the statuses").await?)
        .map_err(|e| format!("the statuses: {e}"))?;
    target.set_inner_html(&drawing.markup(kind, l));
    let seats = target
        .query_selector("g.seats")
        .ok()
        .flatten()
        .ok_or("the drawing has no seats")?;
    apply_statuses(&seats, &statuses.statuses, yours);
    Ok(Drawn {
        version: statuses.version,
        number_units: drawing.smallest_number(),
    })
}

/// Paints every drawn seat as the status letters say now, as a picture
/// (`seats::read_only`): the console's map by sale, which has no seat
/// stream of its own.
pub async fn repaint(target: &web_sys::Element, event_id: EventId) -> Result<(), String> {
    use crate::ui::buyer::event::seats::{paint, read_only, Look};
    let window = web_sys::window().ok_or("no window")?;
    let statuses = window.fetch_with_str(&format!("/api/events/{event_id}/seats/status"));
    let statuses: SeatStatuses = serde_json::from_str(&text_of(statuses, "the statuses").await?)
        .map_err(|e| format!("the statuses: {e}"))?;
    let seats = target
        .query_selector("g.seats")
        .ok()
        .flatten()
        .ok_or("the drawing has no seats")?;
    let all = seats.children();
    for (i, letter) in statuses.statuses.chars().enumerate() {
        let Some(el) = all.item(i as u32) else { break };
        let status =
            crate::model::SeatStatus::from_code(letter).unwrap_or(crate::model::SeatStatus::Held);
        read_only(&el);
        paint(&el, Look::of(status, false));
    }
    Ok(())
}

async fn text_of(request: js_sys::Promise, what: &str) -> Result<String, String> {
    let answer = JsFuture::from(request)
        .await
        .map_err(|_| format!("{what}: network error"))?;
    let answer: web_sys::Response = answer.dyn_into().map_err(|_| "not a response")?;
    if !answer.ok() {
        return Err(format!("{what}: {}", answer.status()));
    }
    let text = answer.text().map_err(|_| format!("{what}: no body"))?;
    JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("{what}: unreadable body"))
}
