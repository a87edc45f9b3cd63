//! What an audit entry says happened, as a kind and its values: stored as
//! JSON beside the English words (`audit_log.words`, `detail`), so the
//! console reads it in the organizer's language while the API keeps the
//! English it always gave.

use serde::{Deserialize, Serialize};

use holdfast_model::console::team::Role;
use holdfast_model::i18n::{Locale, Msg};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "said", rename_all = "snake_case")]
pub enum Detail {
    Released {
        seats: usize,
    },
    Extended {
        seconds: i64,
    },
    RefundQueued {
        seats: usize,
    },
    ConfirmationQueued,
    EventCreated {
        name: String,
        seats: usize,
    },
    LayoutEdited {
        name: String,
        seats: usize,
    },
    Published,
    Unpublished,
    CheckedIn {
        places: String,
        gate: String,
    },
    PromoCreated {
        id: i64,
        name: String,
        kind: String,
        codes: usize,
    },
    WaitingRoom {
        open: bool,
        per_minute: i64,
    },
    RefundPolicy {
        full_days: Option<i64>,
        partial_days: Option<i64>,
        percent: Option<i64>,
    },
    SailingCancelled {
        reason: String,
    },
    /// Part of a booking's payment given back, and why.
    PartRefunded {
        cents: i64,
        currency: String,
        reason: String,
    },
    /// The on-sale time moved to `at` (in the event's zone, RFC 3339).
    OnSaleMoved {
        at: String,
    },
    /// A periodic job asked to run at once ("Run now").
    JobRunAsked {
        job: String,
    },
    /// Somebody asked to join the team (an invitation mailed).
    TeamInvited {
        email: String,
        role: Role,
    },
    TeamJoined {
        email: String,
        role: Role,
    },
    TeamRoleChanged {
        email: String,
        role: Role,
    },
    TeamRemoved {
        email: String,
    },
    ApiKeyCreated {
        name: String,
        role: Role,
    },
    ApiKeyRevoked {
        name: String,
    },
    /// A request the caller's role or events did not allow.
    Refused {
        permission: String,
        target: String,
    },
}

impl Detail {
    /// The entry in a language (English: the words the API gives).
    pub fn say(&self, l: Locale) -> String {
        match self {
            Detail::Released { seats } => {
                l.fill(Msg::AuditReleased, &[("places", &places(l, *seats))])
            }
            Detail::Extended { seconds } => l.fill(Msg::AuditExtended, &[("n", seconds)]),
            Detail::RefundQueued { seats } => {
                l.fill(Msg::AuditRefundQueued, &[("places", &places(l, *seats))])
            }
            Detail::ConfirmationQueued => l.t(Msg::AuditConfirmationQueued).to_string(),
            Detail::EventCreated { name, seats } => {
                l.fill(Msg::AuditEventCreated, &[("name", name), ("n", seats)])
            }
            Detail::LayoutEdited { name, seats } => {
                l.fill(Msg::AuditLayoutEdited, &[("name", name), ("n", seats)])
            }
            Detail::Published => l.t(Msg::AuditPublished).to_string(),
            Detail::RefundPolicy {
                full_days,
                partial_days,
                percent,
            } => match (full_days, partial_days, percent) {
                (None, None, _) => l.t(Msg::AuditNoCancellation).to_string(),
                _ => {
                    let days = |d: &Option<i64>| d.map_or("-".to_string(), |d| d.to_string());
                    l.fill(
                        Msg::AuditRefundPolicy,
                        &[
                            ("full", &days(full_days)),
                            ("partial", &days(partial_days)),
                            ("percent", &percent.unwrap_or(0)),
                        ],
                    )
                }
            },
            Detail::Unpublished => l.t(Msg::AuditUnpublished).to_string(),
            Detail::CheckedIn { places, gate } => {
                l.fill(Msg::AuditCheckedIn, &[("places", places), ("gate", gate)])
            }
            Detail::PromoCreated {
                id,
                name,
                kind,
                codes,
            } => {
                // English keeps the API's code; other languages the form's words.
                let kind = match (l, kind.as_str()) {
                    (Locale::En, _) => kind.clone(),
                    (_, "single") => l.t(Msg::SingleUse).to_string(),
                    (_, "capped") => l.t(Msg::CappedUses).to_string(),
                    (_, "pooled") => l.t(Msg::PoolOnePerBuyer).to_string(),
                    _ => kind.clone(),
                };
                l.fill(
                    Msg::AuditPromoCreated,
                    &[("id", id), ("name", name), ("kind", &kind), ("n", codes)],
                )
            }
            Detail::OnSaleMoved { at } => {
                let when =
                    holdfast_model::i18n::format::moment(l, at).unwrap_or_else(|| at.clone());
                l.fill(Msg::AuditOnSaleMoved, &[("at", &when)])
            }
            Detail::JobRunAsked { job } => l.fill(Msg::AuditJobRunAsked, &[("job", job)]),
            Detail::TeamInvited { email, role } => l.fill(
                Msg::AuditTeamInvited,
                &[("email", email), ("role", &role_words(l, *role))],
            ),
            Detail::TeamJoined { email, role } => l.fill(
                Msg::AuditTeamJoined,
                &[("email", email), ("role", &role_words(l, *role))],
            ),
            Detail::TeamRoleChanged { email, role } => l.fill(
                Msg::AuditTeamRoleChanged,
                &[("email", email), ("role", &role_words(l, *role))],
            ),
            Detail::TeamRemoved { email } => l.fill(Msg::AuditTeamRemoved, &[("email", email)]),
            Detail::ApiKeyCreated { name, role } => l.fill(
                Msg::AuditApiKeyCreated,
                &[("name", name), ("role", &role_words(l, *role))],
            ),
            Detail::ApiKeyRevoked { name } => l.fill(Msg::AuditApiKeyRevoked, &[("name", name)]),
            Detail::Refused { permission, target } => l.fill(
                Msg::AuditRefused,
                &[("permission", permission), ("target", target)],
            ),
            Detail::SailingCancelled { reason } => {
                l.fill(Msg::AuditSailingCancelled, &[("reason", reason)])
            }
            Detail::PartRefunded {
                cents,
                currency,
                reason,
            } => {
                let amount = l.price(*cents, currency);
                l.fill(
                    Msg::AuditPartRefunded,
                    &[("amount", &amount), ("reason", reason)],
                )
            }
            Detail::WaitingRoom { open, per_minute } => l.fill(
                if *open {
                    Msg::AuditRoomOn
                } else {
                    Msg::AuditRoomOff
                },
                &[("n", per_minute)],
            ),
        }
    }

    /// The stored form.
    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// An entry's words in a language: from its stored kind, else (an entry
    /// written before kinds were kept) its English words as they are.
    pub fn read(words: Option<&str>, english: &str, l: Locale) -> String {
        words
            .and_then(|w| serde_json::from_str::<Detail>(w).ok())
            .map_or_else(|| english.to_string(), |d| d.say(l))
    }
}

/// A role as the organizer reads it.
pub fn role_words(l: Locale, role: Role) -> String {
    l.t(match role {
        Role::Owner => Msg::RoleOwner,
        Role::Manager => Msg::RoleManager,
        Role::BoxOffice => Msg::RoleBoxOffice,
        Role::Door => Msg::RoleDoor,
        Role::ReadOnly => Msg::RoleReadOnly,
    })
    .to_string()
}

/// "1 place", "2 places": a booking's seats, cabins or standing places.
fn places(l: Locale, n: usize) -> String {
    l.plural(
        i64::try_from(n).unwrap_or(i64::MAX),
        Msg::PlaceOne,
        Msg::PlaceMany,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_is_what_the_api_always_said_and_vietnamese_is_the_catalogue_s() {
        let released = Detail::Released { seats: 2 };
        assert_eq!(released.say(Locale::En), "released 2 places");
        assert_eq!(released.say(Locale::Vi), "đã trả 2 chỗ");
        assert_eq!(
            Detail::RefundQueued { seats: 1 }.say(Locale::En),
            "refund queued; 1 place released"
        );
        let room = Detail::WaitingRoom {
            open: true,
            per_minute: 60,
        };
        assert_eq!(room.say(Locale::En), "waiting room on, 60 a minute");
        let stored = room.json();
        assert_eq!(
            Detail::read(Some(&stored), "x", Locale::Vi),
            room.say(Locale::Vi)
        );
        assert_eq!(Detail::read(None, "old words", Locale::Vi), "old words");
        assert_eq!(
            Detail::PromoCreated {
                id: 3,
                name: "Friends".into(),
                kind: "single".into(),
                codes: 1
            }
            .say(Locale::En),
            "promo campaign 3 \"Friends\": single (1 codes)"
        );
        assert_eq!(
            Detail::PromoCreated {
                id: 3,
                name: "Bạn".into(),
                kind: "single".into(),
                codes: 1
            }
            .say(Locale::Vi),
            "chiến dịch khuyến mãi 3 \"Bạn\": dùng một lần (1 mã)"
        );
    }
}
