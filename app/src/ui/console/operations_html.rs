//! The operations views' fragments, rendered on the server (the Jobs table,
//! a booking's history): the console's pages put them in place as they
//! come. Rendered here, their markup and the types behind it stay out of
//! the browser's wasm, which the buyer's first visit pays for. Every text
//! from the database is escaped.

use crate::i18n::{Locale, Msg};
use crate::model::console::{JobRunView, JobView};
use crate::model::seat_drawing::escape;
use crate::model::HistoryEntry;

/// The Jobs table: a row per job (schedule, holder, next run, last runs)
/// with a Run now form posting to `/admin/jobs/{name}/run`.
pub fn jobs_table(l: Locale, jobs: &[JobView]) -> String {
    let head = [
        Msg::ColJob,
        Msg::ColSchedule,
        Msg::ColRunningOn,
        Msg::ColNextRun,
        Msg::ColLastRuns,
    ]
    .map(|m| format!("<th>{}</th>", escape(l.t(m))))
    .join("");
    let rows: String = jobs.iter().map(|j| job_row(l, j)).collect();
    format!(
        "<table class=\"job-list\"><thead><tr>{head}<th></th></tr></thead><tbody>{rows}</tbody></table>"
    )
}

fn job_row(l: Locale, j: &JobView) -> String {
    let name = escape(&j.name);
    let holder = j
        .holder
        .as_deref()
        .map_or_else(|| l.t(Msg::JobIdle).to_string(), escape);
    let runs = if j.runs.is_empty() {
        escape(l.t(Msg::NoRunsYet))
    } else {
        let items: String = j.runs.iter().map(run_item).collect();
        format!("<ol class=\"runs\">{items}</ol>")
    };
    // Each cell names its column (`data-label`): a phone shows the rows as
    // cards, without the table's head.
    let label = |m: Msg| escape(l.t(m));
    format!(
        "<tr data-job=\"{name}\"><th scope=\"row\">{name}</th>\
         <td data-label=\"{}\">{}</td><td data-label=\"{}\">{holder}</td>\
         <td data-label=\"{}\">{}</td><td data-label=\"{}\">{runs}</td>\
         <td><form method=\"post\" action=\"/admin/jobs/{name}/run\"><button class=\"run-now\">{}</button></form></td></tr>",
        label(Msg::ColSchedule),
        escape(&j.schedule),
        label(Msg::ColRunningOn),
        label(Msg::ColNextRun),
        clock_time(&j.next_run_at),
        label(Msg::ColLastRuns),
        label(Msg::RunNow),
    )
}

fn run_item(r: &JobRunView) -> String {
    let outcome = r.outcome.as_str();
    let error = r
        .error
        .as_deref()
        .map(|e| format!(" — {}", escape(e)))
        .unwrap_or_default();
    format!(
        "<li class=\"run {outcome}\">{} {outcome} · {} ms · {} · {}{error}</li>",
        clock_time(&r.started_at),
        r.took_ms,
        r.done,
        escape(&r.instance),
    )
}

/// A booking's history: from → to, why, by whom, when (UTC).
pub fn history_list(l: Locale, booking: &str, steps: &[HistoryEntry]) -> String {
    let short: String = booking.chars().take(8).collect();
    let title = escape(&l.fill(Msg::HistoryOf, &[("id", &short)]));
    let items: String = steps
        .iter()
        .map(|s| {
            let from = s
                .from
                .map(|f| format!("{} → ", f.words(l)))
                .unwrap_or_default();
            let by =
                s.by.as_deref()
                    .map(|b| format!(" ({b})"))
                    .unwrap_or_default();
            let what = match (s.refund_cents, &s.currency) {
                // A part refund: the status stays; the amount and why.
                (Some(cents), Some(currency)) => l.fill(
                    Msg::HistoryRefundedInPart,
                    &[
                        ("amount", &l.price(cents, currency)),
                        ("reason", &s.note.clone().unwrap_or_default()),
                    ],
                ),
                _ => format!("{from}{}", s.to.words(l)),
            };
            let line = format!("{what} · {}{by} · {}", s.cause.as_str(), clock_time(&s.at));
            format!("<li>{}</li>", escape(&line))
        })
        .collect();
    format!("<h3>{title}</h3><ol>{items}</ol>")
}

/// `2026-12-02T16:28:47.123Z` → `16:28:47 UTC`.
fn clock_time(rfc3339: &str) -> String {
    format!("{} UTC", escape(rfc3339.get(11..19).unwrap_or(rfc3339)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::console::RunOutcome;
    use crate::model::{BookingStatus, CauseKind};

    #[test]
    fn text_from_the_database_is_escaped() {
        let job = JobView {
            name: "outbox".into(),
            schedule: "every 1000 ms".into(),
            every_ms: 1000,
            next_run_at: "2026-12-02T16:28:47.123Z".into(),
            holder: Some("host<1>".into()),
            fence: 3,
            lease_until: None,
            runs: vec![JobRunView {
                fence: 2,
                instance: "host-1".into(),
                started_at: "2026-12-02T16:28:46.000Z".into(),
                ended_at: "2026-12-02T16:28:46.012Z".into(),
                took_ms: 12,
                outcome: RunOutcome::Failed,
                done: 0,
                error: Some("<script>alert(1)</script> & \"quotes\"".into()),
            }],
        };
        let html = jobs_table(Locale::En, &[job]);
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;"));
        assert!(html.contains("host&lt;1&gt;"));
        assert!(html.contains("<li class=\"run failed\">16:28:46 UTC failed · 12 ms · 0 · host-1"));
        assert!(html.contains(
            "action=\"/admin/jobs/outbox/run\"><button class=\"run-now\">Run now</button>"
        ));
        assert!(html.contains("<td data-label=\"Next run\">16:28:47 UTC</td>"));
    }

    #[test]
    fn a_history_reads_step_by_step() {
        let steps = vec![
            HistoryEntry {
                from: None,
                to: BookingStatus::Held,
                cause: CauseKind::Buyer,
                by: None,
                at: "2026-12-02T16:00:00.000Z".into(),
                refund_cents: None,
                currency: None,
                note: None,
            },
            HistoryEntry {
                from: Some(BookingStatus::Held),
                to: BookingStatus::Cancelled,
                cause: CauseKind::Admin,
                by: Some("console<x>".into()),
                at: "2026-12-02T16:01:00.000Z".into(),
                refund_cents: None,
                currency: None,
                note: None,
            },
        ];
        let html = history_list(Locale::En, "0123456789abcdef", &steps);
        assert!(
            html.starts_with("<h3>History of booking 01234567</h3><ol><li>"),
            "{html}"
        );
        assert!(html.contains("· buyer · 16:00:00 UTC</li>"), "{html}");
        assert!(
            html.contains("· admin (console&lt;x&gt;) · 16:01:00 UTC</li>"),
            "{html}"
        );
        assert_eq!(html.matches("<li>").count(), 2);
        let part = HistoryEntry {
            from: Some(BookingStatus::Booked),
            to: BookingStatus::Booked,
            cause: CauseKind::Admin,
            by: Some("console".into()),
            at: "2026-12-02T16:02:00.000Z".into(),
            refund_cents: Some(7200),
            currency: Some("EUR".into()),
            note: Some("<b>stage</b> view blocked".into()),
        };
        let html = history_list(Locale::En, "0123456789abcdef", &[part]);
        assert!(
            html.contains(
                "refunded in part: €72.00 (&lt;b&gt;stage&lt;/b&gt; view blocked) · admin"
            ),
            "{html}"
        );
    }
}
