//! Server functions of the cruise pages: the home page's events and routes,
//! a route's sailings by date. Each calls `core::catalog` or
//! `core::sailing::catalog`, as the REST handlers do.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use super::server_error;
use crate::model::sailing::RouteSailings;
use crate::model::EventSummary;

/// The home page: the events that are not sailings, and the sailings by route.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HomeData {
    pub events: Vec<EventSummary>,
    pub routes: Vec<RouteSailings>,
}

#[server]
pub async fn home_page() -> Result<HomeData, ServerFnError> {
    let state = expect_context::<crate::core::AppState>();
    let sailings = crate::core::sailing::catalog::list(&state, None)
        .await
        .map_err(server_error)?;
    let events = crate::core::catalog::list_events(&state)
        .await
        .map_err(server_error)?
        .into_iter()
        .filter(|e| !sailings.iter().any(|s| s.id == e.id))
        .collect();
    Ok(HomeData {
        events,
        routes: RouteSailings::group(sailings),
    })
}

/// Every route with its sailings (the page shows one at a time).
#[server]
pub async fn sailings_by_route() -> Result<Vec<RouteSailings>, ServerFnError> {
    let state = expect_context::<crate::core::AppState>();
    let sailings: Vec<crate::model::sailing::SailingSummary> =
        crate::core::sailing::catalog::list(&state, None)
            .await
            .map_err(server_error)?;
    Ok(RouteSailings::group(sailings))
}
