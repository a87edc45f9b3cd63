//! Server functions of the admin console. Each checks the admin session
//! (the same `Admin` the admin API takes) and calls the same use case as
//! the admin REST endpoint.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

pub use crate::model::console::AdminEvent;
use crate::model::console::{ActionOutcome, BookingAction, CreatedEvent, Dashboard, EventLayout};

/// A refusal a form shows: a message, and per-field messages.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Refusal {
    pub message: String,
    pub fields: Vec<(String, String)>,
}

/// The signed-in admin, if the core allows them `permission` on `target`
/// (the same decision the admin API's routes take).
#[cfg(feature = "ssr")]
async fn admin(
    permission: Permission,
    target: Target<'_>,
) -> Result<crate::core::admin::auth::Admin, ServerFnError> {
    let state = expect_context::<crate::core::AppState>();
    let admin = signed_in().await?;
    if let Err(refused) = access::authorize(&state, &admin, permission, target).await {
        // Answered with the refusal's status (403), as the admin API
        // answers it, not as a failure of the server's.
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(holdfast_web::status_of(&refused));
        }
        return Err(ServerFnError::new(refused.to_string()));
    }
    Ok(admin)
}

/// The signed-in admin if the core allows them `permission` on `target`;
/// else `None`, which the page answers by offering to sign in (answered
/// 200: a status would make the page's own load fail).
#[cfg(feature = "ssr")]
async fn admin_if(
    permission: Permission,
    target: Target<'_>,
) -> Option<crate::core::admin::auth::Admin> {
    let state = expect_context::<crate::core::AppState>();
    let admin = signed_in().await.ok()?;
    access::authorize(&state, &admin, permission, target)
        .await
        .ok()?;
    Some(admin)
}

/// The signed-in admin, whatever they may do.
#[cfg(feature = "ssr")]
async fn signed_in() -> Result<crate::core::admin::auth::Admin, ServerFnError> {
    let state = expect_context::<crate::core::AppState>();
    leptos_axum::extract_with_state::<holdfast_web::Caller<crate::core::admin::auth::Admin>, _>(
        &state,
    )
    .await
    .map(|holdfast_web::Caller(admin)| admin)
    .map_err(|e| ServerFnError::new(e.to_string()))
}

#[cfg(feature = "ssr")]
use crate::core::admin::access::{self, Permission, Target};

#[cfg(feature = "ssr")]
use super::console_refusal::{refusal, Form};
use crate::model::BookingId;
use crate::model::EventId;

/// What the signed-in person's role lets them do (the console draws only
/// those controls); `None` when not signed in.
#[server]
pub async fn admin_powers(
) -> Result<Option<crate::model::console::team::ConsolePowers>, ServerFnError> {
    Ok(signed_in().await.ok().map(|admin| admin.console_powers()))
}

/// Signs in with the console password; `Err` carries the refusal's words.
#[server]
pub async fn admin_sign_in(password: String) -> Result<Result<(), String>, ServerFnError> {
    use crate::core::platform::client_addr::ClientAddr;
    let state = expect_context::<crate::core::AppState>();
    let parts: axum::http::request::Parts = leptos_axum::extract().await?;
    let client = parts.extensions.get::<ClientAddr>().map(|c| c.limit_key());
    let session: tower_sessions::Session = leptos_axum::extract().await?;
    let checked = match super::count_client_attempt(&state).await {
        Ok(()) => state.admin.check_password(client, &password).await,
        Err(e) => Err(e),
    };
    if let Err(e) = checked {
        return Ok(Err(match e {
            crate::core::ApiError::Forbidden => "That password is not right.".into(),
            other => other.to_string(),
        }));
    }
    state
        .admin
        .sign_in(&session, state.clock.now())
        .await
        .map_err(|e| ServerFnError::new(e.to_string()))?;
    Ok(Ok(()))
}

#[server]
pub async fn admin_sign_out() -> Result<(), ServerFnError> {
    let session: tower_sessions::Session = leptos_axum::extract().await?;
    crate::core::admin::auth::sign_out(&session)
        .await
        .map_err(|e| ServerFnError::new(e.to_string()))
}

/// Every event (published or not); `None` when not signed in.
#[server]
pub async fn admin_events() -> Result<Option<Vec<AdminEvent>>, ServerFnError> {
    let Some(admin) = admin_if(Permission::ListEvents, Target::EachOwnEvent).await else {
        return Ok(None);
    };
    let state = expect_context::<crate::core::AppState>();
    crate::core::admin::console::events_of(&state, &admin)
        .await
        .map(Some)
        .map_err(super::server_error)
}

/// One event's live picture; `None` when not signed in.
#[server]
pub async fn admin_dashboard(event_id: EventId) -> Result<Option<Dashboard>, ServerFnError> {
    if admin_if(Permission::Reports, Target::Event(event_id))
        .await
        .is_none()
    {
        return Ok(None);
    }
    let state = expect_context::<crate::core::AppState>();
    crate::core::admin::console::dashboard(&state, event_id, crate::i18n::page_locale())
        .await
        .map(Some)
        .map_err(|e| ServerFnError::new(e.to_string()))
}

/// The event's settled bookings matching `q` (id, buyer's email, seat).
#[server]
pub async fn admin_find_bookings(
    event_id: EventId,
    q: String,
) -> Result<Vec<crate::model::console::BookingActivity>, ServerFnError> {
    admin(Permission::Bookings, Target::Event(event_id)).await?;
    let state = expect_context::<crate::core::AppState>();
    crate::core::admin::console::find_bookings(&state, event_id, &q)
        .await
        .map_err(super::server_error)
}

/// An action on a booking; `seconds` is for `extend`.
#[server]
pub async fn admin_act(
    booking_id: BookingId,
    action: BookingAction,
    seconds: i64,
) -> Result<Result<ActionOutcome, Refusal>, ServerFnError> {
    use crate::core::admin::actions::{act, Act};
    let admin = admin(Permission::Bookings, Target::Booking(&booking_id)).await?;
    let state = expect_context::<crate::core::AppState>();
    let done = match Act::named(action, || Ok(seconds)) {
        Ok(what) => act(&state, &admin, &booking_id, what).await,
        Err(e) => Err(e),
    };
    Ok(done.map_err(|e| refusal(Form::Action, e)))
}

/// Gives back part of a booking's payment, with a reason.
#[server]
pub async fn admin_refund_part(
    booking_id: BookingId,
    ask: crate::model::PartRefundRequest,
) -> Result<Result<crate::model::PartRefund, Refusal>, ServerFnError> {
    let admin = admin(Permission::Refunds, Target::Booking(&booking_id)).await?;
    let state = expect_context::<crate::core::AppState>();
    Ok(
        crate::core::payments::refund_part::give(&state, &admin, &booking_id, &ask)
            .await
            .map_err(|e| refusal(Form::Action, e)),
    )
}

#[server]
pub async fn admin_create_event(
    layout: EventLayout,
) -> Result<Result<CreatedEvent, Refusal>, ServerFnError> {
    let admin = admin(Permission::EventSetup, Target::Everything).await?;
    let state = expect_context::<crate::core::AppState>();
    Ok(
        crate::core::admin::setup::create_event(&state, &admin, &layout)
            .await
            .map_err(|e| refusal(Form::Event, e)),
    )
}

/// The layout an event was made from, to edit; `None` when it has none.
#[server]
pub async fn admin_event_layout(event_id: EventId) -> Result<Option<EventLayout>, ServerFnError> {
    admin(Permission::EventSetup, Target::Event(event_id)).await?;
    let state = expect_context::<crate::core::AppState>();
    match crate::core::admin::setup::layout_of(&state, event_id).await {
        Ok(layout) => Ok(Some(layout)),
        Err(crate::core::ApiError::NotFound(_)) => Ok(None),
        Err(e) => Err(super::server_error(e)),
    }
}

#[server]
pub async fn admin_edit_layout(
    event_id: EventId,
    layout: EventLayout,
) -> Result<Result<CreatedEvent, Refusal>, ServerFnError> {
    let admin = admin(Permission::EventSetup, Target::Event(event_id)).await?;
    let state = expect_context::<crate::core::AppState>();
    Ok(
        crate::core::admin::setup::edit_layout(&state, &admin, event_id, &layout)
            .await
            .map_err(|e| refusal(Form::Event, e)),
    )
}

#[server]
pub async fn admin_set_published(
    event_id: EventId,
    published: bool,
) -> Result<Result<CreatedEvent, Refusal>, ServerFnError> {
    let admin = admin(Permission::EventSetup, Target::Event(event_id)).await?;
    let state = expect_context::<crate::core::AppState>();
    Ok(
        crate::core::admin::setup::set_published(&state, &admin, event_id, published)
            .await
            .map_err(|e| refusal(Form::Action, e)),
    )
}

/// The event's waiting room; `None` when not signed in.
#[server]
pub async fn admin_room(
    event_id: EventId,
) -> Result<Option<crate::model::console::RoomSummary>, ServerFnError> {
    if admin_if(Permission::Reports, Target::Event(event_id))
        .await
        .is_none()
    {
        return Ok(None);
    }
    let state = expect_context::<crate::core::AppState>();
    crate::core::waiting_room::setup::summary(&state, event_id)
        .await
        .map(Some)
        .map_err(|e| ServerFnError::new(e.to_string()))
}

#[server]
pub async fn admin_set_room(
    event_id: EventId,
    enabled: bool,
    admit_per_minute: i64,
) -> Result<Result<crate::model::console::RoomSummary, Refusal>, ServerFnError> {
    let admin = admin(Permission::EventSetup, Target::Event(event_id)).await?;
    let state = expect_context::<crate::core::AppState>();
    Ok(crate::core::waiting_room::setup::configure(
        &state,
        &admin,
        event_id,
        enabled,
        admit_per_minute,
    )
    .await
    .map_err(|e| refusal(Form::Action, e)))
}

/// Moves the event's on-sale time (`at`: the event's wall clock, or RFC 3339).
#[server]
pub async fn admin_move_on_sale(
    event_id: EventId,
    at: String,
) -> Result<Result<crate::model::console::RoomSummary, Refusal>, ServerFnError> {
    let admin = admin(Permission::EventSetup, Target::Event(event_id)).await?;
    let state = expect_context::<crate::core::AppState>();
    Ok(
        crate::core::waiting_room::setup::move_on_sale(&state, &admin, event_id, &at)
            .await
            .map_err(|e| refusal(Form::Action, e)),
    )
}

/// Promo campaigns of one event (and those valid for every event).
#[server]
pub async fn admin_promos(
    event_id: EventId,
) -> Result<Option<Vec<crate::model::console::PromoCampaign>>, ServerFnError> {
    if admin_if(Permission::EventSetup, Target::Event(event_id))
        .await
        .is_none()
    {
        return Ok(None);
    }
    let state = expect_context::<crate::core::AppState>();
    let all = crate::core::promo::campaigns::list(&state)
        .await
        .map_err(|e| ServerFnError::new(e.to_string()))?;
    Ok(Some(
        all.into_iter()
            .filter(|c| c.event_id.is_none_or(|e| e == event_id))
            .collect(),
    ))
}

#[server]
pub async fn admin_create_promo(
    form: crate::model::console::NewPromo,
) -> Result<Result<crate::model::console::PromoCampaign, Refusal>, ServerFnError> {
    let target = form.event_id.map_or(Target::Everything, Target::Event);
    let admin = admin(Permission::EventSetup, target).await?;
    let state = expect_context::<crate::core::AppState>();
    Ok(crate::core::promo::campaigns::create(&state, &admin, &form)
        .await
        .map_err(|e| refusal(Form::Promo, e)))
}

/// What the door scanner shows: let in (green) or not (red), and why; for
/// a ticket let in, the event, its start and the places.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScanResult {
    pub admitted: bool,
    pub message: String,
    #[serde(default)]
    pub detail: Option<String>,
}

/// Checks a ticket in at `event_id`'s door (the same use case as
/// `POST /api/admin/tickets/{token}/check-in`).
#[server]
pub async fn admin_check_in(
    token: String,
    gate: String,
    event_id: EventId,
) -> Result<ScanResult, ServerFnError> {
    use crate::i18n::Msg;
    let state = expect_context::<crate::core::AppState>();
    let admin = admin(Permission::CheckIn, Target::Ticket(token.trim())).await?;
    let l = crate::i18n::page_locale();
    let door = crate::core::ticket::door::Door {
        event: Some(event_id),
        gate: Some(gate.as_str()),
        l,
    };
    let result = crate::core::ticket::door::check_in(&state, &admin, token.trim(), door).await;
    Ok(match result {
        Ok(done) => {
            let n = done.units.len() as i64;
            let said = if n == 1 {
                Msg::DoorLetInOne
            } else {
                Msg::DoorLetInMany
            };
            ScanResult {
                admitted: true,
                message: l.fill(said, &[("n", &n), ("gate", &done.gate)]),
                detail: Some(format!(
                    "{} · {} · {}",
                    done.event_name,
                    done.event_starts,
                    done.places.join(", ")
                )),
            }
        }
        Err(e) => ScanResult {
            admitted: false,
            message: refusal(Form::Action, e).message,
            detail: None,
        },
    })
}
