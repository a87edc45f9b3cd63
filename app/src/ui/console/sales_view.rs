//! Sales an organizer reads at a glance: the table by category and
//! section (with totals), and the seat map coloured by sale — the buyers'
//! own drawing and status letters, drawn read-only and repainted when the
//! dashboard's counts move.

use leptos::prelude::*;

use crate::i18n::{t, use_locale, Msg};
use crate::model::console::{HeatMap, SalesLine, SeatCounts};
use crate::model::{EventId, EventKind};

/// The sales table.
#[component]
pub fn SalesTable(lines: Vec<SalesLine>, currency: String) -> impl IntoView {
    let l = use_locale();
    if lines.is_empty() {
        return view! { <p class="empty">{t(Msg::NoSalesLines)}</p> }.into_any();
    }
    let total = lines.iter().fold(SalesLine::default(), |mut a, x| {
        a.places += x.places;
        a.sold += x.sold;
        a.held += x.held;
        a.in_payment += x.in_payment;
        a.free += x.free;
        a.sold_cents += x.sold_cents;
        a
    });
    let row = move |x: &SalesLine, currency: &str| {
        view! {
            <td data-label=t(Msg::ColSold)>{x.sold}</td>
            <td data-label=t(Msg::ColHeld)>{x.held}</td>
            <td data-label=t(Msg::ColInPayment)>{x.in_payment}</td>
            <td data-label=t(Msg::ColFree)>{x.free}</td>
            <td data-label=t(Msg::ColValueSold)>{l.price(x.sold_cents, currency)}</td>
        }
    };
    view! {
        <table class="sales cards">
            <thead><tr>
                <th>{t(Msg::ColCategory)}</th><th>{t(Msg::ColSection)}</th><th>{t(Msg::ColSold)}</th>
                <th>{t(Msg::ColHeld)}</th><th>{t(Msg::ColInPayment)}</th><th>{t(Msg::ColFree)}</th><th>{t(Msg::ColValueSold)}</th>
            </tr></thead>
            <tbody>{lines.iter().map(|x| view! {
                <tr>
                    <td data-label=t(Msg::ColCategory)>{x.category.clone()}</td>
                    <td data-label=t(Msg::ColSection)>{x.section.clone()}</td>
                    {row(x, &currency)}
                </tr>
            }).collect_view()}</tbody>
            <tfoot><tr class="total">
                <th scope="row" colspan="2">{t(Msg::SalesTotal)}</th>
                {row(&total, &currency)}
            </tr></tfoot>
        </table>
        <p class="hint">{t(Msg::ValueSoldNote)}</p>
    }
    .into_any()
}

/// Longer than the seat map's batching window (`seat_map_staleness`, 250 ms)
/// and a stream's hop between instances.
const AFTER_BATCHING: std::time::Duration = std::time::Duration::from_millis(800);

/// The seat map by sale: sold, held (or in payment), free.
#[component]
pub fn HeatView(
    event_id: EventId,
    kind: EventKind,
    heat: Option<HeatMap>,
    counts: Memo<SeatCounts>,
) -> impl IntoView {
    let Some(heat) = heat else {
        return view! { <p class="empty">{t(Msg::HeatNotPublished)}</p> }.into_any();
    };
    let seats = NodeRef::<leptos::svg::G>::new();
    let drawn = RwSignal::new(false);
    let url = heat.drawing_url.clone();
    Effect::new(move |_| {
        let Some(target) = seats.get() else { return };
        let url = url.clone();
        leptos::task::spawn_local(async move {
            let l = use_locale();
            let painted = async {
                crate::ui::buyer::event::drawing::draw_seats(&target, event_id, &url, &[], kind, l)
                    .await?;
                crate::ui::buyer::event::drawing::repaint(&target, event_id).await
            };
            if painted.await.is_ok() {
                drawn.set(true);
            }
        });
    });
    // Repainted from the status letters whenever the counts move, and once
    // more after the seat map's batching window: the snapshot is rebuilt at
    // most every 250 ms, so the first read may still show the change before.
    Effect::new(move |_| {
        // Read, not only tracked: a memo never read never runs, so never
        // hears of the dashboard's changes.
        let _ = counts.get();
        if !drawn.get() {
            return;
        }
        let repaint = move || {
            // (The page may be gone when the timer fires.)
            if let Some(target) = seats.try_get_untracked().flatten() {
                leptos::task::spawn_local(async move {
                    let _ = crate::ui::buyer::event::drawing::repaint(&target, event_id).await;
                });
            }
        };
        repaint();
        set_timeout(repaint, AFTER_BATCHING);
    });
    let l = use_locale();
    view! {
        <figure class="heat-view" data-drawn=move || drawn.get().to_string()>
            <svg viewBox=heat.view_box.to_string() role="group" aria-label=l.t(Msg::HeatLabel)>
                <g class="drawing" node_ref=seats></g>
            </svg>
            <figcaption class="heat-legend">
                <span class="key sold"></span>{t(Msg::ColSold)}
                <span class="key held"></span>{t(Msg::ColHeld)}
                <span class="key free"></span>{t(Msg::ColFree)}
            </figcaption>
        </figure>
    }
    .into_any()
}
