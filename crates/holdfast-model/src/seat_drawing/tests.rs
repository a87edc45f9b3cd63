use super::markup::tenths;
use super::*;

fn drawing() -> SeatDrawing {
    let categories = vec![
        DrawnCategory {
            code: "a".into(),
            price_cents: 8500,
            extra_guest_cents: 0,
        },
        DrawnCategory {
            code: "b".into(),
            price_cents: 4000,
            extra_guest_cents: 0,
        },
    ];
    let seats = [
        (101, 1, 1000, -25, 0, 0, 0),
        (102, 2, 1085, -25, 0, 0, 0),
        (150, 1, 1000, 80, 1, 1, 1),
    ];
    let sections = vec!["L1".to_string(), "Floor <B>".to_string()];
    let rows = vec!["1".to_string(), "2 & 3".to_string()];
    let mut columns = DrawnSeats::default();
    let mut previous = [0; 4];
    for (id, number, x, y, sec, row, cat) in seats {
        columns.push([id, number, x, y], previous, [sec, row, cat]);
        previous = [id, number, x, y];
    }
    SeatDrawing {
        currency: "EUR".into(),
        radius: 4.0,
        sections: sections.clone(),
        rows: rows.clone(),
        categories: categories.clone(),
        seats: columns,
        row_labels: vec![[985, -235, 0], [985, 845, 1]],
        cabins: None,
    }
}

/// The same places on a ship: the first two cabins (the second with
/// step-free access), the third a seat.
fn ship() -> SeatDrawing {
    let mut d = drawing();
    d.cabins = Some(DrawnCabins {
        seat: vec![0, 1],
        width: vec![400, 400],
        depth: vec![300, 300],
        min_guests: vec![1, 2],
        max_guests: vec![4, 3],
        accessible: vec![false, true],
    });
    d
}

#[test]
fn a_ship_draws_cabins_as_rectangles_in_a_hull_and_names_seats_as_seats() {
    let d = ship();
    let read = d.seats();
    assert_eq!(
        read[1]
            .cabin
            .map(|c| (c.min_guests, c.max_guests, c.accessible)),
        Some((2, 3, true))
    );
    assert_eq!(read[2].cabin, None);
    let svg = d.markup(crate::EventKind::Cruise, crate::i18n::Locale::En);
    assert_eq!(svg.matches("<rect id=\"seat-").count(), 2, "two cabins");
    assert_eq!(svg.matches("<circle id=\"seat-").count(), 1, "one seat");
    assert!(svg.contains("data-guests=\"2-3\""));
    assert!(
        svg.contains("L1, 1, cabin 1, €85.00, sleeps 1–4, available"),
        "{svg}"
    );
    assert!(svg.contains("L1, 1, cabin 2, €85.00, sleeps 2–3, step-free access, available"));
    assert!(svg.contains("Floor &lt;B&gt;, row 2 &amp; 3, seat 1, €40.00, available"));
    assert_eq!(
        svg.matches("class=\"hull-outline\"").count(),
        2,
        "a hull per deck"
    );
    assert_eq!(svg.matches("class=\"cabin-number\"").count(), 2);
    // 40 × 30 units: the number as tall as the cabin allows.
    assert_eq!(d.smallest_number(), Some(12.0));
    assert!(svg.contains("font-size=\"12.0\""));
    assert_eq!(drawing().smallest_number(), None, "a hall has no cabins");
    assert_eq!(svg.matches("♿").count(), 1);
    assert!(
        !svg.contains("row-label"),
        "a ship names its sides, not its rows"
    );
    // Each hull holds its places and leaves room for the stern.
    let hulls = d.hulls().unwrap();
    let (_, h) = &hulls[0];
    assert!(h[0] < 100.0 - 20.0 - STERN && h[2] > 108.5 + 20.0);
    assert!(drawing().hulls().is_none(), "a hall has no hull");
}

#[test]
fn a_category_s_pattern_is_the_same_whatever_order_the_codes_come_in() {
    let one = ["SUITE", "BALCONY", "OCEAN", "INSIDE"];
    let two = ["INSIDE", "OCEAN", "SUITE", "BALCONY"];
    for code in one {
        assert_eq!(
            pattern_of(one.into_iter(), code),
            pattern_of(two.into_iter(), code)
        );
    }
    let all: std::collections::HashSet<usize> =
        one.iter().map(|c| pattern_of(one.into_iter(), c)).collect();
    assert_eq!(all.len(), 4, "four categories, four patterns");
}

#[test]
fn columns_are_differences_and_read_back_exactly() {
    let d = drawing();
    assert_eq!(d.seats.id, vec![101, 1, 48]);
    assert_eq!(d.seats.number, vec![1, 1, -1]);
    assert_eq!(d.seats.x, vec![1000, 85, -85]);
    let back = d.seats();
    assert_eq!(back.len(), 3);
    assert_eq!(
        (back[2].id, back[2].number, back[2].x, back[2].y),
        (150, 1, 1000, 80)
    );
    assert_eq!(back[2].section, "Floor <B>");
    assert_eq!(back[1].category.price_cents, 8500);
}

#[test]
fn markup_names_every_seat_in_order_escaped() {
    let svg = drawing().markup(crate::EventKind::Concert, crate::i18n::Locale::En);
    let first = svg.find("id=\"seat-101\"").unwrap();
    let second = svg.find("id=\"seat-102\"").unwrap();
    let third = svg.find("id=\"seat-150\"").unwrap();
    assert!(first < second && second < third);
    assert!(svg.contains("cx=\"108.5\" cy=\"-2.5\""));
    assert!(svg.contains("<title>Section L1, row 1, seat 2, €85.00, available</title>"));
    assert!(svg.contains("Section Floor &lt;B&gt;, row 2 &amp; 3, seat 1, €40.00, available"));
    assert!(svg.contains(">2 &amp; 3</text>"));
    assert_eq!(svg.matches("<circle").count(), 3);
}

#[test]
fn a_broken_drawing_ends_the_list_instead_of_panicking() {
    let mut d = drawing();
    d.seats.category[1] = 9;
    assert_eq!(d.seats().len(), 1);
    d.seats.x.pop();
    d.seats.x.pop();
    assert_eq!(d.seats().len(), 1);
}

#[test]
fn tenths_are_written_as_short_as_they_go() {
    assert_eq!(tenths(1234), "123.4");
    assert_eq!(tenths(1230), "123");
    assert_eq!(tenths(-5), "-0.5");
    assert_eq!(tenths(0), "0");
}
