//! The organizer's team as the admin API and the console show it: people
//! (`TeamMember`), the invitations that bring them in, and the API keys
//! integrations use — each with one `Role`, for every event or a list.

use serde::{Deserialize, Serialize};

use crate::EventId;

/// What a person or a key may do; `holdfast_core::admin::access` says
/// which permissions each role carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The team, keys and settings, and everything else.
    Owner,
    /// Events, layouts, refunds, promo codes, exports.
    Manager,
    /// Selling and looking up bookings; no refunds.
    BoxOffice,
    /// Checking tickets in at the door of their events.
    Door,
    /// Reports only.
    ReadOnly,
}

impl Role {
    pub const ALL: [Role; 5] = [
        Role::Owner,
        Role::Manager,
        Role::BoxOffice,
        Role::Door,
        Role::ReadOnly,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Manager => "manager",
            Role::BoxOffice => "box_office",
            Role::Door => "door",
            Role::ReadOnly => "read_only",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Self::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

/// A person of the team.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TeamMember {
    pub id: i64,
    pub email: String,
    pub role: Role,
    /// `null`: every event.
    pub event_ids: Option<Vec<EventId>>,
    /// RFC 3339, UTC.
    pub joined_at: String,
    /// Whether they have set their two-step sign-in (a password and an
    /// authenticator); their role may not need it.
    #[serde(default)]
    pub two_step_set: bool,
}

/// An invitation not yet taken up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PendingInvitation {
    pub email: String,
    pub role: Role,
    pub event_ids: Option<Vec<EventId>>,
    pub invited_by: String,
    /// RFC 3339, UTC.
    pub expires_at: String,
}

/// `GET /api/admin/team`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Team {
    pub members: Vec<TeamMember>,
    pub invitations: Vec<PendingInvitation>,
}

/// A role and where it applies: what an invitation, a change of role and
/// a new key carry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Grant {
    pub role: Role,
    /// Absent or `null`: every event, now and to come.
    #[serde(default)]
    pub event_ids: Option<Vec<EventId>>,
}

/// `POST /api/admin/team/invitations`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewInvitation {
    pub email: String,
    pub role: Role,
    #[serde(default)]
    pub event_ids: Option<Vec<EventId>>,
}

/// `POST /api/admin/keys`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewApiKey {
    /// What the key is for (1 to 80 characters): the audit log names it.
    pub name: String,
    pub role: Role,
    #[serde(default)]
    pub event_ids: Option<Vec<EventId>>,
}

/// An API key as listed (never its secret).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyView {
    pub id: i64,
    pub name: String,
    pub role: Role,
    pub event_ids: Option<Vec<EventId>>,
    pub created_by: String,
    /// RFC 3339, UTC.
    pub created_at: String,
    /// When it stopped working; `null` while it works.
    pub revoked_at: Option<String>,
}

/// A key just made: its secret, shown this once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CreatedApiKey {
    pub key: ApiKeyView,
    /// `Authorization: Bearer <secret>`; Holdfast keeps only its hash.
    pub secret: String,
}

/// What the signed-in person's role lets them do, as the console draws it:
/// a control their role cannot use is not shown (the server refuses it
/// anyway). `holdfast_core::admin::access` computes it from the role table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Powers {
    pub team: bool,
    pub event_setup: bool,
    pub refunds: bool,
    pub bookings: bool,
    pub check_in: bool,
    pub reports: bool,
    pub exports: bool,
    pub operations: bool,
}

/// A person's powers in the console, in the two places they apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ConsolePowers {
    /// On what belongs to no one event (the team, the machinery, a new
    /// event): only a grant for every event reaches it.
    pub everywhere: Powers,
    /// On each event the person sees (the console lists no others).
    pub own_events: Powers,
}

/// One of the console's pages, as its links name it.
#[cfg(any(feature = "ssr", feature = "console"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConsolePage {
    pub href: &'static str,
    /// The link's class (specs and styles find it by this).
    pub class: &'static str,
    pub words: crate::i18n::Msg,
}

#[cfg(any(feature = "ssr", feature = "console"))]
impl ConsolePowers {
    /// The console's other pages these powers reach, in the order the
    /// links between them are shown (the console's home and the plain-HTML
    /// pages alike).
    pub fn pages(self) -> impl Iterator<Item = ConsolePage> {
        use crate::i18n::Msg;
        let (all, own) = (self.everywhere, self.own_events);
        let page =
            |may: bool, href, class, words| may.then_some(ConsolePage { href, class, words });
        [
            page(own.check_in, "/admin/scan", "door-link", Msg::DoorScanner),
            page(
                own.bookings,
                "/admin/bookings/history",
                "history-link",
                Msg::LookUpBooking,
            ),
            page(
                all.event_setup,
                "/admin/sailings",
                "sailings-link",
                Msg::SailingsHeading,
            ),
            page(
                all.event_setup,
                "/admin/refund-policies",
                "policies-link",
                Msg::RefundPolicies,
            ),
            page(all.team, "/admin/team", "team-link", Msg::TeamTitle),
            page(all.operations, "/admin/jobs", "jobs-link", Msg::JobsHeading),
        ]
        .into_iter()
        .flatten()
    }
}
