//! An event's layout, checked field by field: a concert (sections × rows ×
//! seats with coordinates, price categories, standing areas) or a cruise
//! (decks of cabins); and the seats it describes.

use std::collections::HashSet;

use crate::platform::clock::At;
use crate::platform::error::FieldError;
use crate::seed::SeatSpec;
use holdfast_model::console::seating::{overlapping, row_label, MAX_CURVE};
use holdfast_model::console::EventLayout;

/// Seats one layout may have.
pub const MAX_SEATS: i64 = 50_000;

/// A layout's times, read in its time zone (the zone's rules live in the
/// core, not in the plain data).
pub trait LayoutTimes {
    /// The event's time zone (UTC when none is named).
    fn zone(&self) -> &str;
    /// When it starts (UTC milliseconds), read in its zone.
    fn start(&self) -> Option<At>;
    /// When it goes on sale (UTC milliseconds), read in its zone like the
    /// start; `None` when empty or unreadable.
    fn on_sale(&self) -> Option<At>;
}

impl LayoutTimes for EventLayout {
    fn zone(&self) -> &str {
        match self.time_zone.trim() {
            "" => "UTC",
            name => name,
        }
    }

    fn start(&self) -> Option<At> {
        crate::event_time::parse_start(self.starts_at.trim(), self.zone())
    }

    fn on_sale(&self) -> Option<At> {
        crate::event_time::parse_start(self.on_sale_at.trim(), self.zone())
    }
}

/// The most one seat may cost, in minor units (Stripe's eight digits).
const MAX_PRICE: i64 = 99_999_999;

/// The layout, or every problem of it as one `VALIDATION` refusal.
pub fn checked(layout: &EventLayout) -> Result<(), crate::ApiError> {
    match check(layout) {
        errors if errors.is_empty() => Ok(()),
        errors => Err(crate::ApiError::FieldErrors(errors)),
    }
}

/// Every problem of a layout, each on its field (`sections[1].rows`).
pub fn check(layout: &EventLayout) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let mut bad = |field: String, message: &str| {
        errors.push(FieldError {
            field,
            message: message.to_string(),
        })
    };
    if let Err((field, why)) = layout.refund_policy.check() {
        bad(format!("refundPolicy.{field}"), why);
    }
    if layout.name.trim().is_empty() || layout.name.len() > 120 {
        bad("name".into(), "a name of 1 to 120 characters");
    }
    if !matches!(layout.kind.as_str(), "concert" | "cruise") {
        bad("kind".into(), "concert or cruise");
    }
    if layout.venue.trim().is_empty() || layout.venue.len() > 120 {
        bad("venue".into(), "a venue of 1 to 120 characters");
    }
    if crate::event_time::zone(layout.zone()).is_none() {
        bad(
            "timeZone".into(),
            "a time zone such as Europe/Oslo or Asia/Ho_Chi_Minh (empty: UTC)",
        );
    } else if layout.start().is_none() {
        bad(
            "startsAt".into(),
            "a date and time like 2027-06-01T20:00:00Z, or 2027-06-01T20:00 in the event's time zone",
        );
    }
    if !layout.on_sale_at.trim().is_empty() && layout.on_sale().is_none() {
        bad(
            "onSaleAt".into(),
            "empty, or a date and time like 2027-05-01T10:00:00Z, or 2027-05-01T10:00 in the event's time zone",
        );
    }
    let currency = holdfast_model::money::Currency::of(&layout.currency);
    if currency.is_none() {
        bad(
            "currency".into(),
            "a currency Holdfast can charge in, such as EUR, USD, GBP, NOK, JPY or VND",
        );
    }
    if layout.categories.is_empty() {
        bad("categories".into(), "at least one price category");
    }
    let mut codes = HashSet::new();
    for (i, c) in layout.categories.iter().enumerate() {
        if c.code.trim().is_empty() || c.code.len() > 16 || !codes.insert(c.code.as_str()) {
            bad(
                format!("categories[{i}].code"),
                "a short code, unique in the event",
            );
        }
        if c.name.trim().is_empty() {
            bad(format!("categories[{i}].name"), "a name");
        }
        // Stripe's largest amount is eight digits of minor units; a
        // three-decimal currency is charged in tens of fils.
        let step = currency.map_or(1, |c| c.charge_step());
        if !(0..=MAX_PRICE).contains(&c.price_cents) || c.price_cents % step != 0 {
            let most = holdfast_model::format_price(MAX_PRICE, &layout.currency);
            let message = if step > 1 {
                format!("a price from 0 to {most}, in steps of {step} minor units")
            } else {
                format!("a price from 0 to {most}")
            };
            bad(format!("categories[{i}].priceCents"), &message);
        }
        let hex = c.color.strip_prefix('#').unwrap_or("");
        if hex.len() != 6 || !hex.chars().all(|h| h.is_ascii_hexdigit()) {
            bad(format!("categories[{i}].color"), "a colour like #c0392b");
        }
    }
    if layout.sections.is_empty() && layout.general_admission.is_empty() {
        bad("sections".into(), "at least one section or standing area");
    }
    let mut names = HashSet::new();
    let mut seats = 0i64;
    for (i, s) in layout.sections.iter().enumerate() {
        // Unique in the whole event, decks included: seats are named by
        // section, row and number alone.
        if s.name.trim().is_empty() || s.name.len() > 40 || !names.insert(s.name.as_str()) {
            bad(format!("sections[{i}].name"), "a name, unique in the event");
        }
        if layout.kind == "cruise" && s.level.as_deref().is_none_or(|l| l.trim().is_empty()) {
            bad(format!("sections[{i}].level"), "the deck this block is on");
        }
        if !codes.contains(s.category.as_str()) {
            bad(
                format!("sections[{i}].category"),
                "one of the categories' codes",
            );
        }
        if !(1..=200).contains(&s.rows) {
            bad(format!("sections[{i}].rows"), "from 1 to 200 rows");
        }
        if !(1..=200).contains(&s.seats_per_row) {
            bad(
                format!("sections[{i}].seatsPerRow"),
                "from 1 to 200 seats per row",
            );
        }
        if !s.x.is_finite() || !s.y.is_finite() || s.x.abs() > 1e5 || s.y.abs() > 1e5 {
            bad(format!("sections[{i}].x"), "coordinates within ±100,000");
        }
        if s.spacing.is_some_and(|d| !(1.0..=1000.0).contains(&d)) {
            bad(format!("sections[{i}].spacing"), "from 1 to 1,000");
        }
        if s.curve.is_some_and(|c| !(0.0..=MAX_CURVE).contains(&c)) {
            bad(
                format!("sections[{i}].curve"),
                "from 0 (straight) to 180 degrees",
            );
        }
        seats += s.rows.clamp(0, 200) * s.seats_per_row.clamp(0, 200);
    }
    if seats > MAX_SEATS {
        bad("sections".into(), "at most 50,000 seats in one event");
    } else {
        for (i, j) in overlapping(&layout.sections) {
            let message = format!(
                "drawn over section \"{}\": move it (x, y) or make it smaller",
                layout.sections[i].name
            );
            bad(format!("sections[{j}].place"), &message);
        }
    }
    for (i, g) in layout.general_admission.iter().enumerate() {
        if g.name.trim().is_empty() {
            bad(format!("generalAdmission[{i}].name"), "a name");
        }
        if !codes.contains(g.category.as_str()) {
            bad(
                format!("generalAdmission[{i}].category"),
                "one of the categories' codes",
            );
        }
        if !(1..=100_000).contains(&g.capacity) {
            bad(
                format!("generalAdmission[{i}].capacity"),
                "from 1 to 100,000 places",
            );
        }
    }
    errors
}

/// The seats a layout describes: row labels A, B, …, AA; seats numbered
/// from 1, left to right, placed by `SectionSpec::placed_seats`.
pub fn seats_of(layout: &EventLayout) -> Vec<SeatSpec> {
    let mut seats = Vec::new();
    for s in &layout.sections {
        for p in s.placed_seats() {
            let row = row_label(p.row);
            seats.push(SeatSpec {
                category: s.category.clone(),
                level: s.level.clone(),
                section: s.name.clone(),
                label: format!("{}-{row}-{}", s.name, p.number),
                row,
                number: p.number,
                x: p.x,
                y: p.y,
            });
        }
    }
    seats
}

#[cfg(test)]
mod tests {
    use super::*;
    use holdfast_model::console::{CategorySpec, SectionSpec};

    fn small() -> EventLayout {
        EventLayout {
            name: "Club night".into(),
            kind: "concert".into(),
            venue: "Cellar".into(),
            starts_at: "2027-06-01T20:00:00Z".into(),
            currency: "EUR".into(),
            categories: vec![CategorySpec {
                code: "A".into(),
                name: "Stalls".into(),
                price_cents: 2500,
                color: "#c0392b".into(),
            }],
            sections: vec![SectionSpec {
                name: "Stalls".into(),
                category: "A".into(),
                rows: 28,
                seats_per_row: 3,
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    #[test]
    fn a_good_layout_passes_and_makes_its_seats() {
        let layout = small();
        assert!(check(&layout).is_empty(), "{:?}", check(&layout));
        let seats = seats_of(&layout);
        assert_eq!(seats.len(), 84);
        assert_eq!(seats[0].label, "Stalls-A-1");
        assert_eq!(seats[83].label, "Stalls-AB-3");
        assert_eq!((seats[4].x, seats[4].y), (12.0, 12.0));
    }

    #[test]
    fn every_bad_field_is_named() {
        let mut layout = small();
        layout.kind = "opera".into();
        layout.currency = "euro".into();
        layout.sections[0].rows = 0;
        layout.sections[0].category = "Z".into();
        layout.categories[0].color = "red".into();
        let fields: Vec<String> = check(&layout).into_iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            [
                "kind",
                "currency",
                "categories[0].color",
                "sections[0].category",
                "sections[0].rows"
            ]
        );
    }
}
