//! The attendee list an organizer exports (CSV): one line per booking that
//! was paid — booked, refunded or disputed, its status saying which —
//! with the guests' names (a sailing's manifest), the buyer's email, the
//! seats or standing places, and how many of its tickets were scanned at
//! the door.

use std::collections::HashMap;

use crate::{ApiError, AppState};
use holdfast_model::{BookingId, BookingStatus, EventId};

/// One booking of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attendee {
    pub booking_id: BookingId,
    /// The guests' names (empty when nobody was named).
    pub names: Vec<String>,
    pub email: Option<String>,
    /// Seats by name, or the standing area's.
    pub places: Vec<String>,
    pub tickets: i64,
    pub checked_in: i64,
    pub status: BookingStatus,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: BookingId,
    status: BookingStatus,
    ga_quantity: i64,
    area: Option<String>,
    email: Option<String>,
}

/// The statuses of a booking that was paid.
const PAID: [BookingStatus; 3] = [
    BookingStatus::Booked,
    BookingStatus::Refunded,
    BookingStatus::Disputed,
];

/// Every paid booking of the event, oldest first; `NotFound` for no event.
pub async fn attendees(state: &AppState, event_id: EventId) -> Result<Vec<Attendee>, ApiError> {
    if !crate::catalog::exists(state, event_id).await? {
        return Err(ApiError::NotFound("event"));
    }
    let db = state.db.reader();
    let paid = BookingStatus::sql_list(&PAID);
    let of_event = format!(
        "join booking b on b.id = x.booking_id where b.event_id = $1 and b.status in {paid}"
    );
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "select b.id, b.status, b.ga_quantity, g.name as area,
                coalesce(p.customer_email, a.email) as email
         from booking b
         left join payment p on p.booking_id = b.id
         left join account a on a.buyer_id = b.buyer_id
         left join ga_area g on g.id = b.ga_area_id
         where b.event_id = $1 and b.status in {paid}
         order by b.created_at, b.id"
    ))
    .bind(event_id)
    .fetch_all(db)
    .await?;
    let seats: Vec<(BookingId, String)> = sqlx::query_as(&format!(
        "select x.booking_id, s.label from booking_seat x join seat s on s.id = x.seat_id {of_event}
         order by s.id"
    ))
    .bind(event_id)
    .fetch_all(db)
    .await?;
    let guests: Vec<(BookingId, String)> = sqlx::query_as(&format!(
        "select x.booking_id, x.full_name from booking_guest x {of_event}
         order by x.seat_id, x.position"
    ))
    .bind(event_id)
    .fetch_all(db)
    .await?;
    let scans: Vec<(BookingId, i64)> = sqlx::query_as(&format!(
        "select x.booking_id, count(*) from ticket_checkin x {of_event} group by x.booking_id"
    ))
    .bind(event_id)
    .fetch_all(db)
    .await?;
    let mut seats_of = group(seats);
    let mut names_of = group(guests);
    let scanned: HashMap<BookingId, i64> = scans.into_iter().collect();
    Ok(rows
        .into_iter()
        .map(|r| {
            let seats = seats_of.remove(&r.id).unwrap_or_default();
            let tickets = if seats.is_empty() {
                r.ga_quantity
            } else {
                seats.len() as i64
            };
            Attendee {
                names: names_of.remove(&r.id).unwrap_or_default(),
                email: r.email,
                places: match r.area {
                    Some(area) if seats.is_empty() => vec![area],
                    _ => seats,
                },
                tickets,
                checked_in: scanned.get(&r.id).copied().unwrap_or(0),
                status: r.status,
                booking_id: r.id,
            }
        })
        .collect())
}

fn group(rows: Vec<(BookingId, String)>) -> HashMap<BookingId, Vec<String>> {
    let mut out: HashMap<BookingId, Vec<String>> = HashMap::new();
    for (booking, value) in rows {
        out.entry(booking).or_default().push(value);
    }
    out
}

/// The list as CSV (RFC 4180: comma-separated, CRLF, a header line).
pub fn csv(list: &[Attendee]) -> String {
    let mut out = String::new();
    line(
        &mut out,
        &[
            "booking",
            "names",
            "email",
            "places",
            "tickets",
            "checked_in",
            "status",
        ],
    );
    for a in list {
        line(
            &mut out,
            &[
                a.booking_id.as_ref(),
                &a.names.join("; "),
                a.email.as_deref().unwrap_or(""),
                &a.places.join("; "),
                &a.tickets.to_string(),
                &a.checked_in.to_string(),
                a.status.as_str(),
            ],
        );
    }
    out
}

/// One CSV line. A field with a comma, quote or line break is quoted (its
/// quotes doubled); one a spreadsheet would run as a formula (`=`, `+`,
/// `-`, `@`, tab, CR) is prefixed with `'` — names and emails are typed by
/// buyers.
fn line(out: &mut String, fields: &[&str]) {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let guarded = if field.starts_with(['=', '+', '-', '@', '\t', '\r']) {
            format!("'{field}")
        } else {
            field.to_string()
        };
        if guarded.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&guarded.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(&guarded);
        }
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_where_needed_and_formulas_are_defused() {
        let mut out = String::new();
        line(
            &mut out,
            &[
                "plain",
                "a, b",
                "say \"hi\"",
                "=SUM(A1)",
                "-1",
                "two\nlines",
            ],
        );
        assert_eq!(
            out,
            "plain,\"a, b\",\"say \"\"hi\"\"\",'=SUM(A1),'-1,\"two\nlines\"\r\n"
        );
    }

    #[test]
    fn a_list_reads_as_a_header_and_a_line_per_booking() {
        let list = vec![Attendee {
            booking_id: BookingId::from("b-1".to_string()),
            names: vec!["Ann Lee".into(), "Bo Lee".into()],
            email: Some("ann@example.com".into()),
            places: vec!["A-1-1".into(), "A-1-2".into()],
            tickets: 2,
            checked_in: 1,
            status: BookingStatus::Booked,
        }];
        assert_eq!(
            csv(&list),
            "booking,names,email,places,tickets,checked_in,status\r\n\
             b-1,Ann Lee; Bo Lee,ann@example.com,A-1-1; A-1-2,2,1,BOOKED\r\n"
        );
    }
}
