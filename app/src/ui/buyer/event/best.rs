//! "…or let us choose": how many, which categories (chips; none pressed
//! means any), and the most one seat may cost; one tap and the server picks
//! and holds the best block (`hold_best_seats`). `ask_best` is also the
//! one-tap "N together nearby" offered when a seat left the selection.

use leptos::prelude::*;

use crate::i18n::{use_locale, Locale, Msg};
use crate::model::EventId;
use crate::model::PriceCategory;
use crate::model::SeatId;
use crate::server_fns::best::hold_best_seats;
use crate::server_fns::buyer::HoldOutcome;
use crate::ui::buyer::event::held_panel::{failure, new_idempotency_key};
use crate::ui::buyer::event::seats::{mark_seats, select_only, Look};
use crate::ui::buyer::event::SeatPanel;

/// What the page asks the server to choose.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ask {
    pub quantity: usize,
    /// Category codes (none: any).
    pub categories: Vec<String>,
    pub max_price_cents: Option<i64>,
    /// Around this seat instead of nearest the stage.
    pub near: Option<SeatId>,
}

/// Asks the server for the best block and holds it; the selection is
/// replaced by the hold (or kept, with the reason, when nothing was held).
pub fn ask_best(event_id: EventId, ask: Ask, panel: SeatPanel) {
    panel.message.set(None);
    panel.lost.set(None);
    panel.offers.set(Vec::new());
    let key = new_idempotency_key();
    // The server may well choose seats of the selection: the stream then
    // reports them held before the answer, and they are not lost.
    let selected: Vec<SeatId> = panel
        .picked
        .with_untracked(|p| p.iter().map(|s| s.id).collect());
    panel.holding.set(selected);
    leptos::task::spawn_local(async move {
        let outcome = hold_best_seats(
            event_id,
            ask.quantity,
            ask.categories.join(","),
            ask.max_price_cents.unwrap_or(-1),
            ask.near.unwrap_or(SeatId(0)),
            key,
        )
        .await;
        panel.holding.set(Vec::new());
        match outcome {
            Ok(HoldOutcome::Held(r)) => {
                select_only(&[], panel.picked, panel.limit);
                mark_seats(&r.seat_ids, Look::Yours);
                panel.hold.set(Some(r));
            }
            Ok(HoldOutcome::Refused {
                message: m,
                suggestions,
                ..
            }) => {
                panel.message.set(Some(m));
                panel.offers.set(suggestions);
            }
            Err(e) => panel.message.set(Some(failure(
                crate::i18n::page_locale(),
                &e,
                Msg::NoSeatsHeld,
            ))),
        }
    });
}

/// The categories a block can be chosen from: those with seats, not the
/// standing areas' (bought by count below the map).
pub fn seated(categories: &[PriceCategory], standing: &[String]) -> Vec<PriceCategory> {
    categories
        .iter()
        .filter(|c| !standing.contains(&c.code))
        .cloned()
        .collect()
}

/// The prices a buyer can cap at: each seated category's, lowest first.
pub fn price_caps(categories: &[PriceCategory]) -> Vec<i64> {
    let mut caps: Vec<i64> = categories.iter().map(|c| c.price_cents).collect();
    caps.sort_unstable();
    caps.dedup();
    caps
}

#[component]
pub fn BestSeats(
    event_id: EventId,
    categories: Vec<PriceCategory>,
    currency: String,
    /// "Side by side, nearest the stage" or the ship's words.
    hint: String,
    panel: SeatPanel,
) -> impl IntoView {
    let l = use_locale();
    let limit = panel.limit;
    let quantity = RwSignal::new(2usize.min(limit));
    let chosen: RwSignal<Vec<String>> = RwSignal::new(Vec::new());
    let cap: RwSignal<Option<i64>> = RwSignal::new(None);
    let caps = price_caps(&categories);
    let picker = NodeRef::<leptos::html::Select>::new();
    let find = move |_| {
        // What the list shows, even when it was changed before the page came
        // alive (the change event was then never seen).
        if let Some(n) = picker
            .get_untracked()
            .and_then(|s| s.value().parse::<usize>().ok())
        {
            quantity.set(n);
        }
        let ask = Ask {
            quantity: quantity.get_untracked(),
            categories: chosen.get_untracked(),
            max_price_cents: cap.get_untracked(),
            near: None,
        };
        ask_best(event_id, ask, panel);
    };
    let cap_currency = currency.clone();
    view! {
        <div class="best" data-testid="best">
            <p class="or">{l.t(Msg::OrLetUsChoose)}</p>
            <label>{l.t(Msg::HowMany)}
                <select node_ref=picker data-testid="best-quantity" aria-label=l.t(Msg::HowManySeats)
                    on:change=move |ev| {
                        if let Ok(n) = event_target_value(&ev).parse::<usize>() {
                            quantity.set(n);
                        }
                    }>
                    {(1..=limit).map(|n| view! {
                        <option value=n.to_string() selected=move || quantity.get() == n>{n.to_string()}</option>
                    }).collect_view()}
                </select>
            </label>
            <div class="chips" role="group" aria-label=l.t(Msg::CategoriesAny) data-testid="best-categories">
                {categories.into_iter().map(|c| {
                    let code = c.code.clone();
                    let on = {
                        let code = code.clone();
                        move || chosen.read().contains(&code)
                    };
                    let label = format!("{} · {}", c.name, l.price(c.price_cents, &currency));
                    view! {
                        <button type="button" class="chip" aria-pressed=move || on().to_string()
                            on:click=move |_| chosen.update(|v| {
                                if let Some(i) = v.iter().position(|x| *x == code) {
                                    v.remove(i);
                                } else {
                                    v.push(code.clone());
                                }
                            })>
                            <span class=format!("swatch cat-{}", c.code)></span>{label}
                        </button>
                    }
                }).collect_view()}
            </div>
            <label>{l.t(Msg::PricePerSeat)} " "
                <select data-testid="best-price" aria-label=l.t(Msg::PricePerSeat)
                    on:change=move |ev| cap.set(event_target_value(&ev).parse::<i64>().ok())>
                    <option value="">{l.t(Msg::AnyPrice)}</option>
                    {caps.into_iter().map(|p| view! {
                        <option value=p.to_string()>{l.fill(Msg::UpToPrice, &[("price", &l.price(p, &cap_currency))])}</option>
                    }).collect_view()}
                </select>
            </label>
            <button class="hold best-find" data-testid="find-best" on:click=find>{l.t(Msg::FindBestSeats)}</button>
            <p class="hint">{hint}</p>
        </div>
    }
}

/// What "Find best seats" looks for.
pub fn best_hint(l: Locale, kind: crate::model::EventKind, limit: usize) -> String {
    let m = match kind {
        crate::model::EventKind::Concert => Msg::BestHintConcert,
        crate::model::EventKind::Cruise => Msg::BestHintCruise,
    };
    l.fill(m, &[("limit", &limit)])
}
