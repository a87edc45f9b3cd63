//! The REST API of docs/API.md. Handlers parse input at the edge, call one use
//! case, and shape the answer; they decide no transition themselves.

mod account;
mod admin;
mod admin_events;
mod admin_session;
mod best;
mod booking_history;
mod bookings;
mod door;
mod ending;
mod events;
pub(crate) mod extract;
mod health;
mod hold_attempt;
mod holds;
mod jobs;
mod on_sale_admin;
pub mod openapi;
mod payments;
mod promos;
mod queue;
pub mod rebooking;
mod refunds;
mod reports;
pub mod sailings;
mod seat_map;
mod stream;
mod team;

use axum::extract::DefaultBodyLimit;
use axum::routing::{any, delete, get, post, put};
use axum::Router;
use holdfast_core::{ApiError, AppState};
use holdfast_web::HttpError;

/// Request bodies of the API are small JSON documents.
pub const MAX_BODY_BYTES: usize = 16 * 1024;
/// Provider events are larger.
pub const WEBHOOK_MAX_BYTES: usize = 512 * 1024;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/api/events", get(events::list))
        .route("/api/events/{eventId}", get(events::detail))
        .route("/api/sailings", get(sailings::list))
        .route("/api/sailings/{sailingId}", get(sailings::detail))
        .route(
            "/api/bookings/{bookingId}/guests",
            put(sailings::set_guests),
        )
        .route(
            "/api/bookings/{bookingId}/rebooking",
            post(rebooking::answer),
        )
        .route(
            "/api/admin/sailings/{sailingId}/cancel",
            post(rebooking::cancel_sailing),
        )
        .route(
            "/api/admin/sailings/{sailingId}/rebooking",
            get(rebooking::progress),
        )
        .route(
            "/api/admin/sailings/{sailingId}/rebooking/stream",
            get(rebooking::progress_stream),
        )
        .route("/api/events/{eventId}/seats", get(seat_map::seats))
        .route(
            "/api/events/{eventId}/seats/status",
            get(seat_map::statuses),
        )
        .route(
            "/api/events/{eventId}/seats/drawing",
            get(seat_map::drawing),
        )
        .route("/api/events/{eventId}/seats/stream", get(stream::seats))
        .route(
            "/api/events/{eventId}/seats/{seatId}/hold",
            post(holds::hold_one),
        )
        .route("/api/events/{eventId}/holds", post(holds::hold_many))
        .route(
            "/api/events/{eventId}/best-available",
            post(best::best_available),
        )
        .route(
            "/api/events/{eventId}/queue",
            get(queue::queue_status).post(queue::join_queue),
        )
        .route(
            "/api/events/{eventId}/queue/stream",
            get(queue::queue_stream),
        )
        .route("/api/bookings/{bookingId}/promo", post(promos::apply_promo))
        .route("/api/promos/{campaignId}/claim", post(promos::claim_pooled))
        .route(
            "/api/admin/events/{eventId}/queue",
            get(on_sale_admin::queue_summary).put(on_sale_admin::set_queue),
        )
        .route(
            "/api/admin/promos",
            get(on_sale_admin::list_promos).post(on_sale_admin::create_promo),
        )
        .route(
            "/api/events/{eventId}/general-admission/{areaId}/hold",
            post(holds::hold_general_admission),
        )
        .route("/api/bookings", get(bookings::mine))
        .route("/api/tickets/{token}", get(bookings::check_ticket))
        .route(
            "/api/bookings/{bookingId}",
            get(bookings::show).delete(bookings::release),
        )
        .route("/api/bookings/{bookingId}/pay", post(payments::pay))
        .route("/api/bookings/{bookingId}/cancel", post(bookings::cancel))
        .route("/api/auth/email-link", post(account::email_link))
        .route("/api/auth/sign-out", post(account::sign_out))
        .route("/api/auth/session", get(account::whoami))
        .route("/api/admin/mailbox", get(admin::mailbox))
        .route(
            "/api/admin/events/{eventId}/refund-policy",
            put(admin_events::set_refund_policy),
        )
        .route(
            "/api/payments/webhook",
            post(payments::webhook).layer(DefaultBodyLimit::max(WEBHOOK_MAX_BYTES)),
        )
        .route("/api/admin/login", post(admin_session::login))
        .route("/api/admin/logout", post(admin_session::logout))
        .route("/api/admin/session", get(admin_session::whoami))
        .route("/api/admin/holds", get(admin::holds))
        .route("/api/admin/invariants", get(admin::invariants))
        .route("/api/admin/jobs", get(jobs::list))
        .route("/api/admin/jobs/{jobName}/run", post(jobs::run_now))
        .route("/api/admin/audit", get(admin::audit_log))
        .route(
            "/api/admin/events",
            get(admin_events::events).post(admin_events::create_event),
        )
        .route(
            "/api/admin/events/{eventId}/layout",
            get(admin_events::layout).put(admin_events::edit_layout),
        )
        .route(
            "/api/admin/events/{eventId}/publish",
            post(admin_events::publish),
        )
        .route(
            "/api/admin/events/{eventId}/unpublish",
            post(admin_events::unpublish),
        )
        .route(
            "/api/admin/events/{eventId}/dashboard",
            get(admin::dashboard),
        )
        .route("/api/admin/events/{eventId}/sales", get(reports::sales))
        .route(
            "/api/admin/events/{eventId}/on-sale",
            put(on_sale_admin::move_on_sale),
        )
        .route(
            "/api/admin/events/{eventId}/attendees.csv",
            get(reports::attendees_csv),
        )
        .route(
            "/api/admin/events/{eventId}/stream",
            get(admin::dashboard_stream),
        )
        .route(
            "/api/admin/bookings/{bookingId}/history",
            get(booking_history::show),
        )
        .route(
            "/api/admin/bookings/{bookingId}/refunds",
            get(refunds::list).post(refunds::give),
        )
        .route(
            "/api/admin/bookings/{bookingId}/{action}",
            post(admin::booking_action),
        )
        .route("/api/admin/tickets/{token}/check-in", post(door::check_in))
        .route("/api/admin/team", get(team::show))
        .route("/api/admin/team/invitations", post(team::invite))
        .route(
            "/api/admin/team/{personId}",
            put(team::change).delete(team::remove),
        )
        .route(
            "/api/admin/keys",
            get(team::list_keys).post(team::create_key),
        )
        .route("/api/admin/keys/{keyId}", delete(team::revoke_key))
        .route("/api/openapi.json", get(openapi::openapi_json))
        .route("/api/{*rest}", any(not_found))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
}

async fn not_found() -> HttpError {
    HttpError(ApiError::NotFound("endpoint"))
}
