//! When an event happens, where it happens: its start is kept in UTC and
//! shown in its place's time zone (an IANA name: 'Europe/Oslo',
//! 'Asia/Ho_Chi_Minh'), with the offset and the zone's short name of that
//! day — so 20:00 in Hà Nội reads 20:00 ICT wherever the buyer is.

use chrono::{DateTime, SecondsFormat};
use chrono_tz::Tz;

use crate::platform::clock::At;

/// The zone an organizer named, if it is one.
pub fn zone(name: &str) -> Option<Tz> {
    name.parse().ok()
}

/// A start an organizer typed: RFC 3339 with an offset, or a wall-clock
/// time without one ("2027-06-01T20:00") read in the event's zone (the
/// earlier of two readings when clocks go back; none when they skip it).
pub fn parse_start(text: &str, zone_name: &str) -> Option<At> {
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Some(At::from_ms(t.timestamp_millis()));
    }
    let tz = zone(zone_name)?;
    let wall = ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"]
        .iter()
        .find_map(|f| chrono::NaiveDateTime::parse_from_str(text, f).ok())?;
    wall.and_local_timezone(tz)
        .earliest()
        .map(|t| At::from_ms(t.timestamp_millis()))
}

/// An event's start in its zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalStart {
    /// RFC 3339 with the zone's offset at that moment.
    pub at: String,
    /// "CET", "CEST", "UTC+07" (zones without a letter name get their offset).
    pub abbreviation: String,
}

/// `starts_at_ms` (UTC) in the zone named `zone` (UTC when it is not one).
pub fn local_start(starts_at: At, zone_name: &str) -> LocalStart {
    let tz = zone(zone_name).unwrap_or(chrono_tz::UTC);
    let t = DateTime::from_timestamp_millis(starts_at.ms())
        .unwrap_or_default()
        .with_timezone(&tz);
    let short = t.format("%Z").to_string();
    let abbreviation = if short.starts_with(['+', '-']) {
        format!("UTC{short}")
    } else {
        short
    };
    LocalStart {
        at: t.to_rfc3339_opts(SecondsFormat::Secs, false),
        abbreviation,
    }
}

/// An instant as the console shows it: RFC 3339 in UTC, and the same
/// instant in the event's zone.
pub struct Moment {
    pub at: String,
    pub at_local: String,
}

/// `at` as the console shows it, in the zone named `zone_name` (UTC when
/// it is not one).
pub fn moment(at: At, zone_name: &str) -> Moment {
    Moment {
        at: crate::platform::clock::rfc3339(at),
        at_local: local_start(at, zone_name).at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JUNE_1_2027_20_00_UTC: At = At::from_ms(1_811_880_000_000);

    #[test]
    fn a_start_reads_in_its_own_zone_with_the_day_s_offset() {
        let oslo = local_start(JUNE_1_2027_20_00_UTC, "Europe/Oslo");
        assert_eq!(oslo.at, "2027-06-01T22:00:00+02:00");
        assert_eq!(oslo.abbreviation, "CEST");
        let winter = local_start(JUNE_1_2027_20_00_UTC - 150 * 86_400_000, "Europe/Oslo");
        assert!(winter.at.ends_with("+01:00"), "{}", winter.at);
        assert_eq!(winter.abbreviation, "CET");
        let hanoi = local_start(JUNE_1_2027_20_00_UTC, "Asia/Ho_Chi_Minh");
        assert_eq!(hanoi.at, "2027-06-02T03:00:00+07:00");
        assert_eq!(hanoi.abbreviation, "UTC+07");
    }

    #[test]
    fn a_wall_clock_start_is_read_in_the_event_s_zone() {
        assert_eq!(
            parse_start("2027-06-01T22:00", "Europe/Oslo"),
            Some(JUNE_1_2027_20_00_UTC)
        );
        assert_eq!(
            parse_start("2027-06-01T20:00:00Z", "Asia/Ho_Chi_Minh"),
            Some(JUNE_1_2027_20_00_UTC)
        );
        // 02:30 does not exist in Oslo on the last Sunday of March.
        assert_eq!(parse_start("2027-03-28T02:30", "Europe/Oslo"), None);
        assert_eq!(parse_start("2027-06-01T22:00", "Mars/Olympus"), None);
    }

    #[test]
    fn an_unknown_zone_is_refused_and_shown_as_utc() {
        assert!(zone("Mars/Olympus").is_none());
        assert!(zone("Europe/Oslo").is_some());
        let t = local_start(JUNE_1_2027_20_00_UTC, "Mars/Olympus");
        assert_eq!(
            (t.at.as_str(), t.abbreviation.as_str()),
            ("2027-06-01T20:00:00+00:00", "UTC")
        );
    }
}
