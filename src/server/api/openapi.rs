//! `GET /api/openapi.json`: the OpenAPI 3 document of every `/api`
//! endpoint, generated (utoipa) from the handlers' own annotations and the
//! types they exchange. `tests/openapi.rs` checks it against the routes the
//! router registers.

use axum::Json;
use holdfast_core::platform::error::{ErrorBody, ErrorDetail, FieldError};
use holdfast_core::ticket::door::CheckedIn;
use holdfast_model::console::{
    ActionOutcome, AuditRow, BookingAction, BookingActivity, CampaignKind, CanaryReport,
    CategorySpec, CreatedEvent, Dashboard, EventLayout, JobRunView, JobView, LiveHold, MailMessage,
    MailRow, NewPromo, PromoCampaign, RoomSummary, RunOutcome, RunRequested, SalesLine, SeatCounts,
    SectionSpec, StandingCount, StandingSpec, WebhookRow,
};
use holdfast_model::seat_drawing::{DrawnCategory, DrawnSeats, SeatDrawing};
use holdfast_model::{
    BookingSeat, BookingView, CancelResponse, CauseKind, EventDetail, EventKind, EventSummary,
    GeneralAdmissionArea, GeneralAdmissionLine, HistoryEntry, HoldResponse, PartRefund,
    PartRefundRequest, PartRefundState, PayResponse, PaymentView, PriceCategory, PromoApplied,
    QueueStatus, RefundPolicy, RefundWindow, Seat, SeatMapSnapshot, SeatStatus, SeatStatuses,
    SeatView, TicketView,
};
use serde::Deserialize;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};

use super::{
    account, admin, admin_events, admin_session, best, booking_history, bookings, door, events,
    holds, jobs, on_sale_admin, payments, promos, queue, rebooking, refunds, reports, sailings,
    seat_map, stream, team,
};
use holdfast_model::console::team::{
    ApiKeyView, CreatedApiKey, Grant, NewApiKey, NewInvitation, PendingInvitation, Role, Team,
    TeamMember,
};
use holdfast_model::sailing::{
    Fare, Guest, Manifest, ManifestPlace, PortCall, RebookingAnswer, RebookingChoice,
    RebookingOutcome, RebookingProgress, RebookingView, RouteRef, SailingDetail, SailingStatus,
    SailingSummary,
};
use holdfast_model::SeatId;

/// `POST /api/events/{eventId}/holds`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct HoldSeatsRequest {
    /// 1 to `MAX_SEATS_PER_BOOKING` distinct seats of the event.
    seat_ids: Vec<SeatId>,
    /// On a sailing: the party of each cabin, within its occupancy (a cabin
    /// not named is held for two, or its occupancy nearest two). A seat
    /// sits one.
    #[schema(nullable = false)]
    guests: Option<Vec<PartyRequest>>,
}

/// One cabin's party in `HoldSeatsRequest`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct PartyRequest {
    seat_id: SeatId,
    #[schema(minimum = 1, maximum = 12)]
    count: i64,
}

/// `POST /api/admin/sailings/{sailingId}/cancel`.
#[derive(Deserialize, ToSchema)]
#[allow(dead_code)]
pub struct CancelSailingRequest {
    /// Why (1 to 300 characters): the buyers read it.
    #[schema(example = "Storm warning: force 10 winds in the North Sea")]
    reason: String,
}

/// `POST /api/bookings/{bookingId}/rebooking`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct RebookingAnswerRequest {
    choice: RebookingChoice,
    /// With `SAILING`: one of the booking's `rebooking.otherSailings`.
    #[schema(nullable = false)]
    sailing_id: Option<i64>,
}

/// `PUT /api/bookings/{bookingId}/guests`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct GuestsRequest {
    /// Every guest of every place of the booking, as many per place as it
    /// was held for.
    guests: Vec<GuestRequest>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct GuestRequest {
    seat_id: SeatId,
    /// 1 to 100 characters.
    full_name: String,
    /// YYYY-MM-DD, from 1900 to the day of sailing.
    #[schema(format = Date)]
    birth_date: String,
}

/// `POST /api/events/{eventId}/general-admission/{areaId}/hold`.
#[derive(Deserialize, ToSchema)]
#[allow(dead_code)]
pub struct HoldPlacesRequest {
    quantity: i64,
}

struct Security;

impl Modify for Security {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
        components.add_security_scheme(
            "console_session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new("holdfast_session"))),
        );
    }
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Holdfast API",
        description = "Seat booking for concerts and cruises: live seat maps, atomic holds, Stripe payments. Errors: `{ error: { code, message, … } }`; see docs/API.md in the repository.",
        version = "1"
    ),
    paths(
        events::list, events::detail, seat_map::seats, seat_map::statuses, seat_map::drawing, stream::seats,
        holds::hold_one, holds::hold_many, holds::hold_general_admission, best::best_available,
        bookings::mine, bookings::show, bookings::release, bookings::cancel, bookings::check_ticket,
        account::email_link, account::sign_out, account::whoami, admin_events::set_refund_policy, admin::mailbox,
        payments::pay, payments::webhook,
        sailings::list, sailings::detail, sailings::set_guests,
        rebooking::cancel_sailing, rebooking::progress, rebooking::progress_stream, rebooking::answer,
        admin_session::login, admin_session::logout, admin_session::whoami, admin::holds, admin::invariants,
        admin::audit_log, admin_events::events, admin_events::create_event, admin_events::layout, admin_events::edit_layout, admin_events::publish,
        admin_events::unpublish, admin::dashboard, admin::dashboard_stream, admin::booking_action,
        reports::sales, reports::attendees_csv,
        door::check_in, jobs::list, jobs::run_now, booking_history::show, refunds::give, refunds::list,
        queue::join_queue, queue::queue_status, queue::queue_stream,
        promos::apply_promo, promos::claim_pooled,
        on_sale_admin::set_queue, on_sale_admin::queue_summary, on_sale_admin::move_on_sale,
        on_sale_admin::create_promo, on_sale_admin::list_promos,
        team::show, team::invite, team::change, team::remove, team::list_keys, team::create_key, team::revoke_key,
        openapi_json,
    ),
    components(schemas(
        EventKind, EventSummary, PriceCategory, GeneralAdmissionArea, EventDetail, RefundWindow, SeatStatus,
        Seat, SeatView, SeatMapSnapshot, SeatStatuses, SeatDrawing, DrawnSeats, DrawnCategory, HoldResponse, GeneralAdmissionLine, BookingSeat, BookingView,
        PayResponse, PaymentView, ErrorBody, ErrorDetail, FieldError, HoldSeatsRequest,
        HoldPlacesRequest, best::BestAvailableRequest, admin_session::SignIn, Dashboard, SeatCounts, SalesLine, StandingCount, LiveHold,
        BookingActivity, PartRefundRequest, PartRefund, PartRefundState, WebhookRow, MailRow, AuditRow, CanaryReport, ActionOutcome, BookingAction, EventLayout,
        CategorySpec, SectionSpec, StandingSpec, CreatedEvent,
        QueueStatus, PromoApplied, RoomSummary, NewPromo, PromoCampaign, CampaignKind,
        promos::PromoRequest, promos::PooledCode, on_sale_admin::RoomSettings, on_sale_admin::OnSaleTime,
        door::CheckInRequest, CheckedIn, CancelResponse, RefundPolicy, MailMessage, account::EmailLinkRequest, account::SignedIn, TicketView, JobView, JobRunView, RunOutcome, RunRequested, HistoryEntry, CauseKind,
        PartyRequest, GuestsRequest, GuestRequest, SailingSummary, SailingDetail, SailingStatus, RouteRef, PortCall, Fare, Guest, Manifest, ManifestPlace,
        CancelSailingRequest, RebookingAnswerRequest, RebookingView, RebookingOutcome, RebookingAnswer, RebookingChoice, RebookingProgress,
        Role, Team, TeamMember, PendingInvitation, NewInvitation, Grant, NewApiKey, ApiKeyView, CreatedApiKey,
    )),
    modifiers(&Security),
)]
pub struct ApiDoc;

#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "meta",
    summary = "This document",
    responses((status = 200, description = "OpenAPI 3 document", content_type = "application/json")),
)]
pub async fn openapi_json() -> Json<serde_json::Value> {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).unwrap_or_default();
    add_links(&mut doc);
    Json(doc)
}

/// OpenAPI links from the answers that name a booking to the operations on
/// that booking, so that clients and fuzzers (schemathesis' stateful phase)
/// can follow hold → booking → pay / release. Written into the document
/// itself: utoipa 5 serialises its `Link` with snake_case keys
/// (`operation_ref`), which OpenAPI tools do not read.
fn add_links(doc: &mut serde_json::Value) {
    let on_booking = |suffix: &str, method: &str| {
        serde_json::json!({
            "operationRef": format!("#/paths/~1api~1bookings~1{{bookingId}}{suffix}/{method}"),
            "parameters": { "bookingId": "$response.body#/bookingId" },
        })
    };
    let holds = [
        "/api/events/{eventId}/holds",
        "/api/events/{eventId}/seats/{seatId}/hold",
        "/api/events/{eventId}/general-admission/{areaId}/hold",
    ];
    let booking_links = serde_json::json!({
        "ShowBooking": on_booking("", "get"),
        "PayBooking": on_booking("~1pay", "post"),
        "ReleaseBooking": on_booking("", "delete"),
    });
    for path in holds {
        if let Some(ok) = doc.pointer_mut(&format!("/paths/{}/post/responses/200", escape(path))) {
            ok["links"] = booking_links.clone();
        }
    }
    if let Some(ok) = doc.pointer_mut("/paths/~1api~1bookings~1{bookingId}~1pay/post/responses/200")
    {
        ok["links"] = serde_json::json!({ "ShowBooking": on_booking("", "get") });
    }
}

/// A path as one JSON-pointer segment.
fn escape(path: &str) -> String {
    path.replace('~', "~0").replace('/', "~1")
}
