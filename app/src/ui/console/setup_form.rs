//! The event setup form's state: every field as the organizer typed it,
//! read into a layout (`Setup::layout`) and filled from one (`Setup::load`,
//! for an edit or an import).

use leptos::prelude::*;

use crate::model::console::{CategorySpec, EventLayout, SectionSpec, StandingSpec};
use crate::model::money::{amount_text, parse_amount};

/// Colours new categories get in turn (the colour picker changes them).
const PALETTE: [&str; 8] = [
    "#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65", "#a04000", "#5d6d7e",
];

fn text(v: impl ToString) -> RwSignal<String> {
    RwSignal::new(v.to_string())
}

#[derive(Clone, Copy)]
pub struct CategoryRow {
    pub key: usize,
    pub code: RwSignal<String>,
    pub name: RwSignal<String>,
    pub price: RwSignal<String>,
    pub color: RwSignal<String>,
}

#[derive(Clone, Copy)]
pub struct SectionRow {
    pub key: usize,
    pub name: RwSignal<String>,
    pub level: RwSignal<String>,
    pub category: RwSignal<String>,
    pub rows: RwSignal<String>,
    pub per_row: RwSignal<String>,
    pub x: RwSignal<String>,
    pub y: RwSignal<String>,
    pub spacing: RwSignal<String>,
    pub curve: RwSignal<String>,
}

#[derive(Clone, Copy)]
pub struct StandingRow {
    pub key: usize,
    pub name: RwSignal<String>,
    pub category: RwSignal<String>,
    pub capacity: RwSignal<String>,
}

#[derive(Clone, Copy)]
pub struct Setup {
    pub name: RwSignal<String>,
    pub kind: RwSignal<String>,
    pub venue: RwSignal<String>,
    pub starts: RwSignal<String>,
    pub on_sale: RwSignal<String>,
    pub currency: RwSignal<String>,
    pub time_zone: RwSignal<String>,
    pub categories: RwSignal<Vec<CategoryRow>>,
    pub sections: RwSignal<Vec<SectionRow>>,
    pub standing: RwSignal<Vec<StandingRow>>,
    next_key: StoredValue<usize>,
}

/// A number as typed; what does not read is sent as `bad`, which the server
/// refuses on its field.
fn whole(v: RwSignal<String>, bad: i64) -> i64 {
    v.get().trim().parse().unwrap_or(bad)
}

/// A decimal as typed; empty (a number field's value for anything it
/// cannot read) is `None`: the default.
fn decimal(v: RwSignal<String>) -> Option<f64> {
    v.get().trim().parse().ok().filter(|x: &f64| x.is_finite())
}

fn number_text(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| v.to_string())
}

impl Setup {
    /// A small concert: one category and one block of 5 × 10 seats.
    pub fn blank() -> Setup {
        let setup = Setup {
            name: text(""),
            kind: text("concert"),
            venue: text(""),
            starts: text(""),
            on_sale: text(""),
            currency: text(""),
            time_zone: text(""),
            categories: RwSignal::new(Vec::new()),
            sections: RwSignal::new(Vec::new()),
            standing: RwSignal::new(Vec::new()),
            next_key: StoredValue::new(0),
        };
        setup.load(&Self::blank_layout());
        setup
    }

    pub fn blank_layout() -> EventLayout {
        EventLayout {
            kind: "concert".into(),
            starts_at: "2027-06-01T20:00".into(),
            currency: "EUR".into(),
            time_zone: "UTC".into(),
            categories: vec![CategorySpec {
                code: "A".into(),
                name: "Stalls".into(),
                price_cents: 3000,
                color: PALETTE[0].into(),
            }],
            sections: vec![SectionSpec {
                name: "Stalls".into(),
                category: "A".into(),
                rows: 5,
                seats_per_row: 10,
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    fn key(&self) -> usize {
        let k = self.next_key.get_value();
        self.next_key.set_value(k + 1);
        k
    }

    fn category_row(&self, c: &CategorySpec, currency: &str) -> CategoryRow {
        CategoryRow {
            key: self.key(),
            code: text(&c.code),
            name: text(&c.name),
            price: text(amount_text(c.price_cents, currency)),
            color: text(&c.color),
        }
    }

    fn section_row(&self, s: &SectionSpec) -> SectionRow {
        SectionRow {
            key: self.key(),
            name: text(&s.name),
            level: text(s.level.clone().unwrap_or_default()),
            category: text(&s.category),
            rows: text(s.rows),
            per_row: text(s.seats_per_row),
            x: text(s.x),
            y: text(s.y),
            spacing: text(number_text(Some(s.spacing_or_default()))),
            curve: text(number_text(Some(s.curve.unwrap_or(0.0)))),
        }
    }

    fn standing_row(&self, g: &StandingSpec) -> StandingRow {
        StandingRow {
            key: self.key(),
            name: text(&g.name),
            category: text(&g.category),
            capacity: text(g.capacity),
        }
    }

    /// Fills every field from `layout`.
    pub fn load(&self, layout: &EventLayout) {
        self.name.set(layout.name.clone());
        self.kind.set(layout.kind.clone());
        self.venue.set(layout.venue.clone());
        // The browser's date-and-time field takes "2027-06-01T20:00".
        self.starts.set(layout.starts_at.chars().take(16).collect());
        self.on_sale
            .set(layout.on_sale_at.chars().take(16).collect());
        self.currency.set(layout.currency.clone());
        self.time_zone.set(match layout.time_zone.trim() {
            "" => "UTC".to_string(),
            zone => zone.to_string(),
        });
        let currency = layout.currency.clone();
        let categories = layout
            .categories
            .iter()
            .map(|c| self.category_row(c, &currency))
            .collect();
        self.categories.set(categories);
        let sections = layout
            .sections
            .iter()
            .map(|s| self.section_row(s))
            .collect();
        self.sections.set(sections);
        let standing = layout
            .general_admission
            .iter()
            .map(|g| self.standing_row(g))
            .collect();
        self.standing.set(standing);
    }

    /// The layout the fields describe (read tracked: a memo of it follows
    /// every keystroke).
    pub fn layout(&self) -> EventLayout {
        let currency = self.currency.get().trim().to_uppercase();
        let categories = self
            .categories
            .get()
            .iter()
            .map(|c| CategorySpec {
                code: c.code.get().trim().to_string(),
                name: c.name.get(),
                // In the currency's own digits (no cents in đồng or yen).
                price_cents: parse_amount(&c.price.get(), &currency).unwrap_or(-1),
                color: c.color.get(),
            })
            .collect();
        let cruise = self.kind.get() == "cruise";
        let sections = self
            .sections
            .get()
            .iter()
            .map(|s| SectionSpec {
                name: s.name.get(),
                level: Some(s.level.get().trim().to_string()).filter(|l| cruise && !l.is_empty()),
                category: s.category.get(),
                rows: whole(s.rows, 0),
                seats_per_row: whole(s.per_row, 0),
                x: decimal(s.x).unwrap_or(0.0),
                y: decimal(s.y).unwrap_or(0.0),
                spacing: decimal(s.spacing),
                curve: decimal(s.curve).filter(|c| *c != 0.0),
            })
            .collect();
        let general_admission = self
            .standing
            .get()
            .iter()
            .map(|g| StandingSpec {
                name: g.name.get(),
                category: g.category.get(),
                capacity: whole(g.capacity, -1),
            })
            .collect();
        EventLayout {
            name: self.name.get(),
            kind: self.kind.get(),
            venue: self.venue.get(),
            // Wall clocks in the event's zone (the server reads them there).
            starts_at: self.starts.get(),
            on_sale_at: self.on_sale.get(),
            currency,
            time_zone: self.time_zone.get().trim().to_string(),
            categories,
            sections,
            general_admission,
            // Set on its own page (Refund policies), not in this form.
            #[cfg(feature = "ssr")]
            refund_policy: Default::default(),
        }
    }

    /// The layout as the JSON `POST /api/admin/events` takes.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(&self.layout()).unwrap_or_default()
    }

    pub fn add_category(&self) {
        let taken: Vec<String> = self
            .categories
            .with(|l| l.iter().map(|c| c.code.get()).collect());
        let code = (b'A'..=b'Z')
            .map(|b| (b as char).to_string())
            .find(|c| !taken.contains(c))
            .unwrap_or_default();
        let colour = PALETTE[taken.len() % PALETTE.len()];
        let row = self.category_row(
            &CategorySpec {
                code,
                color: colour.into(),
                ..Default::default()
            },
            "EUR",
        );
        row.price.set(String::new());
        self.categories.update(|l| l.push(row));
    }

    /// A section below the lowest one, in the first category.
    pub fn add_section(&self) {
        let below = self.sections.with(|l| {
            l.iter()
                .map(|s| {
                    let d = decimal(s.spacing).unwrap_or(12.0);
                    decimal(s.y).unwrap_or(0.0) + whole(s.rows, 0).max(0) as f64 * d + 2.0 * d
                })
                .fold(0.0, f64::max)
        });
        let category = self
            .categories
            .with(|l| l.first().map(|c| c.code.get()))
            .unwrap_or_default();
        let row = self.section_row(&SectionSpec {
            category,
            rows: 5,
            seats_per_row: 10,
            y: below,
            ..Default::default()
        });
        self.sections.update(|l| l.push(row));
    }

    pub fn add_standing(&self) {
        let category = self
            .categories
            .with(|l| l.first().map(|c| c.code.get()))
            .unwrap_or_default();
        let row = self.standing_row(&StandingSpec {
            category,
            capacity: 100,
            ..Default::default()
        });
        self.standing.update(|l| l.push(row));
    }
}
