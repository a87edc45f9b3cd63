//! Sales over time, drawn on the server as an SVG the dashboard carries:
//! the places of every booking now BOOKED, added up by when each was paid,
//! from the on-sale time (or the first sale, if earlier) to now. Pure
//! drawing (`cumulative`, `svg`) apart from the one query.

use crate::platform::clock::At;
use crate::{ApiError, AppState};
use holdfast_model::i18n::{Locale, Msg};
use holdfast_model::{BookingStatus, EventId};

/// How many steps the line takes across the chart.
pub const BUCKETS: usize = 48;

/// Places sold by the end of each of `buckets` equal spans from `from` to
/// `to`, out of `(paid at, places)` sales in any order. A sale before
/// `from` counts from the first span; one after `to` is not drawn.
pub fn cumulative(sales: &[(At, i64)], from: At, to: At, buckets: usize) -> Vec<i64> {
    let span = (to - from).max(1);
    let mut per = vec![0_i64; buckets];
    for (at, places) in sales {
        if *at > to {
            continue;
        }
        let offset = (*at - from).max(0);
        let i = ((offset as i128 * buckets as i128) / span as i128) as usize;
        per[i.min(buckets - 1)] += places;
    }
    let mut total = 0;
    per.into_iter()
        .map(|n| {
            total += n;
            total
        })
        .collect()
}

/// Where the chart starts: the on-sale time when sales began within two
/// days of it; else (an event on sale since long ago, or sold before its
/// on-sale time by an admin's hand) a minute before the first sale; never
/// less than a minute before now.
pub fn start(on_sale_at: At, first_sale: Option<At>, now: At) -> At {
    const TWO_DAYS: i64 = 2 * 24 * 3_600_000;
    let anchor = match first_sale {
        Some(first) if first - on_sale_at <= TWO_DAYS && on_sale_at <= first => on_sale_at,
        Some(first) => first - 60_000,
        None if now - on_sale_at <= TWO_DAYS => on_sale_at,
        None => now - 3_600_000,
    };
    anchor.min(now - 60_000)
}

/// The chart: a filled step line over `series` with its first and last
/// times and the highest count written on it; `label` is what it says to
/// a screen reader. Only numbers and escaped text go into the markup.
pub fn svg(series: &[i64], from: &str, to: &str, label: &str) -> String {
    const W: f64 = 600.0;
    const H: f64 = 160.0;
    const LEFT: f64 = 44.0;
    const BOTTOM: f64 = 22.0;
    const TOP: f64 = 10.0;
    let top = series.iter().copied().max().unwrap_or(0).max(1) as f64;
    let n = series.len().max(1) as f64;
    let x = |i: f64| LEFT + (W - LEFT - 8.0) * i / n;
    let y = |v: i64| TOP + (H - TOP - BOTTOM) * (1.0 - v as f64 / top);
    let mut line = format!("M{:.1},{:.1}", x(0.0), y(0));
    for (i, v) in series.iter().enumerate() {
        line.push_str(&format!(
            " L{:.1},{:.1} L{:.1},{:.1}",
            x(i as f64),
            y(*v),
            x(i as f64 + 1.0),
            y(*v)
        ));
    }
    let area = format!("{line} L{:.1},{:.1} Z", x(n), y(0));
    let esc = holdfast_model::seat_drawing::escape;
    format!(
        "<svg class=\"sales-chart\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{label}\">\
<path class=\"axis\" d=\"M{LEFT},{TOP} V{base:.1} H{right:.1}\"/>\
<path class=\"area\" d=\"{area}\"/><path class=\"line\" d=\"{line}\"/>\
<text class=\"tick\" x=\"{lx:.1}\" y=\"{ty:.1}\" text-anchor=\"end\">{max}</text>\
<text class=\"tick\" x=\"{lx:.1}\" y=\"{base:.1}\" text-anchor=\"end\">0</text>\
<text class=\"tick\" x=\"{LEFT}\" y=\"{H}\" dy=\"-4\">{from}</text>\
<text class=\"tick\" x=\"{right:.1}\" y=\"{H}\" dy=\"-4\" text-anchor=\"end\">{to}</text></svg>",
        label = esc(label),
        base = H - BOTTOM,
        right = W - 8.0,
        lx = LEFT - 6.0,
        ty = TOP + 8.0,
        max = top as i64,
        from = esc(from),
        to = esc(to),
    )
}

/// The event's chart, its times written in `zone` for `locale`.
pub async fn sales_chart(
    state: &AppState,
    event_id: EventId,
    on_sale_at: At,
    now: At,
    zone: &str,
    locale: Locale,
) -> Result<String, ApiError> {
    let sql = format!(
        "select b.updated_at,
                b.ga_quantity + (select count(*) from booking_seat bs
                                 where bs.booking_id = b.id and bs.live = 1) as places
         from booking b where b.event_id = $1 and b.status = {}",
        BookingStatus::Booked.sql()
    );
    let sales: Vec<(At, i64)> = sqlx::query_as(&sql)
        .bind(event_id)
        .fetch_all(state.db.reader())
        .await?;
    let from = start(on_sale_at, sales.iter().map(|s| s.0).min(), now);
    let series = cumulative(&sales, from, now, BUCKETS);
    let when = |at: At| {
        let local = crate::event_time::moment(at, zone).at_local;
        holdfast_model::i18n::format::moment(locale, &local).unwrap_or(local)
    };
    let sold = series.last().copied().unwrap_or(0);
    let label = locale.fill(
        Msg::SalesChartLabel,
        &[("n", &sold), ("from", &when(from)), ("to", &when(now))],
    );
    Ok(svg(&series, &when(from), &when(now), &label))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sales_add_up_by_the_span_they_were_paid_in() {
        let at = At::from_ms;
        let sales = [
            (at(150), 2),
            (at(0), 1),
            (at(999), 3),
            (at(-50), 4),
            (at(2_000), 9),
        ];
        assert_eq!(cumulative(&sales, at(0), at(1_000), 4), vec![7, 7, 7, 10]);
        assert_eq!(cumulative(&[], at(0), at(1_000), 3), vec![0, 0, 0]);
        // A chart of no time at all still has its spans.
        assert_eq!(cumulative(&sales[..1], at(150), at(150), 2), vec![2, 2]);
    }

    #[test]
    fn the_chart_starts_where_selling_did() {
        let at = At::from_ms;
        let hour = 3_600_000;
        let now = at(100 * hour);
        // Sales began soon after the on-sale time: from it.
        assert_eq!(
            start(at(90 * hour), Some(at(91 * hour)), now),
            at(90 * hour)
        );
        // On sale since long ago: from just before the first sale.
        assert_eq!(
            start(at(0), Some(at(99 * hour)), now),
            at(99 * hour - 60_000)
        );
        // Nothing sold: from the on-sale time if recent, else the last hour.
        assert_eq!(start(at(99 * hour), None, now), at(99 * hour));
        assert_eq!(start(at(0), None, now), at(99 * hour));
        // An on-sale time still to come: the last minute.
        assert_eq!(start(at(200 * hour), None, now), at(100 * hour - 60_000));
    }

    #[test]
    fn the_chart_writes_its_numbers_and_escapes_its_words() {
        let s = svg(
            &[0, 3, 3, 12],
            "1 Jun, 10:00",
            "<now>",
            "12 sold & counting",
        );
        assert!(s.starts_with("<svg class=\"sales-chart\""));
        assert!(s.contains(">12</text>"), "the highest count: {s}");
        assert!(s.contains("&lt;now&gt;") && s.contains("12 sold &amp; counting"));
        assert!(!s.contains("<now>"));
        // Two steps per span in the line, and again in the area under it,
        // which closes back along the axis.
        assert_eq!(s.matches(" L").count(), 2 * 8 + 1);
    }
}
