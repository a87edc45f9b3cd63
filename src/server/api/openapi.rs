//! `GET /api/openapi.json`: the OpenAPI 3 document of every `/api`
//! endpoint, generated (utoipa) from the handlers' own annotations and the
//! types they exchange. `tests/openapi.rs` checks it against the routes the
//! router registers.

use axum::Json;
use holdfast_app::console_model::{
    ActionOutcome, AuditRow, BookingActivity, CanaryReport, CategorySpec, CreatedEvent, Dashboard,
    EventLayout, LiveHold, MailRow, SeatCounts, SectionSpec, StandingCount, StandingSpec,
    WebhookRow,
};
use holdfast_app::core::error::{ErrorBody, ErrorDetail, FieldError};
use holdfast_app::model::{
    BookingSeat, BookingView, EventDetail, EventKind, EventSummary, GeneralAdmissionArea,
    GeneralAdmissionLine, HoldResponse, PayResponse, PaymentView, PriceCategory, SeatMapSnapshot,
    SeatStatus, SeatView,
};
use serde::Deserialize;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};

use super::{admin, bookings, events, holds, payments, stream};

/// `POST /api/events/{eventId}/holds`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct HoldSeatsRequest {
    /// 1 to `MAX_SEATS_PER_BOOKING` distinct seats of the event.
    seat_ids: Vec<i64>,
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

/// OpenAPI links from the answers that name a booking to the operations on
/// that booking, so that clients and fuzzers (schemathesis' stateful phase)
/// can follow hold → booking → pay / release.
struct Links;

impl Modify for Links {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{link::LinkBuilder, RefOr};
        let on_booking = |suffix: &str, method: &str| {
            LinkBuilder::new()
                .operation_ref(format!(
                    "#/paths/~1api~1bookings~1{{bookingId}}{suffix}/{method}"
                ))
                .parameter("bookingId", "$response.body#/bookingId")
                .build()
        };
        let holds = [
            "/api/events/{eventId}/holds",
            "/api/events/{eventId}/seats/{seatId}/hold",
            "/api/events/{eventId}/general-admission/{areaId}/hold",
        ];
        let mut answers: Vec<(&str, Vec<(&str, &str, &str)>)> = holds
            .iter()
            .map(|p| {
                (
                    *p,
                    vec![
                        ("ShowBooking", "", "get"),
                        ("PayBooking", "~1pay", "post"),
                        ("ReleaseBooking", "", "delete"),
                    ],
                )
            })
            .collect();
        answers.push((
            "/api/bookings/{bookingId}/pay",
            vec![("ShowBooking", "", "get")],
        ));
        for (path, links) in answers {
            let Some(op) = openapi
                .paths
                .paths
                .get_mut(path)
                .and_then(|i| i.post.as_mut())
            else {
                continue;
            };
            if let Some(RefOr::T(ok)) = op.responses.responses.get_mut("200") {
                for (name, suffix, method) in links {
                    ok.links
                        .insert(name.to_string(), RefOr::T(on_booking(suffix, method)));
                }
            }
        }
    }
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Holdfast API",
        description = "Seat booking for concerts and cruises: live seat maps, atomic holds, Stripe payments. Errors: `{ error: { code, message, … } }`; see API.md.",
        version = "1"
    ),
    paths(
        events::list, events::detail, events::seats, stream::seats,
        holds::hold_one, holds::hold_many, holds::hold_general_admission,
        bookings::mine, bookings::show, bookings::release, bookings::check_ticket,
        payments::pay, payments::webhook,
        admin::login, admin::logout, admin::whoami, admin::holds, admin::invariants,
        admin::audit_log, admin::events, admin::create_event, admin::publish,
        admin::unpublish, admin::dashboard, admin::dashboard_stream, admin::booking_action,
        openapi_json,
    ),
    components(schemas(
        EventKind, EventSummary, PriceCategory, GeneralAdmissionArea, EventDetail, SeatStatus,
        SeatView, SeatMapSnapshot, HoldResponse, GeneralAdmissionLine, BookingSeat, BookingView,
        PayResponse, PaymentView, ErrorBody, ErrorDetail, FieldError, HoldSeatsRequest,
        HoldPlacesRequest, admin::SignIn, Dashboard, SeatCounts, StandingCount, LiveHold,
        BookingActivity, WebhookRow, MailRow, AuditRow, CanaryReport, ActionOutcome, EventLayout,
        CategorySpec, SectionSpec, StandingSpec, CreatedEvent,
    )),
    modifiers(&Security, &Links),
)]
pub struct ApiDoc;

#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "meta",
    summary = "This document",
    responses((status = 200, description = "OpenAPI 3 document", content_type = "application/json")),
)]
pub async fn openapi_json() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
