//! The Jobs view: each periodic job, who runs it, and its last runs
//! (`GET /api/admin/jobs`).

use serde::{Deserialize, Serialize};

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum RunOutcome {
    Ok,
    Failed,
    /// Its holder stopped beating (a crash); another instance took over.
    Abandoned,
}

impl RunOutcome {
    pub const ALL: [RunOutcome; 3] = [RunOutcome::Ok, RunOutcome::Failed, RunOutcome::Abandoned];

    pub const fn as_str(self) -> &'static str {
        match self {
            RunOutcome::Ok => "ok",
            RunOutcome::Failed => "failed",
            RunOutcome::Abandoned => "abandoned",
        }
    }

    pub fn parse(s: &str) -> Option<RunOutcome> {
        Self::ALL.into_iter().find(|o| o.as_str() == s)
    }
}

/// One periodic job as the cluster shares it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    pub name: String,
    /// `every 1000 ms`, or `cron <sec min hour day month weekday>` (UTC).
    pub schedule: String,
    /// The usual gap between runs, across all instances.
    pub every_ms: i64,
    /// When it is next due (RFC 3339, UTC); in the past while it waits for
    /// a poll.
    pub next_run_at: String,
    /// The instance running it now, if any.
    pub holder: Option<String>,
    /// The fencing token of the current (or last) run.
    pub fence: i64,
    /// Until when the current run's lease lasts unless it beats again.
    pub lease_until: Option<String>,
    /// The newest runs first.
    pub runs: Vec<JobRunView>,
}

/// One finished (or abandoned) run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct JobRunView {
    pub fence: i64,
    pub instance: String,
    pub started_at: String,
    pub ended_at: String,
    pub took_ms: i64,
    pub outcome: RunOutcome,
    /// How many things it handled (holds expired, messages sent, …).
    pub done: i64,
    pub error: Option<String>,
}

/// The answer to "Run now".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RunRequested {
    pub name: String,
}
