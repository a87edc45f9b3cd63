//! A console form's refusal in the organizer's language, written by the
//! server function (so the hints stay out of the browser's wasm). The
//! core's words are the API's (English, for integrators); here each
//! field's hint comes from the catalogue, found by the field's name, and
//! English keeps the core's own words, which may be more exact ("a price
//! from 0 to €999,999.99").

use crate::core::ApiError;
use crate::i18n::{Locale, Msg};
use crate::server_fns::console::Refusal;

/// Which form refused: the same field name means different things.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Event,
    Promo,
    /// A button (an action, publishing, the room): no hints of its own.
    Action,
}

/// An error of a console form, in the language of the page that sent it.
pub fn refusal(form: Form, e: ApiError) -> Refusal {
    if let ApiError::Internal(cause) = &e {
        tracing::error!(error = %cause, "console action failed");
    }
    in_language(crate::i18n::page_locale(), form, e)
}

fn in_language(locale: Locale, form: Form, e: ApiError) -> Refusal {
    let body = e.body().error;
    let fields: Vec<(String, String)> = body
        .field_errors
        .unwrap_or_default()
        .into_iter()
        .map(|f| {
            let words = hint(locale, form, &f.field, &f.message);
            (f.field, words)
        })
        .collect();
    let message = match (locale, fields.is_empty()) {
        (Locale::En, _) => body.message,
        (Locale::Vi, false) => locale.t(Msg::FixMarkedFields).to_string(),
        (Locale::Vi, true) => e.for_buyer(locale),
    };
    Refusal { message, fields }
}

fn hint(locale: Locale, form: Form, field: &str, server: &str) -> String {
    if locale == Locale::En {
        return server.to_string();
    }
    match hint_of(form, &without_indices(field)) {
        Some(m) => locale.t(m).to_string(),
        None => server.to_string(),
    }
}

/// "categories[0].priceCents" → "categories.priceCents".
fn without_indices(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut inside = false;
    for c in field.chars() {
        match c {
            '[' => inside = true,
            ']' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

fn hint_of(form: Form, field: &str) -> Option<Msg> {
    Some(match (form, field) {
        (Form::Event, "name") => Msg::HintEventName,
        (Form::Event, "kind") => Msg::HintKind,
        (Form::Event, "venue") => Msg::HintVenue,
        (Form::Event, "timeZone") => Msg::HintTimeZone,
        (Form::Event, "startsAt") => Msg::HintStartsAt,
        (Form::Event, "onSaleAt") => Msg::HintOnSaleAt,
        (Form::Event, "currency") => Msg::HintCurrency,
        (Form::Event, "categories") => Msg::HintCategories,
        (Form::Event, "categories.code") => Msg::HintCategoryCode,
        (Form::Event, "categories.name" | "generalAdmission.name") => Msg::HintAName,
        (Form::Event, "categories.priceCents") => Msg::HintPrice,
        (Form::Event, "categories.color") => Msg::HintColour,
        (Form::Event, "sections") => Msg::HintSections,
        (Form::Event, "sections.name") => Msg::HintSectionName,
        (Form::Event, "sections.level") => Msg::HintDeck,
        (Form::Event, "sections.category" | "generalAdmission.category") => Msg::HintCategoryOf,
        (Form::Event, "sections.rows") => Msg::HintRows,
        (Form::Event, "sections.seatsPerRow") => Msg::HintSeatsPerRow,
        (Form::Event, "sections.x" | "sections.y") => Msg::HintCoordinates,
        (Form::Event, "sections.spacing") => Msg::HintSpacing,
        (Form::Event, "sections.curve") => Msg::HintCurve,
        (Form::Event, "sections.place") => Msg::HintSectionPlace,
        (Form::Event, "generalAdmission.capacity") => Msg::HintCapacity,
        (Form::Promo, "name") => Msg::HintPromoName,
        (Form::Promo, "percentOff") => Msg::HintPercentOff,
        (Form::Promo, "amountOffCents") => Msg::HintAmountOff,
        (Form::Promo, "code") => Msg::HintPromoCode,
        (Form::Promo, "maxUses") => Msg::HintMaxUses,
        (Form::Promo, "count") => Msg::HintPoolCount,
        (Form::Promo, "kind") => Msg::HintPromoKind,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_by_their_name_whatever_their_index() {
        assert_eq!(
            without_indices("categories[12].priceCents"),
            "categories.priceCents"
        );
        assert_eq!(
            hint(
                Locale::Vi,
                Form::Event,
                "sections[0].rows",
                "from 1 to 200 rows"
            ),
            "từ 1 đến 200 hàng"
        );
        assert_eq!(
            hint(Locale::En, Form::Event, "sections[0].rows", "exact"),
            "exact"
        );
        assert_eq!(
            hint(Locale::Vi, Form::Promo, "name", "x"),
            Locale::Vi.t(Msg::HintPromoName)
        );
        assert_eq!(
            hint(Locale::Vi, Form::Event, "unknown", "server words"),
            "server words"
        );
    }
}
