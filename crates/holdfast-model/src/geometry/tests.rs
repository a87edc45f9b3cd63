use super::*;

fn spot(x: f64, y: f64, section: &'static str, level: Option<&'static str>) -> Spot<'static> {
    Spot {
        x,
        y,
        section,
        level,
    }
}

#[test]
fn the_view_follows_a_point_only_as_far_as_needed() {
    let full = ViewBox::new(0.0, 0.0, 1000.0, 1000.0);
    let view = ViewBox::new(0.0, 0.0, 100.0, 100.0);
    assert_eq!(view.showing(50.0, 50.0, full), view, "in view: no move");
    let moved = view.showing(300.0, 50.0, full);
    assert_eq!((moved.x, moved.y, moved.w), (210.0, 0.0, 100.0));
    assert!(moved.x + moved.w - 300.0 >= 10.0 - 1e-9);
    // Never outside the map.
    assert_eq!(view.showing(-50.0, -50.0, full), view);
}

#[test]
fn the_layout_frames_the_seats_with_room_for_the_stage() {
    let l = layout([
        spot(100.0, 200.0, "A", None),
        spot(300.0, 200.0, "A", None),
        spot(100.0, 400.0, "B", None),
    ]);
    assert_eq!(
        l.view_box,
        ViewBox::new(70.0, 110.0, 260.0, 260.0 + STAGE_ROOM)
    );
    // Centred over the seats, inside the room above them.
    assert_eq!(l.stage.x + l.stage.w / 2.0, 200.0);
    assert!(l.stage.y >= l.view_box.y && l.stage.y + l.stage.h <= 170.0);
    assert_eq!(
        l.sections,
        vec![
            ("A".to_string(), 200.0, 200.0),
            ("B".to_string(), 100.0, 400.0)
        ]
    );
    assert!(l.levels.is_empty());
}

#[test]
fn each_deck_gets_its_own_box() {
    let l = layout([
        spot(0.0, 0.0, "Fwd", Some("Deck 5")),
        spot(50.0, 20.0, "Aft", Some("Deck 5")),
        spot(0.0, 500.0, "Fwd", Some("Deck 6")),
    ]);
    assert_eq!(
        l.levels,
        vec![
            (
                "Deck 5".to_string(),
                ViewBox::new(-30.0, -30.0, 110.0, 80.0)
            ),
            ("Deck 6".to_string(), ViewBox::new(-30.0, 470.0, 60.0, 60.0)),
        ]
    );
    assert_eq!(layout(Vec::new()), MapLayout::default());
}

#[test]
fn a_phone_reads_a_deck_from_its_start_and_a_desktop_sees_it_whole() {
    let deck = ViewBox::new(200.0, 0.0, 1700.0, 290.0);
    // 372 px wide, numbers 12 units tall: 406 units in view.
    let v = reading_view(deck, 372.0, 12.0).unwrap();
    assert_eq!((v.x, v.y, v.h), (200.0, 0.0, 290.0));
    assert!((v.w - 372.0 * 12.0 / READABLE_PX).abs() < 1e-9);
    assert!(
        (372.0 / v.w * 12.0 - READABLE_PX).abs() < 1e-9,
        "the numbers read at READABLE_PX"
    );
    // Zooming in keeps the view's shape, not the deck's; zooming out
    // ends at the whole deck.
    let closer = v.zoom(BUTTON_ZOOM_IN, 0.5, 0.5, deck);
    assert!((closer.h / closer.w - v.h / v.w).abs() < 1e-9);
    let mut out = v;
    for _ in 0..8 {
        out = out.zoom(BUTTON_ZOOM_OUT, 0.5, 0.5, deck);
        assert!(out.h <= deck.h + 1e-9 && out.y >= deck.y);
    }
    assert_eq!(out, deck);
    assert!(reading_view(deck, 1800.0, 12.0).is_none(), "a desktop");
    // A narrow deck is never drawn taller than wide.
    let tall = ViewBox::new(0.0, 0.0, 2000.0, 3000.0);
    let v = reading_view(tall, 372.0, 12.0).unwrap();
    assert_eq!(v.h, v.w);
    assert!(reading_view(deck, 0.0, 12.0).is_none());
}

#[test]
fn a_view_box_reads_back_what_it_writes() {
    let v = ViewBox::new(1.5, -2.0, 300.0, 150.0);
    assert_eq!(ViewBox::parse(&v.to_string()), v);
}

#[test]
fn a_standing_floor_fills_the_free_room_in_front_of_the_stage() {
    // A bowl: a row across the back, and seats up both sides.
    let mut spots = Vec::new();
    for i in 0..40 {
        spots.push(spot(f64::from(i) * 10.0, 400.0, "Back", None));
    }
    for j in 0..20 {
        spots.push(spot(0.0, 100.0 + f64::from(j) * 15.0, "Left", None));
        spots.push(spot(390.0, 100.0 + f64::from(j) * 15.0, "Right", None));
    }
    let l = layout(spots.iter().map(|s| Spot { ..*s }));
    let floor = l.floor.expect("room for a floor");
    // Below the stage, above the back row, clear of every seat.
    assert!(floor.y >= l.stage.y + l.stage.h);
    assert!(floor.y + floor.h < 400.0);
    for s in &spots {
        let inside = s.x >= floor.x
            && s.x <= floor.x + floor.w
            && s.y >= floor.y
            && s.y <= floor.y + floor.h;
        assert!(
            !inside,
            "a seat at ({}, {}) is on the floor {floor:?}",
            s.x, s.y
        );
    }
    assert!(floor.w >= 120.0 && floor.h >= 120.0, "{floor:?}");

    // Seats right up to the stage: no floor.
    let packed = layout((0..40).map(|i| spot(f64::from(i) * 10.0, 100.0, "Front", None)));
    assert_eq!(packed.floor, None);
}
