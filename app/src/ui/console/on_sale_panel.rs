//! The console's on-sale controls for one event: the on-sale time (shown
//! and moved), the waiting room (on/off, a rate suggested from what is free
//! with the time the queue takes to clear, and live counts of joined,
//! admitted, waiting, places free — explained) and the promo campaigns
//! (create; watch uses).

use std::time::Duration;

use leptos::prelude::*;

use crate::i18n::{fill, t, use_locale, Msg};
use leptos::task::spawn_local;

use crate::model::console::{CampaignKind, NewPromo, PromoCampaign, RoomSummary};
use crate::model::EventId;
use crate::server_fns::console::{
    admin_create_promo, admin_move_on_sale, admin_promos, admin_room, admin_set_room,
};

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
                {move || moved.get().map(|m| match m {
                    Ok(words) => view! { <p class="notice" role="status">{words}</p> }.into_any(),
                    Err(words) => view! { <p class="error" role="alert">{words}</p> }.into_any(),
                })}
            </div>
            {move || message.get().map(|m| view! { <p class="error" role="alert">{m}</p> })}
        </div>
    }
}

#[component]
fn PromoTable(list: Vec<PromoCampaign>, currency: String) -> impl IntoView {
    if list.is_empty() {
        return view! { <p class="notice">{t(Msg::NoCampaigns)}</p> }.into_any();
    }
    view! {
        <table class="promos">
            <thead><tr><th>{t(Msg::FieldName)}</th><th>{t(Msg::ColKind)}</th><th>{t(Msg::ColDiscount)}</th><th>{t(Msg::ColValid)}</th><th>{t(Msg::ColUsed)}</th><th>{t(Msg::ColCodes)}</th></tr></thead>
            <tbody>{list.into_iter().map(|c| {
                let money = |minor: i64| use_locale().price(minor, &currency);
                let discount = match (c.percent_off, c.amount_off_cents) {
                    (p, 0) => format!("{p}%"),
                    (0, a) => fill(Msg::AmountOffShown, &[("amount", &money(a))]),
                    (p, a) => format!("{p}% + {}", money(a)),
                };
                let used = match (c.kind, c.max_uses) {
                    (CampaignKind::Capped, Some(m)) => fill(Msg::UsedOf, &[("used", &c.redeemed), ("of", &m)]),
                    (CampaignKind::Pooled, _) => fill(Msg::PoolUsed, &[("redeemed", &c.redeemed), ("handed", &c.handed_out), ("count", &c.code_count)]),
                    _ => fill(Msg::UsedOf, &[("used", &c.redeemed), ("of", &c.code_count)]),
                };
                let codes = if c.kind == CampaignKind::Pooled {
                    fill(Msg::PoolCodes, &[("count", &c.code_count), ("first", &c.codes.first().cloned().unwrap_or_default())])
                } else {
                    c.codes.join(", ")
                };
                let at = |v: &Option<String>| v.as_deref().map(|u| crate::ui::console::words::when(use_locale(), "", u));
                let valid = match (at(&c.starts_at), at(&c.ends_at)) {
                    (None, None) => t(Msg::ValidAlways).to_string(),
                    (Some(s), None) => fill(Msg::ValidFrom, &[("from", &s)]),
                    (None, Some(e)) => fill(Msg::ValidUntil, &[("until", &e)]),
                    (Some(s), Some(e)) => fill(Msg::ValidBetween, &[("from", &s), ("until", &e)]),
                };
                view! { <tr><td>{c.name}</td><td>{campaign_kind(c.kind.as_str())}</td><td>{discount}</td><td>{valid}</td><td data-testid="promo-used">{used}</td><td><code>{codes}</code></td></tr> }
            }).collect_view()}</tbody>
        </table>
    }
    .into_any()
}

#[component]
fn NewPromoForm(
    event_id: EventId,
    promos: Resource<Result<Option<Vec<PromoCampaign>>, ServerFnError>>,
    currency: String,
) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let kind = RwSignal::new("single".to_string());
    let code = RwSignal::new(String::new());
    // A discount is a percentage or an amount, never both.
    let by_amount = RwSignal::new(false);
    let percent = RwSignal::new("10".to_string());
    let amount = RwSignal::new(String::new());
    let starts = RwSignal::new(String::new());
    let ends = RwSignal::new(String::new());
    let max_uses = RwSignal::new("100".to_string());
    let count = RwSignal::new("100".to_string());
    let message = RwSignal::new(None::<(bool, String)>);
    let number = |s: RwSignal<String>| s.get_untracked().trim().parse::<i64>().ok();
    let form_currency = currency.clone();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let kind_now = kind.get_untracked();
        // In the currency's own digits (no cents in đồng or yen); an amount
        // that does not read is sent as -1, which the server refuses.
        let amount_text = amount.get_untracked();
        let amount_off = if !by_amount.get_untracked() {
            0
        } else if amount_text.trim().is_empty() {
            -1
        } else {
            crate::model::money::parse_amount(&amount_text, &form_currency).unwrap_or(-1)
        };
        let when = |s: RwSignal<String>| Some(s.get_untracked()).filter(|t| !t.trim().is_empty());
        let typed_code = code.get_untracked().trim().to_string();
        let form = NewPromo {
            name: name.get_untracked(),
            event_id: Some(event_id),
            percent_off: if by_amount.get_untracked() {
                0
            } else {
                number(percent).unwrap_or(0)
            },
            starts_at: when(starts),
            ends_at: when(ends),
            amount_off_cents: amount_off,
            code: (kind_now != "pooled" && !typed_code.is_empty()).then_some(typed_code),
            max_uses: (kind_now == "capped").then(|| number(max_uses).unwrap_or(0)),
            count: (kind_now == "pooled").then(|| number(count).unwrap_or(0)),
            kind: kind_now,
        };
        spawn_local(async move {
            match admin_create_promo(form).await {
                Ok(Ok(c)) => {
                    message.set(Some((
                        true,
                        fill(
                            Msg::CampaignCreated,
                            &[("name", &c.name), ("codes", &c.code_count)],
                        ),
                    )));
                    promos.refetch();
                }
                Ok(Err(r)) => message.set(Some((false, refusal_words(&r)))),
                Err(_) => message.set(Some((false, t(Msg::CampaignFailed).into()))),
            }
        });
    };
    view! {
        <form class="new-promo" on:submit=submit>
            <label>{t(Msg::FieldName)} " " <input name="promoName" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/></label>
            <label>{t(Msg::ColKind)} " "
                <select name="promoKind" on:change=move |ev| kind.set(event_target_value(&ev))>
                    <option value="single">{t(Msg::SingleUse)}</option>
                    <option value="capped">{t(Msg::CappedUses)}</option>
                    <option value="pooled">{t(Msg::PoolOnePerBuyer)}</option>
                </select>
            </label>
            <label>{t(Msg::CodeOptional)} <input name="promoCode" prop:value=move || code.get() on:input=move |ev| code.set(event_target_value(&ev))/></label>
            <label>{t(Msg::DiscountKind)} " "
                <select name="discountKind" on:change=move |ev| by_amount.set(event_target_value(&ev) == "amount")>
                    <option value="percent">{t(Msg::PercentOff)}</option>
                    <option value="amount">{t(Msg::AmountOff)} "(" {currency.clone()} ")"</option>
                </select>
            </label>
            <Show when=move || !by_amount.get()>
                <label>{t(Msg::PercentOff)} <input type="number" min="1" max="100" name="percentOff" prop:value=move || percent.get() on:input=move |ev| percent.set(event_target_value(&ev))/></label>
            </Show>
            <Show when=move || by_amount.get()>
                <label>{t(Msg::AmountOff)} "(" {currency.clone()} ") " <input type="text" inputmode="decimal" name="amountOff" prop:value=move || amount.get() on:input=move |ev| amount.set(event_target_value(&ev))/></label>
            </Show>
            <label>{t(Msg::PromoStarts)} <input type="datetime-local" name="promoStarts" prop:value=move || starts.get() on:input=move |ev| starts.set(event_target_value(&ev))/></label>
            <label>{t(Msg::PromoEnds)} <input type="datetime-local" name="promoEnds" prop:value=move || ends.get() on:input=move |ev| ends.set(event_target_value(&ev))/></label>
            <Show when=move || kind.get() == "capped">
                <label>{t(Msg::MaxUses)} <input type="number" min="1" name="maxUses" prop:value=move || max_uses.get() on:input=move |ev| max_uses.set(event_target_value(&ev))/></label>
            </Show>
            <Show when=move || kind.get() == "pooled">
                <label>{t(Msg::CodesInPool)} <input type="number" min="1" max="10000" name="poolCount" prop:value=move || count.get() on:input=move |ev| count.set(event_target_value(&ev))/></label>
            </Show>
            <button type="submit">{t(Msg::CreatePromo)}</button>
            {move || message.get().map(|(ok, m)| view! { <p class=if ok { "promo-ok" } else { "error" } role="status">{m}</p> })}
        </form>
    }
}

/// A campaign's kind as the form names it.
fn campaign_kind(kind: &str) -> String {
    match kind {
        "single" => t(Msg::SingleUse).to_string(),
        "capped" => t(Msg::CappedUses).to_string(),
        "pooled" => t(Msg::PoolOnePerBuyer).to_string(),
        other => other.to_string(),
    }
}

/// A refusal as one line (the server wrote it in the page's language).
fn refusal_words(r: &crate::server_fns::console::Refusal) -> String {
    let fields: Vec<String> = r.fields.iter().map(|(f, m)| format!("{f}: {m}")).collect();
    format!("{} {}", r.message, fields.join("; "))
        .trim()
        .to_string()
}
