//! One event in the console: a live dashboard (server-sent events) —
//! counts, revenue, holds with ticking countdowns and their actions,
//! settlements, webhook inbox, mail, audit, and a red banner when the
//! invariant canary fails — above the on-sale day panel.

use leptos::prelude::*;

use crate::i18n::{fill, t, use_locale, Msg};
use leptos::task::spawn_local;
use leptos_router::hooks::use_params_map;

use crate::model::console::{BookingAction, Dashboard, LiveHold};
use crate::model::BookingId;
use crate::model::BookingStatus;
use crate::model::EventId;
use crate::server_fns::console::{admin_act, admin_dashboard};
use crate::ui::console::on_sale_panel::OnSalePanel;
use crate::ui::console::words;

/// Milliseconds on the browser's clock (0 on the server).
fn now_ms() -> f64 {
    #[cfg(feature = "hydrate")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        0.0
    }
}

#[component]
pub fn AdminEventPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || {
        params
            .read()
            .get("id")
            .and_then(|v| v.parse::<EventId>().ok())
            .unwrap_or_default()
    };
    let data = Resource::new(id, admin_dashboard);
    view! {
        <section class="console">
            <p><a href="/admin">{t(Msg::AllEvents)}</a></p>
            <Transition fallback=|| view! { <p>{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Ok(Some(d)) => {
                            let (event_id, currency) = (d.event_id, d.currency.clone());
                            view! { <LiveDashboard first=d/> <OnSalePanel event_id currency/> }.into_any()
                        }
                        Ok(None) => view! { <p class="notice">{t(Msg::SignInOnThe)} <a href="/admin">{t(Msg::ConsoleWord)}</a> {t(Msg::FirstDot)}</p> }.into_any(),
                        Err(_) => view! { <p class="error" role="alert">{t(Msg::EventFailed)}</p> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn LiveDashboard(first: Dashboard) -> impl IntoView {
    let event_id = first.event_id;
    let dash = RwSignal::new(first);
    let received = RwSignal::new(now_ms());
    let tick = RwSignal::new(now_ms());
    let live = RwSignal::new(false);
    let notice = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        received.set(now_ms());
        connect_dashboard(event_id, dash, received, live);
        if let Ok(h) = set_interval_with_handle(
            move || tick.set(now_ms()),
            std::time::Duration::from_millis(250),
        ) {
            on_cleanup(move || h.clear());
        }
    });
    let act = move |booking: BookingId, action: BookingAction, seconds: i64| {
        spawn_local(async move {
            let words = match admin_act(booking.clone(), action, seconds).await {
                Ok(Ok(o)) => words::action_done(
                    use_locale(),
                    o.action.as_str(),
                    &short(&o.booking_id),
                    &o.detail,
                ),
                Ok(Err(r)) => r.message,
                Err(_) => t(Msg::ActionFailed).into(),
            };
            notice.set(Some(words));
        });
    };
    let head = move || {
        let d = dash.get();
        view! {
            {(!d.canary.ok).then(|| view! {
                <div class="canary-alert" role="alert">
                    <strong>{t(Msg::InvariantViolated)}</strong>
                    {d.canary.violations.join("; ")}
                </div>
            })}
            <h1>{d.event_name.clone()}</h1>
            <p class="time-zone">{fill(Msg::TimesIn, &[("zone", &d.time_zone), ("abbreviation", &d.time_zone_abbreviation)])}</p>
            <p class="live-state">{move || t(if live.get() { Msg::Live } else { Msg::Connecting })}</p>
            <div class="tiles">
                <div class="tile"><span class="n available">{d.counts.available}</span>{t(Msg::TileAvailable)}</div>
                <div class="tile"><span class="n held">{d.counts.held}</span>{t(Msg::TileHeld)}</div>
                <div class="tile"><span class="n in-payment">{d.counts.in_payment}</span>{t(Msg::TileInPayment)}</div>
                <div class="tile"><span class="n booked">{d.counts.booked}</span>{t(Msg::TileBooked)}</div>
                <div class="tile"><span class="n revenue">{use_locale().price(d.revenue_cents, &d.currency)}</span>{t(Msg::TileRevenue)}</div>
                <div class="tile"><span class="n">{d.outbox_backlog}</span>{t(Msg::TileBacklog)}</div>
            </div>
        }
        .into_any()
    };
    let holds = move || {
        let d = dash.get();
        let rows = d
            .holds
            .into_iter()
            .map(|h| hold_row(h, received, tick, act))
            .collect_view();
        view! {
            <h2>{t(Msg::LiveHolds)}</h2>
            <table class="holds">
                <thead><tr><th>{t(Msg::ColBooking)}</th><th>{t(Msg::ColBuyer)}</th><th>{t(Msg::SeatsLegend)}</th><th>{t(Msg::ColStage)}</th><th>{t(Msg::ColEndsIn)}</th><th></th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
        .into_any()
    };
    let history = move || {
        let d = dash.get();
        view! {
            <h2>{t(Msg::RecentBookings)}</h2>
            <table class="recent">
                <thead><tr><th>{t(Msg::ColBooking)}</th><th>{t(Msg::ColStatus)}</th><th>{t(Msg::ColAmount)}</th><th>{t(Msg::ColWhy)}</th><th>{t(Msg::ColAt)}</th><th></th></tr></thead>
                <tbody>{d.recent.into_iter().map(|r| {
                    let (b1, b2) = (r.booking_id.clone(), r.booking_id.clone());
                    let booked = r.status == BookingStatus::Booked;
                    view! {
                        <tr>
                            <td title=r.booking_id.to_string()>{short(&r.booking_id)}</td>
                            <td>{r.status.words(use_locale())}</td>
                            <td>{use_locale().price(r.amount_cents, &r.currency)}</td>
                            <td>{r.reason_kind.words(use_locale(), r.refunded_cents, &r.currency)}</td>
                            <td>{words::when(use_locale(), &r.at_local, &r.at)}</td>
                            <td>{booked.then(|| view! {
                                <button class="refund" on:click=move |_| act(b1.clone(), BookingAction::Refund, 0)>{t(Msg::Refund)}</button>
                                <button class="resend" on:click=move |_| act(b2.clone(), BookingAction::Resend, 0)>{t(Msg::ResendEmail)}</button>
                            })}</td>
                        </tr>
                    }
                }).collect_view()}</tbody>
            </table>
        }
        .into_any()
    };
    let feeds = move || {
        let d = dash.get();
        view! {
            <h2>{t(Msg::WebhookInbox)}</h2>
            <table class="webhooks">
                <thead><tr><th>{t(Msg::ColEvent)}</th><th>{t(Msg::ColType)}</th><th>{t(Msg::ColBooking)}</th><th>{t(Msg::ColOutcome)}</th><th>{t(Msg::ColReceived)}</th></tr></thead>
                <tbody>{d.webhooks.into_iter().map(|w| view! {
                    <tr><td>{w.event_id}</td><td>{w.kind}</td><td>{w.booking_id.map(|b| short(&b)).unwrap_or_default()}</td><td>{words::outcome(use_locale(), &w.outcome)}</td><td>{words::when(use_locale(), &w.at_local, &w.received_at)}</td></tr>
                }).collect_view()}</tbody>
            </table>
            <h2>{t(Msg::MailHeading)}</h2>
            <table class="mail">
                <thead><tr><th>{t(Msg::ColBooking)}</th><th>{t(Msg::ColTo)}</th><th>{t(Msg::ColSubject)}</th><th>{t(Msg::ColChannel)}</th><th>{t(Msg::ColAt)}</th></tr></thead>
                <tbody>{d.mail.into_iter().map(|m| view! {
                    <tr><td>{short(&m.booking_id)}</td><td>{m.recipient}</td><td>{m.subject}</td><td>{words::channel(use_locale(), &m.channel)}</td><td>{words::when(use_locale(), &m.at_local, &m.at)}</td></tr>
                }).collect_view()}</tbody>
            </table>
            <h2>{t(Msg::AuditHeading)}</h2>
            <table class="audit">
                <thead><tr><th>{t(Msg::ColWho)}</th><th>{t(Msg::ColWhat)}</th><th>{t(Msg::ColBooking)}</th><th>{t(Msg::ColDetail)}</th><th>{t(Msg::ColWhen)}</th></tr></thead>
                <tbody>{d.audit.into_iter().map(|a| view! {
                    <tr><td>{words::actor(use_locale(), &a.actor)}</td><td>{words::action(use_locale(), &a.action)}</td><td>{a.booking_id.map(|b| short(&b)).unwrap_or_default()}</td><td>{if a.detail_words.is_empty() { a.detail } else { a.detail_words }}</td><td>{words::when(use_locale(), &a.at_local, &a.at)}</td></tr>
                }).collect_view()}</tbody>
            </table>
        }
        .into_any()
    };
    view! {
        {head}
        {move || notice.get().map(|n| view! { <p class="notice action-result" role="status">{n}</p> })}
        {holds}
        {history}
        {feeds}
    }
    .into_any()
}

fn hold_row(
    h: LiveHold,
    received: RwSignal<f64>,
    tick: RwSignal<f64>,
    act: impl Fn(BookingId, BookingAction, i64) + Copy + 'static,
) -> impl IntoView {
    let expires = h.expires_in_ms as f64;
    let left = move || {
        let ms = (expires - (tick.get() - received.get())).max(0.0) as i64;
        format!("{}:{:02}", ms / 60_000, (ms / 1000) % 60)
    };
    let seats = if h.seat_labels.is_empty() {
        fill(Msg::HoldStanding, &[("n", &h.places)])
    } else {
        h.seat_labels.join(", ")
    };
    let held = h.stage == BookingStatus::Held;
    let (b1, b2) = (h.booking_id.clone(), h.booking_id.clone());
    view! {
        <tr class="hold" data-booking=h.booking_id.to_string()>
            <td title=h.booking_id.to_string()>{short(&h.booking_id)}</td>
            <td title=h.buyer_id.to_string()>{short(&h.buyer_id)}</td>
            <td>{seats}</td>
            <td>{h.stage.words(use_locale())}</td>
            <td class="countdown">{left}</td>
            <td>{held.then(|| view! {
                <button class="release" on:click=move |_| act(b1.clone(), BookingAction::Release, 0)>{t(Msg::Release)}</button>
                <button class="extend" on:click=move |_| act(b2.clone(), BookingAction::Extend, 60)>{t(Msg::PlusMinute)}</button>
            })}</td>
        </tr>
    }
}

fn short(id: &str) -> String {
    id.chars().take(8).collect()
}

/// Follows the event's dashboard stream (closed when the page goes away).
fn connect_dashboard(
    event_id: EventId,
    dash: RwSignal<Dashboard>,
    received: RwSignal<f64>,
    live: RwSignal<bool>,
) {
    let url = format!("/api/admin/events/{event_id}/stream");
    let on_dashboard = move |d: Dashboard| {
        dash.set(d);
        received.set(now_ms());
    };
    crate::ui::live::use_event_stream(&url, &["dashboard"], live, on_dashboard, None);
}
