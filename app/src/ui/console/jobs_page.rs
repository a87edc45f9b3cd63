//! The console's Jobs page (`/admin/jobs`): every periodic job, the
//! instance running it now, when it runs next and its last runs (outcome,
//! time taken, what it did, its error), with "Run now".

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::i18n::{fill, t, Msg};
use crate::model::console::{JobRunView, JobView};
use crate::server_fns::operations::{admin_jobs, admin_run_job};

#[component]
pub fn JobsPage() -> impl IntoView {
    let jobs = Resource::new(|| (), |_| admin_jobs());
    let notice = RwSignal::new(None::<String>);
    let run_now = move |name: String| {
        spawn_local(async move {
            if let Ok(true) = admin_run_job(name.clone()).await {
                notice.set(Some(fill(Msg::RunAsked, &[("job", &name)])));
            }
            jobs.refetch();
        });
    };
    view! {
        <section class="jobs">
            <p><a href="/admin">"← Console"</a></p>
            <h1>{t(Msg::JobsHeading)}</h1>
            <p>{t(Msg::JobsIntro)}</p>
            {move || notice.get().map(|n| view! { <p class="notice" role="status">{n}</p> })}
            <Transition fallback=|| view! { <p>{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match jobs.await {
                        Ok(Some(list)) => view! {
                            <table class="job-list">
                                <thead><tr><th>{t(Msg::ColJob)}</th><th>{t(Msg::ColEvery)}</th><th>{t(Msg::ColRunningOn)}</th><th>{t(Msg::ColNextRun)}</th><th>{t(Msg::ColLastRuns)}</th><th></th></tr></thead>
                                <tbody>{list.into_iter().map(|j| job_row(j, run_now)).collect_view()}</tbody>
                            </table>
                        }.into_any(),
                        _ => view! { <p class="notice">{t(Msg::SignInConsoleFirst)} <a href="/admin">{t(Msg::SignInLink)}</a></p> }.into_any(),
                    }
                })}
            </Transition>
        </section>
    }
}

fn job_row(j: JobView, run_now: impl Fn(String) + Copy + 'static) -> impl IntoView {
    let (name, key) = (j.name.clone(), j.name.clone());
    let runs = if j.runs.is_empty() {
        view! { <span>{t(Msg::NoRunsYet)}</span> }.into_any()
    } else {
        view! { <ol class="runs">{j.runs.into_iter().map(run_item).collect_view()}</ol> }.into_any()
    };
    view! {
        <tr data-job=key>
            <th scope="row">{j.name}</th>
            <td>{j.schedule}</td>
            <td>{j.holder.unwrap_or_else(|| t(Msg::JobIdle).to_string())}</td>
            <td>{clock_time(&j.next_run_at)}</td>
            <td>{runs}</td>
            <td><button class="run-now" on:click=move |_| run_now(name.clone())>{t(Msg::RunNow)}</button></td>
        </tr>
    }
}

fn run_item(r: JobRunView) -> impl IntoView {
    let outcome = r.outcome.as_str();
    let error = r.error.map(|e| format!(" — {e}"));
    view! {
        <li class=format!("run {outcome}")>
            {format!("{} {outcome} · {} ms · {} · {}", clock_time(&r.started_at), r.took_ms, r.done, r.instance)}
            {error}
        </li>
    }
}

/// `2026-12-02T16:28:47.123Z` → `16:28:47 UTC`.
fn clock_time(rfc3339: &str) -> String {
    format!("{} UTC", rfc3339.get(11..19).unwrap_or(rfc3339))
}
