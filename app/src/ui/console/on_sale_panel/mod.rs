//! The console's on-sale controls for one event: the on-sale time (shown
//! and moved), the waiting room (on/off, a rate suggested from what is free
//! with the time the queue takes to clear, and live counts of joined,
//! admitted, waiting, places free — explained) and the promo campaigns
//! (create; watch uses).

use std::time::Duration;

use leptos::prelude::*;

use crate::i18n::{fill, t, use_locale, Msg};
use leptos::task::spawn_local;

use crate::model::console::RoomSummary;
use crate::model::EventId;
use crate::server_fns::console::{admin_move_on_sale, admin_promos, admin_room, admin_set_room};

mod promos;
use promos::{NewPromoForm, PromoTable};

#[component]
pub fn OnSalePanel(
    event_id: EventId,
    /// The event's currency: promo amounts are typed and shown in it.
    currency: String,
) -> impl IntoView {
    let room = Resource::new(move || event_id, admin_room);
    let promos = Resource::new(move || event_id, admin_promos);
    // Watching: both refresh every two seconds.
    Effect::new(move |_| {
        if let Ok(h) = set_interval_with_handle(
            move || {
                room.refetch();
                promos.refetch();
            },
            Duration::from_secs(2),
        ) {
            on_cleanup(move || h.clear());
        }
    });
    let currency_for_form = currency.clone();
    let typed = Typed::new();
    view! {
        <section class="on-sale" aria-labelledby="on-sale-title">
            <h2 id="on-sale-title">{t(Msg::OnSaleDay)}</h2>
            <Transition fallback=|| view! { <p>{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match room.await {
                        Ok(Some(r)) => view! { <RoomControls r room typed/> }.into_any(),
                        _ => view! { <p class="notice">{t(Msg::RoomFailed)}</p> }.into_any(),
                    }
                })}
            </Transition>
            <h3>{t(Msg::PromoCodesHeading)}</h3>
            <Transition fallback=|| view! { <p>{t(Msg::Loading)}</p> }>
                {move || {
                    let currency = currency.clone();
                    Suspend::new(async move {
                    match promos.await {
                        Ok(Some(list)) => view! { <PromoTable list currency/> }.into_any(),
                        _ => view! { <p class="notice">{t(Msg::PromosFailed)}</p> }.into_any(),
                    }
                })}}
            </Transition>
            <NewPromoForm event_id promos currency=currency_for_form/>
        </section>
    }
}

/// What the organizer typed and was told in the room's controls: kept by
/// the panel, so the controls drawn again at each refresh keep it.
#[derive(Clone, Copy)]
struct Typed {
    /// The rate typed (`None`: the room's own, or the suggestion).
    rate: RwSignal<Option<String>>,
    /// The on-sale time typed (`None`: the event's).
    on_sale: RwSignal<Option<String>>,
    message: RwSignal<Option<String>>,
    moved: RwSignal<Option<Result<String, String>>>,
}

impl Typed {
    fn new() -> Typed {
        Typed {
            rate: RwSignal::new(None),
            on_sale: RwSignal::new(None),
            message: RwSignal::new(None),
            moved: RwSignal::new(None),
        }
    }
}

#[component]
fn RoomControls(
    r: RoomSummary,
    room: Resource<Result<Option<RoomSummary>, ServerFnError>>,
    typed: Typed,
) -> impl IntoView {
    let event_id = r.event_id;
    // A room never set starts from the suggestion, not from 1 a minute.
    let suggested = r.suggested_rate();
    let start_rate = if r.admit_per_minute > 0 {
        r.admit_per_minute
    } else {
        suggested
    };
    let Typed {
        rate: typed_rate,
        on_sale: typed_on_sale,
        message,
        moved,
    } = typed;
    let wall_clock = r.on_sale_wall_clock();
    let rate = Signal::derive(move || typed_rate.get().unwrap_or_else(|| start_rate.to_string()));
    let on_sale = Signal::derive(move || typed_on_sale.get().unwrap_or_else(|| wall_clock.clone()));
    let move_on_sale = move |_| {
        let at = on_sale.get_untracked();
        spawn_local(async move {
            moved.set(Some(match admin_move_on_sale(event_id, at).await {
                Ok(Ok(r)) => {
                    typed_on_sale.set(None);
                    room.refetch();
                    Ok(fill(
                        Msg::OnSaleMoved,
                        &[(
                            "at",
                            &crate::ui::console::words::when(
                                use_locale(),
                                &r.on_sale_at_local,
                                &r.on_sale_at,
                            ),
                        )],
                    ))
                }
                Ok(Err(refusal)) => Err(refusal.message),
                Err(_) => Err(t(Msg::ActionFailed).into()),
            }));
        });
    };
    let waiting = r.waiting;
    let clears = move || {
        let per_minute = rate.get().trim().parse::<i64>().unwrap_or(0);
        crate::model::console::minutes_to_clear(waiting, per_minute)
            .map(|m| fill(Msg::QueueClears, &[("n", &waiting), ("minutes", &m)]))
    };
    let set = move |enabled: bool| {
        let per_minute = rate.get_untracked().trim().parse::<i64>().unwrap_or(0);
        spawn_local(async move {
            match admin_set_room(event_id, enabled, per_minute).await {
                Ok(Ok(_)) => {
                    message.set(None);
                    typed_rate.set(None);
                    room.refetch();
                }
                Ok(Err(refusal)) => message.set(Some(refusal.message)),
                Err(_) => message.set(Some(t(Msg::RoomNotChanged).into())),
            }
        });
    };
    view! {
        <div class="room" data-testid="waiting-room-admin" data-enabled=r.enabled.to_string()>
            <p>
                {t(Msg::WaitingRoomLabel)} <strong>{t(if r.enabled { Msg::RoomOn } else { Msg::RoomOff })}</strong>
                {match (r.enabled, r.admitting) {
                    (true, true) => t(Msg::RoomAdmitting).to_string(),
                    (true, false) => fill(
                        Msg::RoomLiningUp,
                        &[("at", &crate::ui::console::words::when(use_locale(), &r.on_sale_at_local, &r.on_sale_at))],
                    ),
                    _ => t(Msg::RoomOffHint).to_string(),
                }}
            </p>
            <div class="tiles">
                <div class="tile"><span class="n" data-testid="room-joined">{r.joined}</span>{t(Msg::TileJoined)}</div>
                <div class="tile"><span class="n" data-testid="room-admitted">{r.admitted}</span>{t(Msg::TileAdmitted)}</div>
                <div class="tile"><span class="n" data-testid="room-waiting">{r.waiting}</span>{t(Msg::TileWaiting)}</div>
                <div class="tile"><span class="n">{r.free_places}</span>{t(Msg::TilePlacesFree)}</div>
            </div>
            <p class="hint">{t(Msg::PlacesFreeExplained)}</p>
            <label>{t(Msg::AdmitPerMinute)}
                <input type="number" min="1" name="admitPerMinute" prop:value=move || rate.get()
                    on:input=move |ev| typed_rate.set(Some(event_target_value(&ev)))/>
            </label>
            <button on:click=move |_| set(true)>{t(if r.enabled { Msg::SaveRate } else { Msg::OpenRoom })}</button>
            {r.enabled.then(|| view! { <button class="danger" on:click=move |_| set(false)>{t(Msg::CloseRoom)}</button> })}
            <p class="hint">{fill(Msg::SuggestedRate, &[("n", &suggested)])} " " {clears}</p>
            <div class="on-sale-time">
                <label>{t(Msg::OnSaleFrom)} " "
                    <input type="datetime-local" name="onSaleAt" prop:value=move || on_sale.get()
                        on:input=move |ev| typed_on_sale.set(Some(event_target_value(&ev)))/>
                </label>
                <button class="move-on-sale" on:click=move_on_sale>{t(Msg::SaveOnSale)}</button>
                {(!r.on_sale_set).then(|| view! { <p class="hint" data-testid="on-sale-unset">{t(Msg::OnSaleSincePublished)}</p> })}
                {move || moved.get().map(|m| match m {
                    Ok(words) => view! { <p class="notice" role="status">{words}</p> }.into_any(),
                    Err(words) => view! { <p class="error" role="alert">{words}</p> }.into_any(),
                })}
            </div>
            {move || message.get().map(|m| view! { <p class="error" role="alert">{m}</p> })}
        </div>
    }
}
