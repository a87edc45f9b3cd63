//! The setup form's cards: price categories, seated sections and standing
//! areas, each with its fields, its errors under them, and remove.

use leptos::prelude::*;

use super::super::setup_form::{CategoryRow, SectionRow, Setup, StandingRow};
use super::{error_of, input};
use crate::i18n::{fill, t, Msg};
use crate::server_fns::console::Refusal;

#[component]
pub(super) fn Categories(setup: Setup, refusal: RwSignal<Refusal>) -> impl IntoView {
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

pub(super) fn top_error(refusal: RwSignal<Refusal>, field: &'static str) -> AnyView {
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
pub(super) fn Sections(setup: Setup, refusal: RwSignal<Refusal>) -> impl IntoView {
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
pub(super) fn StandingAreas(setup: Setup, refusal: RwSignal<Refusal>) -> impl IntoView {
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
