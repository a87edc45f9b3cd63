//! One event in the console: a live dashboard (server-sent events) — the
//! tiles and a red banner when the invariant canary fails, then three
//! views: the overview (holds with ticking countdowns and their actions,
//! sales by category and section, the seat map by sale), bookings (search,
//! refund, the attendee list) and logs — above the on-sale day panel.
//! Release and refund ask first (`confirm`); a refund in part has its own
//! box (`part_refund`); rows keep their order. Only the controls the
//! person's role may use are drawn; a role without reports (the box
//! office) gets the bookings desk instead of the dashboard.

use leptos::prelude::*;

use crate::i18n::{fill, t, use_locale, Msg};
use leptos::task::spawn_local;
use leptos_router::hooks::use_params_map;

use crate::model::console::team::Powers;
use crate::model::console::{BookingAction, BookingActivity, Dashboard, LiveHold};
use crate::model::BookingId;
use crate::model::BookingStatus;
use crate::model::{EventId, EventKind};
use crate::server_fns::console::{
    admin_act, admin_dashboard, admin_events, admin_find_bookings, admin_powers,
};
use crate::ui::console::confirm::{self, Asked, ConfirmBox, Then};
use crate::ui::console::logs_view::logs;
use crate::ui::console::on_sale_panel::OnSalePanel;
use crate::ui::console::part_refund::PartRefundBox;
use crate::ui::console::sales_view::{HeatView, SalesTable};
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
    // The dashboard is a report: asked only of a role that reads reports
    // (a refusal would be written to the audit log on each visit).
    let data = Resource::new(id, |id| async move {
        let powers = admin_powers().await?;
        let dashboard = match powers {
            Some(p) if p.own_events.reports => admin_dashboard(id).await?,
            _ => None,
        };
        Ok::<_, leptos::prelude::ServerFnError>((dashboard, powers))
    });
    view! {
        <section class="console">
            <p><a href="/admin">{t(Msg::AllEvents)}</a></p>
            <Transition fallback=|| view! { <p>{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    // A role that only looks bookings up (the box office)
                    // gets the bookings desk.
                    match data.await {
                        Ok((Some(d), Some(p))) => {
                            let (event_id, currency) = (d.event_id, d.currency.clone());
                            let may = p.own_events;
                            view! {
                                <LiveDashboard first=d may/>
                                {may.event_setup.then(|| view! { <OnSalePanel event_id currency/> })}
                            }
                            .into_any()
                        }
                        Ok((None, Some(p))) if p.own_events.bookings => {
                            view! { <BookingDesk event_id=id() may=p.own_events/> }.into_any()
                        }
                        Ok((_, Some(_))) => view! { <p class="notice">{t(Msg::NotYourRole)}</p> }.into_any(),
                        Ok((_, None)) => view! { <p class="notice">{t(Msg::SignInOnThe)} <a href="/admin">{t(Msg::ConsoleWord)}</a> {t(Msg::FirstDot)}</p> }.into_any(),
                        Err(_) => view! { <p class="error" role="alert">{t(Msg::EventFailed)}</p> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

/// The dashboard's views.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Overview,
    Bookings,
    Logs,
}

/// One event's bookings for a role without its reports: the search, and
/// what the role may do with a booking found.
#[component]
fn BookingDesk(event_id: EventId, may: Powers) -> impl IntoView {
    let events = Resource::new(|| (), |_| admin_events());
    let asked = RwSignal::new(None::<Asked>);
    let refunding = RwSignal::new(None::<BookingActivity>);
    view! {
        <Transition fallback=|| ()>
            {move || Suspend::new(async move {
                let event = events
                    .await
                    .ok()
                    .flatten()
                    .and_then(|list| list.into_iter().find(|e| e.id == event_id));
                event.map(|e| view! {
                    <h1>{e.name}</h1>
                    <Bookings event_id kind=e.kind recent=Signal::derive(Vec::new) may asked refunding/>
                })
            })}
        </Transition>
    }
}

#[component]
fn LiveDashboard(first: Dashboard, may: Powers) -> impl IntoView {
    let event_id = first.event_id;
    let kind = first.kind;
    let heat = first.heat_map.clone();
    let dash = RwSignal::new(first);
    let received = RwSignal::new(now_ms());
    let tick = RwSignal::new(now_ms());
    let live = RwSignal::new(false);
    let notice = RwSignal::new(None::<String>);
    let tab = RwSignal::new(Tab::Overview);
    let asked = RwSignal::new(None::<Asked>);
    let refunding = RwSignal::new(None::<BookingActivity>);
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
                    &words::short(&o.booking_id),
                    &o.detail,
                ),
                Ok(Err(r)) => r.message,
                Err(_) => t(Msg::ActionFailed).into(),
            };
            notice.set(Some(words));
        });
    };
    let on_yes = Callback::new(move |then: Then| {
        if let Then::Booking(booking, action) = then {
            act(booking, action, 0);
        }
    });
    let counts = Memo::new(move |_| dash.with(|d| d.counts.clone()));
    let head = move || {
        let d = dash.get();
        let l = use_locale();
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
                // Seats and standing places alike, as the sales table counts them.
                <div class="tile"><span class="n available">{l.count(d.places.available)}</span>{t(Msg::TileAvailable)}</div>
                <div class="tile"><span class="n held">{l.count(d.places.held)}</span>{t(Msg::TileHeld)}</div>
                <div class="tile"><span class="n in-payment">{l.count(d.places.in_payment)}</span>{t(Msg::TileInPayment)}</div>
                <div class="tile"><span class="n booked">{l.count(d.places.booked)}</span>{t(Msg::TileBooked)}</div>
                <div class="tile"><span class="n revenue">{l.price(d.revenue_cents, &d.currency)}</span>{t(Msg::TileRevenue)}</div>
                <div class="tile"><span class="n">{l.count(d.outbox_backlog)}</span>{t(Msg::TileBacklog)}</div>
            </div>
        }
        .into_any()
    };
    let tab_button = move |which: Tab, label: Msg| {
        view! {
            <button role="tab" aria-selected=move || (tab.get() == which).to_string()
                on:click=move |_| tab.set(which)>{t(label)}</button>
        }
    };
    let holds = move || {
        let d = dash.get();
        if d.holds.is_empty() {
            return view! { <p class="empty">{t(Msg::NoHoldsYet)}</p> }.into_any();
        }
        let rows = d
            .holds
            .into_iter()
            .map(|h| hold_row(h, kind, may, received, tick, act, asked))
            .collect_view();
        view! {
            <table class="holds cards">
                <thead><tr><th>{t(Msg::ColBooking)}</th><th>{t(Msg::ColBuyer)}</th><th>{t(Msg::SeatsLegend)}</th><th>{t(Msg::ColStage)}</th><th>{t(Msg::ColEndsIn)}</th><th></th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
        .into_any()
    };
    let sales = move || {
        let d = dash.get();
        view! { <SalesTable lines=d.sales currency=d.currency/> }
    };
    view! {
        {head}
        {move || notice.get().map(|n| view! { <p class="notice action-result" role="status">{n}</p> })}
        <div class="console-tabs" role="tablist" aria-label=t(Msg::ConsoleSections)>
            {tab_button(Tab::Overview, Msg::TabOverview)}
            {tab_button(Tab::Bookings, Msg::TabBookings)}
            {tab_button(Tab::Logs, Msg::TabLogs)}
        </div>
        <div role="tabpanel" hidden=move || tab.get() != Tab::Overview>
            <h2>{t(Msg::LiveHolds)}</h2>
            {holds}
            <h2>{t(Msg::SalesHeading)}</h2>
            {sales}
            <h2>{t(Msg::SalesOverTime)}</h2>
            // Drawn on the server from numbers and escaped words only.
            <div class="sales-over-time" inner_html=move || dash.with(|d| d.sales_chart.clone())></div>
            <h2>{t(Msg::HeatHeading)}</h2>
            <HeatView event_id kind heat counts/>
        </div>
        <div role="tabpanel" hidden=move || tab.get() != Tab::Bookings>
            <Bookings event_id kind recent=Signal::derive(move || dash.with(|d| d.recent.clone())) may asked refunding/>
        </div>
        <div role="tabpanel" hidden=move || tab.get() != Tab::Logs>
            {move || logs(dash.get())}
        </div>
        <ConfirmBox asked on_yes/>
        <PartRefundBox refunding notice/>
    }
    .into_any()
}

fn hold_row(
    h: LiveHold,
    kind: EventKind,
    may: Powers,
    received: RwSignal<f64>,
    tick: RwSignal<f64>,
    act: impl Fn(BookingId, BookingAction, i64) + Copy + 'static,
    asked: RwSignal<Option<Asked>>,
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
    let held = h.stage == BookingStatus::Held && may.bookings;
    // A buyer is known by email once they sign in or reach checkout.
    let buyer = h
        .buyer_email
        .clone()
        .unwrap_or_else(|| t(Msg::BuyerNoEmailYet).to_string());
    let question = confirm::release(&h, kind);
    let extend = h.booking_id.clone();
    view! {
        <tr class="hold" data-booking=h.booking_id.to_string()>
            <td data-label=t(Msg::ColBooking) title=h.booking_id.to_string()>{words::short(&h.booking_id)}</td>
            <td data-label=t(Msg::ColBuyer) title=h.buyer_id.to_string()>{buyer}</td>
            <td data-label=t(Msg::SeatsLegend)>{seats}</td>
            <td data-label=t(Msg::ColStage)>{h.stage.words(use_locale())}</td>
            <td data-label=t(Msg::ColEndsIn) class="countdown">{left}</td>
            <td class="row-actions">{held.then(|| view! {
                <button class="extend" on:click=move |_| act(extend.clone(), BookingAction::Extend, 60)>{t(Msg::PlusMinute)}</button>
                <button class="release danger-outline" on:click=move |_| asked.set(Some(question.clone()))>{t(Msg::Release)}</button>
            })}</td>
        </tr>
    }
}

/// Settled bookings: the latest, or those a search finds; the attendee
/// list to take away.
#[component]
fn Bookings(
    event_id: EventId,
    kind: EventKind,
    recent: Signal<Vec<BookingActivity>>,
    may: Powers,
    asked: RwSignal<Option<Asked>>,
    refunding: RwSignal<Option<BookingActivity>>,
) -> impl IntoView {
    let query = RwSignal::new(String::new());
    let found: RwSignal<Option<Vec<BookingActivity>>> = RwSignal::new(None);
    let search = move |q: String| {
        query.set(q.clone());
        if q.trim().is_empty() {
            found.set(None);
            return;
        }
        spawn_local(async move {
            let rows = admin_find_bookings(event_id, q.clone())
                .await
                .unwrap_or_default();
            // Only the answer to what the box still says.
            if query.get_untracked() == q {
                found.set(Some(rows));
            }
        });
    };
    let rows = move || {
        let (rows, searching) = match found.get() {
            Some(rows) => (rows, true),
            None => (recent.get(), false),
        };
        if rows.is_empty() {
            let words = if searching {
                fill(Msg::NoMatch, &[("q", &query.get())])
            } else if may.reports {
                t(Msg::NoSettledYet).to_string()
            } else {
                t(Msg::DeskEmpty).to_string()
            };
            return view! { <p class="empty">{words}</p> }.into_any();
        }
        view! {
            <table class="recent cards">
                <thead><tr><th>{t(Msg::ColBooking)}</th><th>{t(Msg::ColBuyer)}</th><th>{t(Msg::ColStatus)}</th><th>{t(Msg::ColAmount)}</th><th>{t(Msg::ColWhy)}</th><th>{t(Msg::ColAt)}</th><th></th></tr></thead>
                <tbody>{rows.into_iter().map(|r| settled_row(r, kind, may, asked, refunding)).collect_view()}</tbody>
            </table>
        }
        .into_any()
    };
    view! {
        <h2>{t(if may.reports { Msg::RecentBookings } else { Msg::LookUpBooking })}</h2>
        <div class="booking-tools">
            {may.bookings.then(|| view! {
                <input type="search" aria-label=t(Msg::SearchBookings) placeholder=t(Msg::SearchBookings)
                    on:input=move |ev| search(event_target_value(&ev))/>
            })}
            {may.exports.then(|| view! {
                <a class="button" href=format!("/api/admin/events/{event_id}/attendees.csv") download="">{t(Msg::ExportAttendees)}</a>
            })}
        </div>
        {rows}
    }
}

fn settled_row(
    r: BookingActivity,
    kind: EventKind,
    may: Powers,
    asked: RwSignal<Option<Asked>>,
    refunding: RwSignal<Option<BookingActivity>>,
) -> impl IntoView {
    let l = use_locale();
    let booked = r.status == BookingStatus::Booked;
    let resends = booked && may.bookings;
    let refunds = booked && may.refunds;
    let in_part = (r.refundable_cents > 0 && may.refunds).then(|| r.clone());
    let question = confirm::refund(&r, kind);
    let resend = r.booking_id.clone();
    let history = format!("/admin/bookings/{}/history", r.booking_id);
    let buyer = r.buyer_email.clone().unwrap_or_default();
    view! {
        <tr data-booking=r.booking_id.to_string()>
            <td data-label=t(Msg::ColBooking) title=r.booking_id.to_string()>{words::short(&r.booking_id)}</td>
            <td data-label=t(Msg::ColBuyer)>{buyer}</td>
            <td data-label=t(Msg::ColStatus)>{r.status.words(l)}</td>
            <td data-label=t(Msg::ColAmount)>{l.price(r.amount_cents, &r.currency)}</td>
            <td data-label=t(Msg::ColWhy)>{r.reason_kind.words(l, r.refunded_cents, &r.currency)}</td>
            <td data-label=t(Msg::ColAt)>{words::when(l, &r.at_local, &r.at)}</td>
            <td class="row-actions">
                {may.bookings.then(|| view! {
                    <a class="history" href=history rel="external">{t(Msg::ShowHistory)}</a>
                })}
                {resends.then(|| view! {
                    <button class="resend" on:click=move |_| resend_mail(resend.clone())>{t(Msg::ResendEmail)}</button>
                })}
                {in_part.map(|b| view! {
                    <button class="refund-part" on:click=move |_| refunding.set(Some(b.clone()))>{t(Msg::RefundPart)}</button>
                })}
                {refunds.then(|| view! {
                    <button class="refund danger-outline" on:click=move |_| asked.set(Some(question.clone()))>{t(Msg::Refund)}</button>
                })}
            </td>
        </tr>
    }
}

/// Sends the confirmation mail again (nothing to confirm: it only mails).
fn resend_mail(booking: BookingId) {
    spawn_local(async move {
        let _ = admin_act(booking, BookingAction::Resend, 0).await;
    });
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
