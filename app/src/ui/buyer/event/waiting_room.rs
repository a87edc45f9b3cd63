//! The waiting room page: shown instead of the seat map while the event's
//! queue is on and this buyer is not admitted yet. It joins the queue from
//! the browser (the answer sets the queue cookie), follows the place live
//! over SSE, and once admitted asks for the admission cookie and reloads
//! into the seat map.

use leptos::prelude::*;

use crate::i18n::{use_locale, Locale, Msg};
use crate::model::EventId;
use crate::model::{EventDetail, QueueStatus};
use crate::server_fns::buyer::join_queue;

#[component]
pub fn WaitingRoom(detail: EventDetail, first: QueueStatus) -> impl IntoView {
    let l = use_locale();
    let event_id = detail.summary.id;
    let status = RwSignal::new(first);
    let live = RwSignal::new(false);
    let trouble = RwSignal::new(false);
    Effect::new(move |_| {
        // The stream belongs to this component: it closes when the room is
        // left, though it is opened after an await.
        let owner = Owner::current();
        leptos::task::spawn_local(async move {
            match join_queue(event_id).await {
                Ok(s) if s.admitted => enter(),
                Ok(s) => {
                    status.set(s);
                    match owner {
                        Some(owner) => owner.with(|| follow(event_id, status, live)),
                        None => follow(event_id, status, live),
                    }
                }
                Err(_) => trouble.set(true),
            }
        });
    });
    let wait = move || describe_wait(l, status.read().estimated_wait_ms);
    view! {
        <section class="waiting-room" aria-labelledby="queue-title">
            <p class="kind">{detail.summary.venue.clone()}</p>
            <h1 id="queue-title">{detail.summary.name.clone()}</h1>
            <h2>{l.t(Msg::InTheQueue)}</h2>
            <p>{l.t(Msg::QueueWhy)}</p>
            <div class="queue-card" role="status" aria-live="polite">
                <Show
                    when=move || { status.read().position > 0 }
                    fallback=move || view! { <p class="queue-joining">{l.t(Msg::TakingPlace)}</p> }
                >
                    <p class="queue-position">
                        {l.t(Msg::PeopleAhead)}
                        <strong data-testid="queue-position">{move || (status.read().position - 1).max(0)}</strong>
                    </p>
                    <p class="queue-wait">{l.t(Msg::EstimatedWait)} <strong data-testid="queue-wait">{wait}</strong></p>
                </Show>
                <Show when=move || status.read().sold_out>
                    <p class="notice" data-testid="queue-sold-out">{l.t(Msg::QueueSoldOut)}</p>
                </Show>
                <Show when=move || status.read().admission_expired>
                    <p class="notice">{l.t(Msg::TurnCameAndWent)}</p>
                </Show>
            </div>
            <p class="live-state">{move || l.t(if live.get() { Msg::FollowingLive } else { Msg::Connecting })}</p>
            <Show when=move || trouble.get()>
                <p class="error" role="alert">{l.t(Msg::QueueUnreachable)}</p>
            </Show>
            <p class="hint">{l.t(Msg::QueueKeepsPlace)}</p>
        </section>
    }
}

/// "about 3 minutes", "less than a minute".
pub fn describe_wait(l: Locale, ms: i64) -> String {
    let minutes = (ms + 59_999) / 60_000;
    match minutes {
        0 | 1 => l.t(Msg::WaitUnderMinute).into(),
        m if m < 90 => l.fill(Msg::WaitMinutes, &[("n", &m)]),
        m => l.fill(Msg::WaitHours, &[("n", &((m + 30) / 60))]),
    }
}

/// Into the seat map: the admission cookie is set by now.
fn enter() {
    #[cfg(feature = "hydrate")]
    if let Some(w) = leptos::web_sys::window() {
        let _ = w.location().reload();
    }
}

/// Follows the place over SSE; when admitted, joins once more (that answer
/// carries the admission cookie) and enters.
fn follow(event_id: EventId, status: RwSignal<QueueStatus>, live: RwSignal<bool>) {
    let url = format!("/api/events/{event_id}/queue/stream");
    let on_place = move |s: QueueStatus| {
        let rejoin = s.admitted || s.admission_expired;
        status.set(s);
        if rejoin {
            leptos::task::spawn_local(async move {
                match join_queue(event_id).await {
                    Ok(s) if s.admitted => enter(),
                    Ok(s) => status.set(s),
                    Err(_) => {}
                }
            });
        }
    };
    crate::ui::live::use_event_stream(&url, &["queue"], live, on_place, None);
}

#[cfg(test)]
mod tests {
    use super::describe_wait;
    use crate::i18n::Locale::{En, Vi};

    #[test]
    fn waits_read_like_people_say_them() {
        assert_eq!(describe_wait(En, 0), "less than a minute");
        assert_eq!(describe_wait(En, 45_000), "less than a minute");
        assert_eq!(describe_wait(En, 150_000), "about 3 minutes");
        assert_eq!(describe_wait(En, 3 * 3_600_000), "about 3 hours");
        assert_eq!(describe_wait(Vi, 150_000), "khoảng 3 phút");
    }
}
