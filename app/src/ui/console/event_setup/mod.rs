//! Event setup: any number of price categories (with a colour picker),
//! seated sections (rows × seats, place, spacing, curve; on a ship, the
//! deck) and standing areas, with the map's preview redrawn as fields
//! change. An event is edited here until it is published; its layout is
//! exported and imported as JSON.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::setup_form::Setup;
use crate::i18n::{fill, t, Msg};
use crate::model::EventId;
use crate::server_fns::console::{
    admin_create_event, admin_edit_layout, admin_event_layout, AdminEvent, Refusal,
};

mod cards;
mod layout_json;
mod preview;
use cards::{top_error, Categories, Sections, StandingAreas};
use layout_json::LayoutJson;
use preview::Preview;

pub type Events = Resource<Result<Option<Vec<AdminEvent>>, ServerFnError>>;

/// The field's message from the server's refusal, under the field.
pub(super) fn error_of(
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
pub(super) fn input(
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
