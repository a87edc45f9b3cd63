//! The on-sale panel's promo campaigns: the table of campaigns with their
//! uses, and the form that creates one (% or an amount, a time window).

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::i18n::{fill, t, use_locale, Msg};
use crate::model::console::{CampaignKind, NewPromo, PromoCampaign};
use crate::model::EventId;
use crate::server_fns::console::admin_create_promo;

#[component]
pub(super) fn PromoTable(list: Vec<PromoCampaign>, currency: String) -> impl IntoView {
    if list.is_empty() {
        return view! { <p class="notice">{t(Msg::NoCampaigns)}</p> }.into_any();
    }
    view! {
        <table class="promos">
            <thead><tr><th>{t(Msg::FieldName)}</th><th>{t(Msg::ColKind)}</th><th>{t(Msg::ColDiscount)}</th><th>{t(Msg::ColValid)}</th><th>{t(Msg::ColUsed)}</th><th>{t(Msg::ColCodes)}</th></tr></thead>
            <tbody>{list.into_iter().map(|c| {
                let money = |minor: i64| use_locale().price(minor, &currency);
                let discount = match (c.percent_off, c.amount_off_cents) {
                    (p, 0) => format!("{p}%"),
                    (0, a) => fill(Msg::AmountOffShown, &[("amount", &money(a))]),
                    (p, a) => format!("{p}% + {}", money(a)),
                };
                let used = match (c.kind, c.max_uses) {
                    (CampaignKind::Capped, Some(m)) => fill(Msg::UsedOf, &[("used", &c.redeemed), ("of", &m)]),
                    (CampaignKind::Pooled, _) => fill(Msg::PoolUsed, &[("redeemed", &c.redeemed), ("handed", &c.handed_out), ("count", &c.code_count)]),
                    _ => fill(Msg::UsedOf, &[("used", &c.redeemed), ("of", &c.code_count)]),
                };
                let codes = if c.kind == CampaignKind::Pooled {
                    fill(Msg::PoolCodes, &[("count", &c.code_count), ("first", &c.codes.first().cloned().unwrap_or_default())])
                } else {
                    c.codes.join(", ")
                };
                let at = |v: &Option<String>| v.as_deref().map(|u| crate::ui::console::words::when(use_locale(), "", u));
                let valid = match (at(&c.starts_at), at(&c.ends_at)) {
                    (None, None) => t(Msg::ValidAlways).to_string(),
                    (Some(s), None) => fill(Msg::ValidFrom, &[("from", &s)]),
                    (None, Some(e)) => fill(Msg::ValidUntil, &[("until", &e)]),
                    (Some(s), Some(e)) => fill(Msg::ValidBetween, &[("from", &s), ("until", &e)]),
                };
                view! { <tr><td>{c.name}</td><td>{campaign_kind(c.kind.as_str())}</td><td>{discount}</td><td>{valid}</td><td data-testid="promo-used">{used}</td><td><code>{codes}</code></td></tr> }
            }).collect_view()}</tbody>
        </table>
    }
    .into_any()
}

#[component]
pub(super) fn NewPromoForm(
    event_id: EventId,
    promos: Resource<Result<Option<Vec<PromoCampaign>>, ServerFnError>>,
    currency: String,
) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let kind = RwSignal::new("single".to_string());
    let code = RwSignal::new(String::new());
    // A discount is a percentage or an amount, never both.
    let by_amount = RwSignal::new(false);
    let percent = RwSignal::new("10".to_string());
    let amount = RwSignal::new(String::new());
    let starts = RwSignal::new(String::new());
    let ends = RwSignal::new(String::new());
    let max_uses = RwSignal::new("100".to_string());
    let count = RwSignal::new("100".to_string());
    let message = RwSignal::new(None::<(bool, String)>);
    let number = |s: RwSignal<String>| s.get_untracked().trim().parse::<i64>().ok();
    let form_currency = currency.clone();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let kind_now = kind.get_untracked();
        // In the currency's own digits (no cents in đồng or yen); an amount
        // that does not read is sent as -1, which the server refuses.
        let amount_text = amount.get_untracked();
        let amount_off = if !by_amount.get_untracked() {
            0
        } else if amount_text.trim().is_empty() {
            -1
        } else {
            crate::model::money::parse_amount(&amount_text, &form_currency).unwrap_or(-1)
        };
        let when = |s: RwSignal<String>| Some(s.get_untracked()).filter(|t| !t.trim().is_empty());
        let typed_code = code.get_untracked().trim().to_string();
        let form = NewPromo {
            name: name.get_untracked(),
            event_id: Some(event_id),
            percent_off: if by_amount.get_untracked() {
                0
            } else {
                number(percent).unwrap_or(0)
            },
            starts_at: when(starts),
            ends_at: when(ends),
            amount_off_cents: amount_off,
            code: (kind_now != "pooled" && !typed_code.is_empty()).then_some(typed_code),
            max_uses: (kind_now == "capped").then(|| number(max_uses).unwrap_or(0)),
            count: (kind_now == "pooled").then(|| number(count).unwrap_or(0)),
            kind: kind_now,
        };
        spawn_local(async move {
            match admin_create_promo(form).await {
                Ok(Ok(c)) => {
                    message.set(Some((
                        true,
                        fill(
                            Msg::CampaignCreated,
                            &[("name", &c.name), ("codes", &c.code_count)],
                        ),
                    )));
                    promos.refetch();
                }
                Ok(Err(r)) => message.set(Some((false, refusal_words(&r)))),
                Err(_) => message.set(Some((false, t(Msg::CampaignFailed).into()))),
            }
        });
    };
    view! {
        <form class="new-promo" on:submit=submit>
            <label>{t(Msg::FieldName)} " " <input name="promoName" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/></label>
            <label>{t(Msg::ColKind)} " "
                <select name="promoKind" on:change=move |ev| kind.set(event_target_value(&ev))>
                    <option value="single">{t(Msg::SingleUse)}</option>
                    <option value="capped">{t(Msg::CappedUses)}</option>
                    <option value="pooled">{t(Msg::PoolOnePerBuyer)}</option>
                </select>
            </label>
            <label>{t(Msg::CodeOptional)} <input name="promoCode" prop:value=move || code.get() on:input=move |ev| code.set(event_target_value(&ev))/></label>
            <label>{t(Msg::DiscountKind)} " "
                <select name="discountKind" on:change=move |ev| by_amount.set(event_target_value(&ev) == "amount")>
                    <option value="percent">{t(Msg::PercentOff)}</option>
                    <option value="amount">{t(Msg::AmountOff)} "(" {currency.clone()} ")"</option>
                </select>
            </label>
            <Show when=move || !by_amount.get()>
                <label>{t(Msg::PercentOff)} <input type="number" min="1" max="100" name="percentOff" prop:value=move || percent.get() on:input=move |ev| percent.set(event_target_value(&ev))/></label>
            </Show>
            <Show when=move || by_amount.get()>
                <label>{t(Msg::AmountOff)} "(" {currency.clone()} ") " <input type="text" inputmode="decimal" name="amountOff" prop:value=move || amount.get() on:input=move |ev| amount.set(event_target_value(&ev))/></label>
            </Show>
            <label>{t(Msg::PromoStarts)} <input type="datetime-local" name="promoStarts" prop:value=move || starts.get() on:input=move |ev| starts.set(event_target_value(&ev))/></label>
            <label>{t(Msg::PromoEnds)} <input type="datetime-local" name="promoEnds" prop:value=move || ends.get() on:input=move |ev| ends.set(event_target_value(&ev))/></label>
            <Show when=move || kind.get() == "capped">
                <label>{t(Msg::MaxUses)} <input type="number" min="1" name="maxUses" prop:value=move || max_uses.get() on:input=move |ev| max_uses.set(event_target_value(&ev))/></label>
            </Show>
            <Show when=move || kind.get() == "pooled">
                <label>{t(Msg::CodesInPool)} <input type="number" min="1" max="10000" name="poolCount" prop:value=move || count.get() on:input=move |ev| count.set(event_target_value(&ev))/></label>
            </Show>
            <button type="submit">{t(Msg::CreatePromo)}</button>
            {move || message.get().map(|(ok, m)| view! { <p class=if ok { "promo-ok" } else { "error" } role="status">{m}</p> })}
        </form>
    }
}

/// A campaign's kind as the form names it.
fn campaign_kind(kind: &str) -> String {
    match kind {
        "single" => t(Msg::SingleUse).to_string(),
        "capped" => t(Msg::CappedUses).to_string(),
        "pooled" => t(Msg::PoolOnePerBuyer).to_string(),
        other => other.to_string(),
    }
}

/// A refusal as one line (the server wrote it in the page's language).
fn refusal_words(r: &crate::server_fns::console::Refusal) -> String {
    let fields: Vec<String> = r.fields.iter().map(|(f, m)| format!("{f}: {m}")).collect();
    format!("{} {}", r.message, fields.join("; "))
        .trim()
        .to_string()
}
