//! Ids as types of their own, so an event's id cannot be passed where a
//! seat's is wanted and a booking's id is not just any string. Each is
//! written and read as its bare value — a JSON number or string, an SQL
//! integer or text — so the API and the tables are what they were.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// An id the database counts (`bigint` / `integer primary key`).
macro_rules! counted_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        #[cfg_attr(feature = "ssr", derive(sqlx::Type, utoipa::ToSchema), sqlx(transparent))]
        pub struct $name(pub i64);

        impl $name {
            /// The id's bytes, for fingerprints of requests.
            pub fn to_be_bytes(self) -> [u8; 8] {
                self.0.to_be_bytes()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = std::num::ParseIntError;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                s.parse().map($name)
            }
        }
    };
}

/// An id Holdfast makes up (a UUID for bookings, the session's buyer id).
macro_rules! named_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        #[cfg_attr(feature = "ssr", derive(sqlx::Type, utoipa::ToSchema), sqlx(transparent))]
        pub struct $name(pub String);

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                $name(s)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name(s.to_string())
            }
        }

        /// Read as text wherever text is wanted (a MAC, a URL, a log);
        /// text never becomes an id without saying so.
        impl std::ops::Deref for $name {
            type Target = str;

            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }
    };
}

counted_id!(
    /// An event (a concert or a sailing).
    EventId
);
counted_id!(
    /// A seat, or a cabin on a ship.
    SeatId
);
named_id!(
    /// A booking: a UUID, made when the hold is taken.
    BookingId
);
named_id!(
    /// A buyer: the id the buyer's session carries.
    BuyerId
);

#[cfg(feature = "ssr")]
impl BookingId {
    /// A new booking's id: a random UUID.
    pub fn random() -> Self {
        BookingId(uuid::Uuid::new_v4().to_string())
    }
}

#[cfg(feature = "ssr")]
impl BuyerId {
    /// A new buyer's id: a random UUID.
    pub fn random() -> Self {
        BuyerId(uuid::Uuid::new_v4().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_written_and_read_as_their_bare_values() {
        assert_eq!(serde_json::to_string(&EventId(7)).unwrap(), "7");
        assert_eq!(serde_json::from_str::<SeatId>("12").unwrap(), SeatId(12));
        let b = BookingId::from("9b2c");
        assert_eq!(serde_json::to_string(&b).unwrap(), "\"9b2c\"");
        assert_eq!("41".parse::<SeatId>().unwrap(), SeatId(41));
        assert!("seat-41".parse::<SeatId>().is_err());
        assert_eq!(format!("seat-{}", SeatId(41)), "seat-41");
    }
}
