//! What both state machines (bookings, payments) share: each state's one
//! spelling — on the wire, in the database, in SQL — and the helpers built
//! on it. `state_names!` writes them for an enum from its name table, so the
//! table in the machine's own module is the only place a status is spelled.

/// `state_names!(Type { Variant => "NAME", … })`: `ALL`, `as_str`, `parse`,
/// `sql` (the quoted SQL literal), `sql_list` (`('A', 'B')`), `sources_of`
/// (from the type's `can_become`) and `Display`.
macro_rules! state_names {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            pub const fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }

            pub fn parse(s: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|st| st.as_str() == s)
            }

            /// The state as an SQL literal, for statements that name their
            /// source state.
            pub fn sql(self) -> String {
                format!("'{}'", self.as_str())
            }

            /// A list for `status in …`.
            pub fn sql_list(states: &[Self]) -> String {
                let names: Vec<String> = states.iter().map(|s| s.sql()).collect();
                format!("({})", names.join(", "))
            }

            /// The states `to` may be reached from.
            pub fn sources_of(to: Self) -> Vec<Self> {
                Self::ALL
                    .iter()
                    .copied()
                    .filter(|from| from.can_become(to))
                    .collect()
            }
        }

        /// Stored as its name: a row read with a name the machine does
        /// not know is refused as corrupt.
        #[cfg(feature = "ssr")]
        impl sqlx::Type<sqlx::Any> for $ty {
            fn type_info() -> sqlx::any::AnyTypeInfo {
                <str as sqlx::Type<sqlx::Any>>::type_info()
            }
        }

        #[cfg(feature = "ssr")]
        impl<'r> sqlx::Decode<'r, sqlx::Any> for $ty {
            fn decode(
                value: <sqlx::Any as sqlx::Database>::ValueRef<'r>,
            ) -> Result<Self, sqlx::error::BoxDynError> {
                let name = <String as sqlx::Decode<'r, sqlx::Any>>::decode(value)?;
                Self::parse(&name).ok_or_else(|| {
                    format!("not a {} state: {name:?}", stringify!($ty)).into()
                })
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use state_names;
