//! Tracing logs, filtered by `RUST_LOG` (default `info`).

pub fn init() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .try_init();
}

/// The span each request is logged in (`tower_http=debug`): its method and
/// its path with every secret left out — the query (admission tokens,
/// checkout ids) and any segment long enough to be a token (a sign-in
/// link's 64 characters, a ticket's signed token). Ids (numbers, booking
/// UUIDs) stay, so a request can still be found.
pub fn request_span<B>(request: &axum::http::Request<B>) -> tracing::Span {
    tracing::debug_span!(
        "request",
        method = %request.method(),
        path = %redacted_path(request.uri().path()),
    )
}

/// A segment this long is never an id of ours (a UUID is 36).
const LONGEST_ID: usize = 40;

fn redacted_path(path: &str) -> String {
    path.split('/')
        .map(|segment| {
            if segment.len() > LONGEST_ID || segment.contains('.') && segment.len() > 16 {
                "[redacted]"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::redacted_path;

    #[test]
    fn tokens_never_reach_the_request_log() {
        let link = format!("/auth/{}", "ab".repeat(32));
        assert_eq!(redacted_path(&link), "/auth/[redacted]");
        assert_eq!(
            redacted_path("/api/admin/tickets/Zm9vYmFy.c2lnbmF0dXJlMTIz/check-in"),
            "/api/admin/tickets/[redacted]/check-in"
        );
        // Ids stay.
        let booking = "/api/bookings/5f0c6a52-4b5e-4d8e-9a8f-0c1d2e3f4a5b/pay";
        assert_eq!(redacted_path(booking), booking);
        assert_eq!(
            redacted_path("/api/events/2/seats/17/hold"),
            "/api/events/2/seats/17/hold"
        );
        assert_eq!(redacted_path("/pkg/holdfast.css"), "/pkg/holdfast.css");
    }
}
