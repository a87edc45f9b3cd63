//! The map's preview, redrawn as the setup's fields change.

use leptos::prelude::*;

use crate::i18n::{fill, t, Msg};
use crate::model::console::preview::preview;
use crate::model::console::seating::overlapping;
use crate::model::console::EventLayout;

/// The seats as they will be drawn, deck by deck, and the standing areas.
#[component]
pub(super) fn Preview(layout: Memo<EventLayout>) -> impl IntoView {
    let summary = move || {
        layout.with(|l| {
            let seats: usize = l.sections.iter().map(|s| s.placed_seats().len()).sum();
            let standing: i64 = l.general_admission.iter().map(|g| g.capacity.max(0)).sum();
            fill(
                Msg::PreviewSummary,
                &[
                    ("seats", &seats),
                    ("standing", &standing),
                    ("categories", &l.categories.len()),
                ],
            )
        })
    };
    let decks = move || {
        let decks = layout.with(preview);
        if decks.is_empty() {
            return view! { <p class="empty">{t(Msg::PreviewEmpty)}</p> }.into_any();
        }
        decks
            .into_iter()
            .map(|d| {
                let label = fill(Msg::PreviewLabel, &[("n", &d.seat_count)]);
                view! {
                    <figure class="deck-preview">
                        {d.level.map(|l| view! { <figcaption>{fill(Msg::DeckCaption, &[("deck", &l)])}</figcaption> })}
                        <svg viewBox=d.view_box role="img" aria-label=label>
                            {d.seats.into_iter().map(|(c, p)| view! { <path d=p fill=c/> }).collect_view()}
                            {d.labels.into_iter().map(|(n, x, y, size)| view! {
                                <text x=x y=y font-size=size text-anchor="middle">{n}</text>
                            }).collect_view()}
                        </svg>
                    </figure>
                }
            })
            .collect_view()
            .into_any()
    };
    let standing = move || {
        layout.with(|l| {
            l.general_admission
                .iter()
                .map(|g| {
                    let colour = l
                        .categories
                        .iter()
                        .find(|c| c.code == g.category)
                        .map_or("#888888".to_string(), |c| c.color.clone());
                    let text = fill(
                        Msg::StandingPreview,
                        &[("name", &g.name), ("n", &g.capacity)],
                    );
                    view! { <li><span class="swatch" style:background=colour></span>{text}</li> }
                })
                .collect_view()
        })
    };
    // Sections drawn over each other (the server refuses them too).
    let overlaps = move || {
        layout.with(|l| {
            overlapping(&l.sections)
                .into_iter()
                .map(|(i, j)| {
                    let text = fill(
                        Msg::PreviewOverlap,
                        &[("a", &l.sections[i].name), ("b", &l.sections[j].name)],
                    );
                    view! { <p class="warning overlap">{text}</p> }
                })
                .collect_view()
        })
    };
    view! {
        <aside class="setup-preview" aria-labelledby="setup-preview-heading">
            <h3 id="setup-preview-heading">{t(Msg::PreviewHeading)}</h3>
            <p class="preview-summary">{summary}</p>
            {overlaps}
            {decks}
            <ul class="standing-preview">{standing}</ul>
        </aside>
    }
}
