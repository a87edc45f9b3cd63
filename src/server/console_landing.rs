//! Where the console opens: for a person who still owes their second
//! factor, on the page that asks for it; for a person whose role is the
//! door's, on the scanner, whichever console page they asked for — the
//! others show what their role may not read. Decided by the role
//! (`access::allows`, `two_factor::needed_by`), read from the session as
//! every admin request reads it.

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use holdfast_core::admin::access::{allows, Permission};
use holdfast_core::AppState;
use tower_sessions::Session;

/// The scanner's page.
const SCANNER: &str = "/admin/scan";
/// The second step of signing in.
const SECOND_FACTOR: &str = "/admin/two-factor";

pub async fn door_to_scanner(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if req.method() == Method::GET && is_console_page(req.uri().path()) {
        if let Some(session) = req.extensions().get::<Session>().cloned() {
            let now = state.clock.now();
            if let Ok(Some(_)) = state.admin.owing_second_factor(&session, now).await {
                return Redirect::to(SECOND_FACTOR).into_response();
            }
            if let Ok(Some(admin)) = state.admin.session_admin(&session, now, None).await {
                let only_the_door = allows(admin.role, Permission::CheckIn)
                    && !allows(admin.role, Permission::Reports)
                    && !allows(admin.role, Permission::Bookings);
                if only_the_door {
                    return Redirect::to(SCANNER).into_response();
                }
            }
        }
    }
    next.run(req).await
}

/// The console's own pages (the Leptos ones and the operations pages), not
/// the scanner, the sign-in pages or the API.
fn is_console_page(path: &str) -> bool {
    (path == "/admin" || path.starts_with("/admin/"))
        && path != SCANNER
        && !path.starts_with(SECOND_FACTOR)
        && !path.starts_with("/admin/sign-in")
        && !path.starts_with("/admin/join/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scanner_and_the_ways_in_are_left_alone() {
        assert!(is_console_page("/admin"));
        assert!(is_console_page("/admin/events/1"));
        assert!(is_console_page("/admin/team"));
        assert!(!is_console_page("/admin/scan"));
        assert!(!is_console_page("/admin/two-factor"));
        assert!(!is_console_page("/admin/sign-in/abc"));
        assert!(!is_console_page("/admin/join/abc"));
        assert!(!is_console_page("/api/admin/events"));
        assert!(!is_console_page("/administration"));
    }
}
