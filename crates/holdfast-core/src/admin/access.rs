//! What an admin may do: the one place the rules live. A role carries a
//! set of permissions (`Role::allows`), a grant applies to every event or
//! to a list (`EventScope`), and `authorize` decides a use case's request
//! against both. Routes and server functions name the permission their use
//! case needs and what it acts on; none decides on its own.

use std::collections::BTreeSet;

use holdfast_model::console::team::{ConsolePowers, Powers, Role};
use holdfast_model::{BookingId, EventId};

use super::audit::{self, Entry};
use super::audit_detail::Detail;
use crate::{ApiError, AppState};

/// What a use case needs of its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Permission {
    /// Seeing the events one's grant reaches, by name and date (the
    /// console's list): every role.
    ListEvents,
    /// People, invitations and API keys.
    Team,
    /// Creating and changing events: layouts, publishing, the refund
    /// policy, on-sale time, the waiting room, promo codes, cancelling a
    /// sailing.
    EventSetup,
    /// Sending money back: refunds, part refunds.
    Refunds,
    /// Looking up bookings and their history, holding and releasing for a
    /// buyer, mailing a confirmation again.
    Bookings,
    /// Scanning tickets at the door.
    CheckIn,
    /// Dashboards, sales figures, the audit log.
    Reports,
    /// The attendee list (names and addresses) as a file.
    Exports,
    /// The machinery: periodic jobs, invariants, live holds, the sandbox
    /// mailbox (which holds sign-in links).
    Operations,
}

impl Permission {
    pub const ALL: [Permission; 9] = [
        Permission::ListEvents,
        Permission::Team,
        Permission::EventSetup,
        Permission::Refunds,
        Permission::Bookings,
        Permission::CheckIn,
        Permission::Reports,
        Permission::Exports,
        Permission::Operations,
    ];

    /// Its name in the OpenAPI document's security scopes and in docs.
    pub const fn as_str(self) -> &'static str {
        match self {
            Permission::ListEvents => "list_events",
            Permission::Team => "team",
            Permission::EventSetup => "event_setup",
            Permission::Refunds => "refunds",
            Permission::Bookings => "bookings",
            Permission::CheckIn => "check_in",
            Permission::Reports => "reports",
            Permission::Exports => "exports",
            Permission::Operations => "operations",
        }
    }
}

/// Whether `role` carries `permission`: the role table of docs/API.md.
pub const fn allows(role: Role, permission: Permission) -> bool {
    use Permission::*;
    match role {
        Role::Owner => true,
        Role::Manager => matches!(
            permission,
            ListEvents | EventSetup | Refunds | Bookings | CheckIn | Reports | Exports
        ),
        Role::BoxOffice => matches!(permission, ListEvents | Bookings | CheckIn),
        Role::Door => matches!(permission, ListEvents | CheckIn),
        Role::ReadOnly => matches!(permission, ListEvents | Reports),
    }
}

/// The events a grant applies to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventScope {
    All,
    Only(BTreeSet<EventId>),
}

impl EventScope {
    pub fn from_list(list: Option<Vec<EventId>>) -> EventScope {
        list.map_or(EventScope::All, |ids| {
            EventScope::Only(ids.into_iter().collect())
        })
    }

    pub fn to_list(&self) -> Option<Vec<EventId>> {
        match self {
            EventScope::All => None,
            EventScope::Only(ids) => Some(ids.iter().copied().collect()),
        }
    }

    pub fn includes(&self, event: EventId) -> bool {
        match self {
            EventScope::All => true,
            EventScope::Only(ids) => ids.contains(&event),
        }
    }

    /// Whether every event this scope reaches, `other` reaches too.
    pub fn within(&self, other: &EventScope) -> bool {
        match (self, other) {
            (_, EventScope::All) => true,
            (EventScope::All, EventScope::Only(_)) => false,
            (EventScope::Only(mine), EventScope::Only(theirs)) => mine.is_subset(theirs),
        }
    }
}

/// Who an admin is, for the audit log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// The bootstrap credentials (`ADMIN_PASSWORD`, `ADMIN_TOKEN`).
    Bootstrap,
    /// A person of the team (`staff.id`).
    Person(i64),
    /// An API key (`api_key.id`).
    Key(i64),
}

/// An authenticated admin: who (`actor`, as the audit log names them), from
/// where, and what they may do.
#[derive(Debug, Clone)]
pub struct Admin {
    pub actor: String,
    pub holder: Holder,
    /// The client's address, as the audit log keeps it.
    pub client: Option<String>,
    pub role: Role,
    pub events: EventScope,
}

impl Admin {
    /// The bootstrap owner (the configured password or token).
    pub fn bootstrap(actor: &str, client: Option<String>) -> Admin {
        Admin {
            actor: actor.to_string(),
            holder: Holder::Bootstrap,
            client,
            role: Role::Owner,
            events: EventScope::All,
        }
    }

    /// Whether this admin may use `permission` on `event` (`None`: on
    /// something of no one event, which needs a grant for every event).
    pub fn may(&self, permission: Permission, event: Option<EventId>) -> bool {
        allows(self.role, permission)
            && match event {
                Some(event) => self.events.includes(event),
                None => self.events == EventScope::All,
            }
    }

    /// What the console draws for this admin: the permissions of `may`,
    /// on what belongs to no event and on each event they see.
    pub fn console_powers(&self) -> ConsolePowers {
        let over = |event: bool| {
            let may = |permission| {
                allows(self.role, permission) && (event || self.events == EventScope::All)
            };
            Powers {
                team: may(Permission::Team),
                event_setup: may(Permission::EventSetup),
                refunds: may(Permission::Refunds),
                bookings: may(Permission::Bookings),
                check_in: may(Permission::CheckIn),
                reports: may(Permission::Reports),
                exports: may(Permission::Exports),
                operations: may(Permission::Operations),
            }
        };
        ConsolePowers {
            everywhere: over(false),
            own_events: over(true),
        }
    }

    /// Whether this admin sees `event` in lists of events.
    pub fn sees(&self, event: EventId) -> bool {
        self.events.includes(event)
    }
}

/// What a request acts on, as far as its event decides.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    /// Something of no one event (the team, jobs, all events' audit);
    /// needs a grant for every event.
    Everything,
    /// A list the answer narrows to the admin's events (`Admin::sees`).
    EachOwnEvent,
    Event(EventId),
    Booking(&'a BookingId),
    /// A ticket's token, as the door scans it.
    Ticket(&'a str),
}

/// Decides `admin`'s request for `permission` on `target`: 403 `FORBIDDEN`
/// when the role does not carry it or the grant does not reach the target's
/// event. A booking or ticket that does not exist is let through for the
/// use case to answer 404 (it reaches no event of anybody's).
pub async fn authorize(
    state: &AppState,
    admin: &Admin,
    permission: Permission,
    target: Target<'_>,
) -> Result<(), ApiError> {
    if !allows(admin.role, permission) {
        // Written under the event named, for its own log to show.
        let event = match target {
            Target::Event(event) => Some(event),
            _ => None,
        };
        return refused(state, admin, permission, target, event).await;
    }
    let event = match target {
        Target::EachOwnEvent => return Ok(()),
        Target::Everything => None,
        Target::Event(event) => Some(event),
        Target::Booking(booking) => match event_of_booking(state, booking).await? {
            Some(event) => Some(event),
            None => return Ok(()),
        },
        Target::Ticket(token) => {
            let Some(ticket) = state.tickets.verify_unit(token) else {
                return Ok(());
            };
            match event_of_booking(state, &ticket.booking_id).await? {
                Some(event) => Some(event),
                None => return Ok(()),
            }
        }
    };
    if admin.may(permission, event) {
        Ok(())
    } else {
        refused(state, admin, permission, target, event).await
    }
}

/// A refusal, written to the audit log (who tried what, from where), then
/// answered 403.
pub async fn refused(
    state: &AppState,
    admin: &Admin,
    permission: Permission,
    target: Target<'_>,
    event: Option<EventId>,
) -> Result<(), ApiError> {
    let target = match target {
        Target::Everything | Target::EachOwnEvent => "every event".to_string(),
        Target::Event(event) => format!("event {event}"),
        Target::Booking(booking) => format!("booking {booking}"),
        Target::Ticket(_) => "a ticket".to_string(),
    };
    let detail = Detail::Refused {
        permission: permission.as_str().to_string(),
        target,
    };
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let entry = Entry {
        by: admin,
        action: "refused",
        event_id: event,
        booking_id: None,
        detail: &detail,
    };
    audit::record(&mut tx, &entry, now).await?;
    crate::platform::db::commit(tx).await?;
    Err(ApiError::Forbidden)
}

async fn event_of_booking(
    state: &AppState,
    booking: &BookingId,
) -> Result<Option<EventId>, ApiError> {
    let row: Option<(EventId,)> = sqlx::query_as("select event_id from booking where id = $1")
        .bind(booking)
        .fetch_optional(state.db.reader())
        .await?;
    Ok(row.map(|(event,)| event))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_owner_manages_the_team_and_the_machinery() {
        for role in Role::ALL {
            assert_eq!(allows(role, Permission::Team), role == Role::Owner);
            assert_eq!(allows(role, Permission::Operations), role == Role::Owner);
        }
    }

    #[test]
    fn the_box_office_and_the_door_move_no_money() {
        for role in [Role::BoxOffice, Role::Door, Role::ReadOnly] {
            assert!(!allows(role, Permission::Refunds));
            assert!(!allows(role, Permission::EventSetup));
        }
    }

    #[test]
    fn a_grant_for_some_events_reaches_only_them() {
        let door = Admin {
            actor: "door@example.com".into(),
            holder: Holder::Person(1),
            client: None,
            role: Role::Door,
            events: EventScope::from_list(Some(vec![EventId(2)])),
        };
        assert!(door.may(Permission::CheckIn, Some(EventId(2))));
        assert!(!door.may(Permission::CheckIn, Some(EventId(1))));
        assert!(!door.may(Permission::CheckIn, None));
        assert!(!door.may(Permission::Reports, Some(EventId(2))));
    }

    #[test]
    fn the_console_draws_what_the_role_and_the_grant_allow() {
        let manager = |events| Admin {
            actor: "m@example.com".into(),
            holder: Holder::Person(1),
            client: None,
            role: Role::Manager,
            events,
        };
        let everywhere = manager(EventScope::All).console_powers();
        assert!(everywhere.everywhere.event_setup && everywhere.own_events.refunds);
        assert!(!everywhere.everywhere.team && !everywhere.own_events.operations);
        let some = manager(EventScope::from_list(Some(vec![EventId(2)]))).console_powers();
        assert!(
            !some.everywhere.event_setup,
            "a new event needs every event"
        );
        assert!(some.own_events.event_setup && some.own_events.refunds);
        for role in Role::ALL {
            let admin = Admin {
                role,
                ..manager(EventScope::All)
            };
            let powers = admin.console_powers().own_events;
            assert_eq!(powers.refunds, allows(role, Permission::Refunds));
            assert_eq!(powers.bookings, allows(role, Permission::Bookings));
            assert_eq!(powers.check_in, allows(role, Permission::CheckIn));
        }
    }

    #[test]
    fn scopes_nest() {
        let two = EventScope::from_list(Some(vec![EventId(2)]));
        let both = EventScope::from_list(Some(vec![EventId(1), EventId(2)]));
        assert!(two.within(&both));
        assert!(!both.within(&two));
        assert!(both.within(&EventScope::All));
        assert!(!EventScope::All.within(&both));
    }
}
