//! Event setup: any number of price categories (with a colour picker),
//! seated sections (rows × seats, place, spacing, curve; on a ship, the
//! deck) and standing areas, with the map's preview redrawn as fields
//! change. An event is edited here until it is published; its layout is
//! exported and imported as JSON.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::setup_form::{CategoryRow, SectionRow, Setup, StandingRow};
use crate::i18n::{fill, t, Msg};
use crate::model::console::preview::preview;
use crate::model::console::seating::overlapping;
use crate::model::console::EventLayout;
use crate::model::EventId;
use crate::server_fns::console::{
    admin_create_event, admin_edit_layout, admin_event_layout, AdminEvent, Refusal,
};

pub type Events = Resource<Result<Option<Vec<AdminEvent>>, ServerFnError>>;

/// The field's message from the server's refusal, under the field.
fn error_of(
    refusal: RwSignal<Refusal>,
    field: impl Fn() -> Option<String> + Send + Sync + 'static,
) -> AnyView {
    let message = move || {
        let field = field()?;
        refusal.with(|r| {
            r.fields
                .iter()
                .find(|(f, _)| *f == field)
                .map(|(_, m)| m.clone())
        })
    };
    (move || message().map(|m| view! { <span class="field-error" role="alert">{m}</span> }))
        .into_any()
}

/// A labelled input bound to `value`, its error below it.
fn input(
    label: &'static str,
    kind: &'static str,
    value: RwSignal<String>,
    error: AnyView,
) -> impl IntoView {
    view! {
        <label>{label}
            <input type=kind prop:value=value on:input=move |ev| value.set(event_target_value(&ev))/>
            {error}
        </label>
    }
}

/// The form, editing `editing` (an unpublished event) or a new one.
#[component]
pub fn EventSetup(events: Events, editing: RwSignal<Option<EventId>>) -> impl IntoView {
    let setup = Setup::blank();
    let refusal = RwSignal::new(Refusal::default());
    let notice = RwSignal::new(None::<String>);
    let heading = NodeRef::<leptos::html::H2>::new();
    // An event chosen from the list is loaded into the form (not the one
    // the form itself just saved: its fields are already the event's).
    let in_form = StoredValue::new(None::<EventId>);
    Effect::new(move |_| {
        let Some(id) = editing.get() else { return };
        if in_form.get_value() == Some(id) {
            return;
        }
        in_form.set_value(Some(id));
        spawn_local(async move {
            let loaded = admin_event_layout(id).await;
            // Another event chosen meanwhile: this answer is not wanted.
            if editing.try_get_untracked() != Some(Some(id)) {
                return;
            }
            match loaded {
                Ok(Some(layout)) => {
                    setup.load(&layout);
                    refusal.set(Refusal::default());
                    notice.set(None);
                    if let Some(h) = heading.try_get_untracked().flatten() {
                        h.scroll_into_view();
                    }
                }
                // Never a form showing one event's fields under another's name.
                _ => {
                    in_form.set_value(None);
                    editing.set(None);
                    refusal.set(Refusal {
                        message: t(Msg::EventFailed).into(),
                        fields: Vec::new(),
                    });
                }
            }
        });
    });
    let layout = Memo::new(move |_| setup.layout());
    // One save at a time: a double click makes one event, not two.
    let saving = RwSignal::new(false);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if saving.get_untracked() {
            return;
        }
        saving.set(true);
        let layout = layout.get_untracked();
        let id = editing.get_untracked();
        spawn_local(async move {
            let saved = match id {
                Some(id) => admin_edit_layout(id, layout).await,
                None => admin_create_event(layout).await,
            };
            saving.set(false);
            match saved {
                Ok(Ok(c)) => {
                    refusal.set(Refusal::default());
                    let msg = if id.is_some() {
                        Msg::LayoutSaved
                    } else {
                        Msg::CreatedEvent
                    };
                    notice.set(Some(fill(
                        msg,
                        &[("id", &c.event_id), ("seats", &c.seat_count)],
                    )));
                    // Changes from now on go to the event just made.
                    in_form.set_value(Some(c.event_id));
                    editing.set(Some(c.event_id));
                    events.refetch();
                }
                Ok(Err(r)) => {
                    notice.set(None);
                    refusal.set(r);
                }
                Err(_) => refusal.set(Refusal {
                    message: t(Msg::SavingFailed).into(),
                    fields: Vec::new(),
                }),
            }
        });
    };
    let start_blank = move |_| {
        in_form.set_value(None);
        editing.set(None);
        setup.load(&Setup::blank_layout());
        refusal.set(Refusal::default());
        notice.set(None);
    };
    let top = move |field: &'static str| top_error(refusal, field);
    let kind = setup.kind;
    view! {
        <h2 node_ref=heading>{move || match editing.get() {
            Some(id) => fill(Msg::EditingEvent, &[("id", &id)]),
            None => t(Msg::NewEvent).to_string(),
        }}</h2>
        {move || editing.get().map(|_| view! {
            <p class="hint">{t(Msg::EditUntilPublished)} " "
                <button type="button" class="start-blank" on:click=start_blank>{t(Msg::StartBlank)}</button></p>
        })}
        <div class="setup">
            <form class="new-event" on:submit=submit novalidate>
                <fieldset><legend>{t(Msg::ColEvent)}</legend>
                    {input(t(Msg::FieldName), "text", setup.name, top("name"))}
                    <label>{t(Msg::ColKind)}
                        <select on:change=move |ev| kind.set(event_target_value(&ev)) prop:value=kind>
                            <option value="concert">{t(Msg::KindConcert)}</option>
                            <option value="cruise">{t(Msg::KindCruise)}</option>
                        </select>
                        {top("kind")}
                    </label>
                    {input(t(Msg::FieldVenue), "text", setup.venue, top("venue"))}
                    {input(t(Msg::FieldTimeZone), "text", setup.time_zone, top("timeZone"))}
                    {input(t(Msg::FieldStarts), "datetime-local", setup.starts, top("startsAt"))}
                    {input(t(Msg::FieldOnSale), "datetime-local", setup.on_sale, top("onSaleAt"))}
                    {input(t(Msg::FieldCurrency), "text", setup.currency, top("currency"))}
                </fieldset>
                <Categories setup refusal/>
                <Sections setup refusal/>
                <StandingAreas setup refusal/>
                <LayoutJson setup/>
                <button type="submit" class="save-event" disabled=move || saving.get()>{move || t(if editing.get().is_some() { Msg::SaveChanges } else { Msg::CreateEvent })}</button>
                {move || { let m = refusal.get().message; (!m.is_empty()).then(|| view! { <p class="error" role="alert">{m}</p> }) }}
                {move || notice.get().map(|m| view! { <p class="notice created" role="status">{m}</p> })}
            </form>
            <Preview layout/>
        </div>
    }
}

#[component]
fn Categories(setup: Setup, refusal: RwSignal<Refusal>) -> impl IntoView {
    let list = setup.categories;
    view! {
        <fieldset class="rows-of"><legend>{t(Msg::SetupCategories)}</legend>
            {top_error(refusal, "categories")}
            <For each=move || list.get() key=|c| c.key let:c>
                <CategoryCard setup c refusal/>
            </For>
            <button type="button" class="add" on:click=move |_| setup.add_category()>{t(Msg::AddCategory)}</button>
        </fieldset>
    }
}

fn top_error(refusal: RwSignal<Refusal>, field: &'static str) -> AnyView {
    error_of(refusal, move || Some(field.to_string()))
}

/// `categories[2].name` for this row wherever it now is in its list.
fn at<R: Copy + Send + Sync + 'static>(
    list: RwSignal<Vec<R>>,
    key: impl Fn(&R) -> usize + Copy + Send + Sync + 'static,
    me: usize,
    prefix: &'static str,
    field: &'static str,
) -> impl Fn() -> Option<String> + Copy + Send + Sync + 'static {
    move || {
        list.with(|l| l.iter().position(|r| key(r) == me))
            .map(|i| format!("{prefix}[{i}].{field}"))
    }
}

#[component]
fn CategoryCard(setup: Setup, c: CategoryRow, refusal: RwSignal<Refusal>) -> impl IntoView {
    let list = setup.categories;
    let f = move |field| error_of(refusal, at(list, |r| r.key, c.key, "categories", field));
    let remove = move |_| {
        // The refusal's indices were the list's before: drop them.
        refusal.set(Refusal::default());
        list.update(|l| l.retain(|r| r.key != c.key));
    };
    // A new code: the sections and standing areas in this category follow.
    let rename = move |ev: leptos::ev::Event| {
        let new = event_target_value(&ev);
        let old = c.code.get_untracked();
        let follow = |category: RwSignal<String>| {
            if category.get_untracked() == old {
                category.set(new.clone());
            }
        };
        setup
            .sections
            .with_untracked(|l| l.iter().for_each(|s| follow(s.category)));
        setup
            .standing
            .with_untracked(|l| l.iter().for_each(|g| follow(g.category)));
        c.code.set(new.clone());
    };
    view! {
        <fieldset class="card category">
            <legend>{move || fill(Msg::CategoryCard, &[("code", &c.code.get())])}</legend>
            <span class="swatch" style:background=move || c.color.get()></span>
            <label>{t(Msg::FieldCode)}
                <input type="text" prop:value=c.code on:input=rename/>
                {f("code")}
            </label>
            {input(t(Msg::FieldName), "text", c.name, f("name"))}
            {input(t(Msg::FieldPrice), "text", c.price, f("priceCents"))}
            {input(t(Msg::FieldColour), "color", c.color, f("color"))}
            <button type="button" class="remove" on:click=remove
                aria-label=move || fill(Msg::RemoveNamed, &[("name", &c.name.get())])>{t(Msg::RemoveRow)}</button>
        </fieldset>
    }
}

/// A `<select>` of the categories, bound to `value`.
fn category_select(setup: Setup, value: RwSignal<String>, error: AnyView) -> impl IntoView {
    view! {
        <label>{t(Msg::ColCategory)}
            <select on:change=move |ev| value.set(event_target_value(&ev))>
                {move || {
                    let chosen = value.get();
                    setup.categories.get().into_iter().map(|c| {
                        let code = c.code.get();
                        let name = format!("{} ({code})", c.name.get());
                        view! { <option value=code.clone() selected=code == chosen>{name}</option> }
                    }).collect_view()
                }}
            </select>
            {error}
        </label>
    }
}

#[component]
fn Sections(setup: Setup, refusal: RwSignal<Refusal>) -> impl IntoView {
    let list = setup.sections;
    view! {
        <fieldset class="rows-of"><legend>{t(Msg::SetupSections)}</legend>
            {top_error(refusal, "sections")}
            <For each=move || list.get() key=|s| s.key let:s>
                <SectionCard setup s refusal/>
            </For>
            <button type="button" class="add" on:click=move |_| setup.add_section()>{t(Msg::AddSection)}</button>
        </fieldset>
    }
}

#[component]
fn SectionCard(setup: Setup, s: SectionRow, refusal: RwSignal<Refusal>) -> impl IntoView {
    let list = setup.sections;
    let f = move |field| error_of(refusal, at(list, |r| r.key, s.key, "sections", field));
    let remove = move |_| {
        // The refusal's indices were the list's before: drop them.
        refusal.set(Refusal::default());
        list.update(|l| l.retain(|r| r.key != s.key));
    };
    let number = move || list.with(|l| l.iter().position(|r| r.key == s.key).map_or(0, |i| i + 1));
    let kind = setup.kind;
    view! {
        <fieldset class="card section">
            <legend>{move || fill(Msg::SectionCard, &[("n", &number())])}</legend>
            {input(t(Msg::FieldName), "text", s.name, f("name"))}
            {move || (kind.get() == "cruise").then(|| input(t(Msg::FieldDeck), "text", s.level, f("level")))}
            {category_select(setup, s.category, f("category"))}
            {input(t(Msg::FieldRows), "number", s.rows, f("rows"))}
            {input(t(Msg::FieldSeatsPerRow), "number", s.per_row, f("seatsPerRow"))}
            {input(t(Msg::FieldX), "number", s.x, f("x"))}
            {input(t(Msg::FieldY), "number", s.y, f("y"))}
            {input(t(Msg::FieldSpacing), "number", s.spacing, f("spacing"))}
            {input(t(Msg::FieldCurve), "number", s.curve, f("curve"))}
            {f("place")}
            <button type="button" class="remove" on:click=remove
                aria-label=move || fill(Msg::RemoveNamed, &[("name", &s.name.get())])>{t(Msg::RemoveRow)}</button>
        </fieldset>
    }
}

#[component]
fn StandingAreas(setup: Setup, refusal: RwSignal<Refusal>) -> impl IntoView {
    let list = setup.standing;
    view! {
        <fieldset class="rows-of"><legend>{t(Msg::SetupStanding)}</legend>
            <For each=move || list.get() key=|g| g.key let:g>
                <StandingCard setup g refusal/>
            </For>
            <button type="button" class="add" on:click=move |_| setup.add_standing()>{t(Msg::AddStanding)}</button>
        </fieldset>
    }
}

#[component]
fn StandingCard(setup: Setup, g: StandingRow, refusal: RwSignal<Refusal>) -> impl IntoView {
    let list = setup.standing;
    let f = move |field| {
        error_of(
            refusal,
            at(list, |r| r.key, g.key, "generalAdmission", field),
        )
    };
    let remove = move |_| {
        // The refusal's indices were the list's before: drop them.
        refusal.set(Refusal::default());
        list.update(|l| l.retain(|r| r.key != g.key));
    };
    let number = move || list.with(|l| l.iter().position(|r| r.key == g.key).map_or(0, |i| i + 1));
    view! {
        <fieldset class="card standing">
            <legend>{move || fill(Msg::StandingCard, &[("n", &number())])}</legend>
            {input(t(Msg::FieldName), "text", g.name, f("name"))}
            {category_select(setup, g.category, f("category"))}
            {input(t(Msg::FieldCapacity), "number", g.capacity, f("capacity"))}
            <button type="button" class="remove" on:click=remove
                aria-label=move || fill(Msg::RemoveNamed, &[("name", &g.name.get())])>{t(Msg::RemoveRow)}</button>
        </fieldset>
    }
}

/// The layout as JSON: downloaded as it stands, or pasted (or read from a
/// file) to fill the form.
#[component]
fn LayoutJson(setup: Setup) -> impl IntoView {
    let pasted = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let import = move |text: String| match serde_json::from_str::<EventLayout>(&text) {
        Ok(layout) => {
            setup.load(&layout);
            problem.set(None);
        }
        Err(e) => problem.set(Some(fill(Msg::ImportFailed, &[("why", &e)]))),
    };
    let href = move || data_url(&setup.json());
    let show = move |_| pasted.set(setup.json());
    let from_file = move |ev: leptos::ev::Event| {
        #[cfg(feature = "hydrate")]
        {
            use wasm_bindgen::JsCast;
            let file = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                .and_then(|i| i.files())
                .and_then(|f| f.get(0));
            if let Some(file) = file {
                spawn_local(async move {
                    let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
                    match text.ok().and_then(|t| t.as_string()) {
                        Some(text) => import(text),
                        None => problem.set(Some(fill(Msg::ImportFailed, &[("why", &"?")]))),
                    }
                });
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = ev;
    };
    view! {
        <details class="layout-json">
            <summary>{t(Msg::LayoutJsonLegend)}</summary>
            <p><a class="download-layout" download="layout.json" href=href>{t(Msg::DownloadLayout)}</a></p>
            <label>{t(Msg::ImportFile)}
                <input type="file" accept="application/json,.json" on:change=from_file/>
            </label>
            <label>{t(Msg::PasteLayout)}
                <textarea class="layout-text" rows="8" prop:value=pasted
                    on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
            </label>
            <p>
                <button type="button" class="show-layout" on:click=show>{t(Msg::ShowLayout)}</button> " "
                <button type="button" class="import-layout" on:click=move |_| import(pasted.get_untracked())>{t(Msg::ImportLayout)}</button>
            </p>
            {move || problem.get().map(|p| view! { <p class="error" role="alert">{p}</p> })}
        </details>
    }
}

/// `data:` URL of a JSON text.
fn data_url(json: &str) -> String {
    format!(
        "data:application/json;charset=utf-8,{}",
        crate::model::percent::encode(json)
    )
}

/// The seats as they will be drawn, deck by deck, and the standing areas.
#[component]
fn Preview(layout: Memo<EventLayout>) -> impl IntoView {
    let summary = move || {
        layout.with(|l| {
            let seats: usize = l.sections.iter().map(|s| s.placed_seats().len()).sum();
            let standing: i64 = l.general_admission.iter().map(|g| g.capacity.max(0)).sum();
            fill(
                Msg::PreviewSummary,
                &[
                    ("seats", &seats),
                    ("standing", &standing),
                    ("categories", &l.categories.len()),
                ],
            )
        })
    };
    let decks = move || {
        let decks = layout.with(preview);
        if decks.is_empty() {
            return view! { <p class="empty">{t(Msg::PreviewEmpty)}</p> }.into_any();
        }
        decks
            .into_iter()
            .map(|d| {
                let label = fill(Msg::PreviewLabel, &[("n", &d.seat_count)]);
                view! {
                    <figure class="deck-preview">
                        {d.level.map(|l| view! { <figcaption>{fill(Msg::DeckCaption, &[("deck", &l)])}</figcaption> })}
                        <svg viewBox=d.view_box role="img" aria-label=label>
                            {d.seats.into_iter().map(|(c, p)| view! { <path d=p fill=c/> }).collect_view()}
                            {d.labels.into_iter().map(|(n, x, y, size)| view! {
                                <text x=x y=y font-size=size text-anchor="middle">{n}</text>
                            }).collect_view()}
                        </svg>
                    </figure>
                }
            })
            .collect_view()
            .into_any()
    };
    let standing = move || {
        layout.with(|l| {
            l.general_admission
                .iter()
                .map(|g| {
                    let colour = l
                        .categories
                        .iter()
                        .find(|c| c.code == g.category)
                        .map_or("#888888".to_string(), |c| c.color.clone());
                    let text = fill(
                        Msg::StandingPreview,
                        &[("name", &g.name), ("n", &g.capacity)],
                    );
                    view! { <li><span class="swatch" style:background=colour></span>{text}</li> }
                })
                .collect_view()
        })
    };
    // Sections drawn over each other (the server refuses them too).
    let overlaps = move || {
        layout.with(|l| {
            overlapping(&l.sections)
                .into_iter()
                .map(|(i, j)| {
                    let text = fill(
                        Msg::PreviewOverlap,
                        &[("a", &l.sections[i].name), ("b", &l.sections[j].name)],
                    );
                    view! { <p class="warning overlap">{text}</p> }
                })
                .collect_view()
        })
    };
    view! {
        <aside class="setup-preview" aria-labelledby="setup-preview-heading">
            <h3 id="setup-preview-heading">{t(Msg::PreviewHeading)}</h3>
            <p class="preview-summary">{summary}</p>
            {overlaps}
            {decks}
            <ul class="standing-preview">{standing}</ul>
        </aside>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_data_url_carries_the_json_as_is() {
        assert_eq!(
            super::data_url("{\"a\": \"é\"}"),
            "data:application/json;charset=utf-8,%7B%22a%22%3A%20%22%C3%A9%22%7D"
        );
    }
}
