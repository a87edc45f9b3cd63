//! Each price category in the colour its organizer chose: a small style
//! sheet per event (`.seat.cat-A { fill: … }`), weaker than the statuses'
//! rules (`svg .seat.held`, …: one element more), so a taken seat never
//! looks free whatever its category's colour. Plain class selectors, so
//! the 10,000 seats of an arena cost no more to match than without them.
//! Only well-formed codes and hex colours are written (event setup refuses
//! others; older rows are skipped, their seats drawn in the neutral
//! default).

use crate::model::PriceCategory;

/// The style sheet for these categories; on a ship (`patterned`) each
/// legend swatch also shows its category's pattern, as the cabins do.
pub fn category_css(categories: &[PriceCategory], patterned: bool) -> String {
    use crate::model::seat_drawing::pattern_of;
    let mut css = String::new();
    for c in categories {
        let code_ok = !c.code.is_empty()
            && c.code
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
        let hex = c.color.strip_prefix('#').unwrap_or("");
        let colour_ok =
            matches!(hex.len(), 3 | 4 | 6 | 8) && hex.chars().all(|ch| ch.is_ascii_hexdigit());
        if code_ok && colour_ok {
            css.push_str(&format!(
                ".seat.cat-{code},.floor.cat-{code}{{fill:#{hex}}}.swatch.cat-{code}{{background:#{hex}}}",
                code = c.code
            ));
            let codes = categories.iter().map(|c| c.code.as_str());
            let pattern = match pattern_of(codes, &c.code) {
                _ if !patterned => "",
                1 => "repeating-linear-gradient(135deg,#fff9 0 2px,transparent 2px 5px)",
                2 => "radial-gradient(#fffb 1.2px,transparent 1.6px) 0 0/5px 5px",
                3 => "linear-gradient(#fff9 1px,transparent 1px) 0 0/5px 5px,linear-gradient(90deg,#fff9 1px,transparent 1px) 0 0/5px 5px",
                _ => "",
            };
            if !pattern.is_empty() {
                css.push_str(&format!(
                    ".swatch.cat-{code}{{background:{pattern},#{hex}}}",
                    code = c.code
                ));
            }
        }
    }
    css
}

#[cfg(test)]
mod tests {
    use super::category_css;
    use crate::model::PriceCategory;

    fn category(code: &str, color: &str) -> PriceCategory {
        PriceCategory {
            code: code.into(),
            name: "x".into(),
            price_cents: 1,
            color: color.into(),
        }
    }

    #[test]
    fn each_category_takes_its_own_colour_and_nothing_else_gets_in() {
        let css = category_css(
            &[
                category("VIP", "#b42318"),
                category("A", "#fff"),
                category("x}body{display:none", "#000000"),
                category("B", "red;}body{x:y"),
            ],
            false,
        );
        assert_eq!(
            css,
            ".seat.cat-VIP,.floor.cat-VIP{fill:#b42318}.swatch.cat-VIP{background:#b42318}\
             .seat.cat-A,.floor.cat-A{fill:#fff}.swatch.cat-A{background:#fff}"
        );
        // On a ship the second code in alphabetical order is striped.
        let ship = category_css(&[category("B", "#123"), category("A", "#456")], true);
        assert!(
            ship.contains(".swatch.cat-B{background:repeating-linear-gradient"),
            "{ship}"
        );
        assert!(
            !ship.contains(".swatch.cat-A{background:repeating"),
            "{ship}"
        );
    }
}
