//! The organizer's team: an owner invites a person by address with a role
//! for every event or some; the invitation link, mailed once and opened
//! once before it expires, makes them a member and signs that browser in.
//! Later they sign in with a link mailed to the same address. A member's
//! row is read at every request of theirs (`member_admin`), so a new role,
//! or their removal, holds on every instance at once; removal also ends
//! the API keys they made.

use std::net::IpAddr;

use holdfast_model::console::team::{
    Grant, NewInvitation, PendingInvitation, Role, Team, TeamMember,
};
use holdfast_model::i18n::{Locale, Msg};
use holdfast_model::EventId;

use super::access::{self, allows, Admin, EventScope, Holder, Permission, Target};
use super::audit::{self, Entry};
use super::audit_detail::{role_words, Detail};
use super::secrets::{random_secret, sha256_hex};
use crate::account::link::{count_ask, LinkRefused, LINKS_PER_ADDRESS, LINKS_PER_CLIENT};
use crate::account::EmailAddress;
use crate::payments::outbox;
use crate::platform::clock::{rfc3339, At};
use crate::platform::db::{self, Db};
use crate::{ApiError, AppState};

/// How long an invitation can be taken up.
pub const INVITATION_TTL_MS: i64 = 3 * 24 * 3600 * 1000;
/// How long a mailed sign-in link signs in.
pub const SIGN_IN_TTL_MS: i64 = 15 * 60 * 1000;
/// The longest list of events one grant names.
const MAX_EVENTS: usize = 200;
const QUOTA_WINDOW_MS: i64 = 15 * 60 * 1000;

const INVITE: &str = "invite";
const SIGN_IN: &str = "sign_in";

/// A person of the team as a session holds them: their id, and the
/// generation of their membership the session was granted under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    pub person: i64,
    pub generation: i64,
}

/// The admin a member's session is, while they are on the team under the
/// same generation (not removed, nor removed and back since).
pub async fn member_admin(
    db: &Db,
    member: Member,
    client: Option<String>,
) -> Result<Option<Admin>, ApiError> {
    let row: Option<(String, String, Option<String>)> = sqlx::query_as(
        "select email, role, event_ids from staff
         where id = $1 and generation = $2 and removed_at is null",
    )
    .bind(member.person)
    .bind(member.generation)
    .fetch_optional(db.reader())
    .await?;
    let Some((email, role, events)) = row else {
        return Ok(None);
    };
    let person = member.person;
    Ok(Role::parse(&role).map(|role| Admin {
        actor: email,
        holder: Holder::Person(person),
        client,
        role,
        events: EventScope::from_list(read_event_list(events.as_deref())),
    }))
}

/// Checks what `by` hands out: events that exist, and nothing `by` could
/// not do themselves (a role carrying a permission theirs lacks, events
/// beyond theirs). The scope to store.
pub async fn check_grant(
    state: &AppState,
    by: &Admin,
    role: Role,
    event_ids: Option<&[EventId]>,
) -> Result<EventScope, ApiError> {
    if let Some(ids) = event_ids {
        if ids.is_empty() || ids.len() > MAX_EVENTS {
            return Err(ApiError::validation(
                "name 1 to 200 events, or none (null) for every event",
                "eventIds",
            ));
        }
        for id in ids {
            let known: Option<(i64,)> = sqlx::query_as("select 1 from event where id = $1")
                .bind(id)
                .fetch_optional(state.db.reader())
                .await?;
            if known.is_none() {
                return Err(ApiError::validation(
                    format!("there is no event {id}"),
                    "eventIds",
                ));
            }
        }
    }
    let scope = EventScope::from_list(event_ids.map(<[EventId]>::to_vec));
    let beyond_role = Permission::ALL
        .into_iter()
        .any(|p| allows(role, p) && !allows(by.role, p));
    if beyond_role || !scope.within(&by.events) {
        return Err(refuse(state, by).await);
    }
    Ok(scope)
}

/// Refuses `by` what their own grant does not allow, audited like every
/// refusal (`access::refused`). No transaction of the caller's may be open:
/// on SQLite the audit row needs the one writer.
async fn refuse(state: &AppState, by: &Admin) -> ApiError {
    match access::refused(state, by, Permission::Team, Target::Everything, None).await {
        Err(e) => e,
        Ok(()) => ApiError::Forbidden,
    }
}

/// Mails an invitation to join the team with `new`'s role and events.
pub async fn invite(
    state: &AppState,
    by: &Admin,
    new: &NewInvitation,
    l: Locale,
) -> Result<PendingInvitation, ApiError> {
    let address = EmailAddress::parse(&new.email)?;
    let scope = check_grant(state, by, new.role, new.event_ids.as_deref()).await?;
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let member: Option<(i64,)> =
        sqlx::query_as("select id from staff where email = $1 and removed_at is null")
            .bind(address.as_str())
            .fetch_optional(&mut *tx)
            .await?;
    if member.is_some() {
        return Err(ApiError::InvalidState(
            "this address is already on the team: change its role instead".into(),
        ));
    }
    let token = random_secret();
    let expires_at = now + INVITATION_TTL_MS;
    sqlx::query(
        "insert into staff_link (token_sha256, kind, email, role, event_ids, created_by, created_at, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(sha256_hex(&token))
    .bind(INVITE)
    .bind(address.as_str())
    .bind(new.role.as_str())
    .bind(event_list(&scope))
    .bind(&by.actor)
    .bind(now)
    .bind(expires_at)
    .execute(&mut *tx)
    .await?;
    let url = format!("{}/admin/join/{token}", base_url(state));
    // A person by their address; the bootstrap credentials and keys are
    // nobody the invited person would know.
    let inviter = match by.holder {
        Holder::Person(_) => by.actor.clone(),
        Holder::Bootstrap | Holder::Key(_) => l.t(Msg::TeamOwnerInviter).to_string(),
    };
    let body = l.fill(
        Msg::MailTeamInviteBody,
        &[
            ("inviter", &inviter),
            ("role", &role_words(l, new.role)),
            ("url", &url),
        ],
    );
    outbox::enqueue_secret_email(
        &mut tx,
        &format!("team-invite-{}", &sha256_hex(&token)[..32]),
        address.as_str(),
        (l.t(Msg::MailTeamInviteSubject), &body),
        &url,
        now,
    )
    .await?;
    let detail = Detail::TeamInvited {
        email: address.as_str().to_string(),
        role: new.role,
    };
    audit::record(&mut tx, &Entry::about_team(by, "team_invite", &detail), now).await?;
    db::commit(tx).await?;
    Ok(PendingInvitation {
        email: address.as_str().to_string(),
        role: new.role,
        event_ids: scope.to_list(),
        invited_by: by.actor.clone(),
        expires_at: rfc3339(expires_at),
    })
}

/// What an invitation link offers, without taking it up (the page that
/// asks "join?"; a GET never joins anybody).
pub async fn peek_invitation(
    state: &AppState,
    token: &str,
) -> Result<Result<PendingInvitation, LinkRefused>, ApiError> {
    let row: Option<LinkRow> = sqlx::query_as(
        "select email, role, event_ids, created_by, expires_at, used_at from staff_link
         where token_sha256 = $1 and kind = $2",
    )
    .bind(sha256_hex(token))
    .bind(INVITE)
    .fetch_optional(state.db.reader())
    .await?;
    let now = state.clock.now();
    Ok(match row {
        None => Err(LinkRefused::Unknown),
        Some(r) if r.used_at.is_some() => Err(LinkRefused::Used),
        Some(r) if r.expires_at <= now => Err(LinkRefused::Expired),
        Some(r) => r.pending().ok_or(LinkRefused::Unknown),
    })
}

/// Takes an invitation up: the person is on the team (back on it, if they
/// had left), with the invitation's role and events. Their id, to sign
/// the browser in with; a link used, expired or unknown joins nobody.
pub async fn join(state: &AppState, token: &str) -> Result<Result<Member, LinkRefused>, ApiError> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let Some(invitation) = take_link(&mut tx, token, INVITE, now).await? else {
        // Rolled back first: on SQLite the refusal's read needs the one
        // writer this transaction holds.
        drop(tx);
        return Ok(Err(refusal(state, token).await?));
    };
    let Some(pending) = invitation.pending() else {
        return Ok(Err(LinkRefused::Unknown));
    };
    let events = invitation.event_ids.clone();
    // Somebody coming back gets the invitation's role, and no session of
    // their earlier membership counts again.
    let (person, generation): (i64, i64) = sqlx::query_as(
        "insert into staff (email, role, event_ids, created_at)
         values ($1, $2, $3, $4)
         on conflict (email) do update set role = excluded.role, event_ids = excluded.event_ids,
           removed_at = null, generation = staff.generation + 1
         returning id, generation",
    )
    .bind(&pending.email)
    .bind(pending.role.as_str())
    .bind(events)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    let joined = Admin {
        actor: pending.email.clone(),
        holder: Holder::Person(person),
        client: None,
        role: pending.role,
        events: EventScope::from_list(pending.event_ids.clone()),
    };
    let detail = Detail::TeamJoined {
        email: pending.email,
        role: pending.role,
    };
    audit::record(
        &mut tx,
        &Entry::about_team(&joined, "team_join", &detail),
        now,
    )
    .await?;
    db::commit(tx).await?;
    Ok(Ok(Member { person, generation }))
}

/// Mails a sign-in link to a member of the team. The answer is the same
/// whatever the address is (it tells nobody who is on the team); links
/// past the address's share of the window are not sent.
pub async fn ask_sign_in(
    state: &AppState,
    address: &EmailAddress,
    client: Option<IpAddr>,
    l: Locale,
) -> Result<(), ApiError> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    if let Some(client) = client {
        if count_ask(&mut tx, &format!("staff-client:{client}"), now).await? > LINKS_PER_CLIENT {
            return Err(ApiError::RateLimited {
                retry_after_secs: (QUOTA_WINDOW_MS / 1000) as u64,
            });
        }
    }
    let asked = count_ask(&mut tx, &format!("staff:{}", address.as_str()), now).await?;
    let member: Option<(i64,)> =
        sqlx::query_as("select id from staff where email = $1 and removed_at is null")
            .bind(address.as_str())
            .fetch_optional(&mut *tx)
            .await?;
    if member.is_some() && asked <= LINKS_PER_ADDRESS {
        let token = random_secret();
        sqlx::query(
            "insert into staff_link (token_sha256, kind, email, created_by, created_at, expires_at)
             values ($1, $2, $3, $3, $4, $5)",
        )
        .bind(sha256_hex(&token))
        .bind(SIGN_IN)
        .bind(address.as_str())
        .bind(now)
        .bind(now + SIGN_IN_TTL_MS)
        .execute(&mut *tx)
        .await?;
        let url = format!("{}/admin/sign-in/{token}", base_url(state));
        let body = l.fill(Msg::MailTeamSignInBody, &[("url", &url)]);
        outbox::enqueue_secret_email(
            &mut tx,
            &format!("team-sign-in-{}", &sha256_hex(&token)[..32]),
            address.as_str(),
            (l.t(Msg::MailTeamSignInSubject), &body),
            &url,
            now,
        )
        .await?;
    }
    db::commit(tx).await?;
    Ok(())
}

/// Whether a sign-in link can still be opened (the page asking to).
pub async fn peek_sign_in(
    state: &AppState,
    token: &str,
) -> Result<Result<String, LinkRefused>, ApiError> {
    let row: Option<(String, At, Option<At>)> = sqlx::query_as(
        "select email, expires_at, used_at from staff_link where token_sha256 = $1 and kind = $2",
    )
    .bind(sha256_hex(token))
    .bind(SIGN_IN)
    .fetch_optional(state.db.reader())
    .await?;
    let now = state.clock.now();
    Ok(match row {
        None => Err(LinkRefused::Unknown),
        Some((_, _, Some(_))) => Err(LinkRefused::Used),
        Some((_, expires_at, _)) if expires_at <= now => Err(LinkRefused::Expired),
        Some((email, _, _)) => Ok(email),
    })
}

/// Opens a sign-in link: the member it was mailed to, while they are on
/// the team.
pub async fn open_sign_in(
    state: &AppState,
    token: &str,
) -> Result<Result<Member, LinkRefused>, ApiError> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let Some(link) = take_link(&mut tx, token, SIGN_IN, now).await? else {
        drop(tx);
        return Ok(Err(refusal(state, token).await?));
    };
    let member: Option<(i64, i64)> =
        sqlx::query_as("select id, generation from staff where email = $1 and removed_at is null")
            .bind(&link.email)
            .fetch_optional(&mut *tx)
            .await?;
    db::commit(tx).await?;
    Ok(member
        .map(|(person, generation)| Member { person, generation })
        .ok_or(LinkRefused::Unknown))
}

/// The team: its members, and invitations still open.
pub async fn list(state: &AppState) -> Result<Team, ApiError> {
    type Row = (i64, String, String, Option<String>, At, Option<String>);
    let rows: Vec<Row> = sqlx::query_as(
        "select id, email, role, event_ids, created_at, totp_secret from staff
         where removed_at is null order by email",
    )
    .fetch_all(state.db.reader())
    .await?;
    let members = rows
        .into_iter()
        .filter_map(|(id, email, role, events, at, totp)| {
            Some(TeamMember {
                id,
                email,
                role: Role::parse(&role)?,
                event_ids: read_event_list(events.as_deref()),
                joined_at: rfc3339(at),
                two_step_set: totp.is_some(),
            })
        })
        .collect();
    let open: Vec<LinkRow> = sqlx::query_as(
        "select email, role, event_ids, created_by, expires_at, used_at from staff_link
         where kind = $1 and used_at is null and expires_at > $2 order by created_at",
    )
    .bind(INVITE)
    .bind(state.clock.now())
    .fetch_all(state.db.reader())
    .await?;
    Ok(Team {
        members,
        invitations: open.iter().filter_map(LinkRow::pending).collect(),
    })
}

/// Gives a member another role or other events. Nobody changes their own.
pub async fn change(
    state: &AppState,
    by: &Admin,
    person: i64,
    grant: &Grant,
) -> Result<TeamMember, ApiError> {
    if by.holder == Holder::Person(person) {
        return Err(refuse(state, by).await);
    }
    let scope = check_grant(state, by, grant.role, grant.event_ids.as_deref()).await?;
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let row: Option<(String, At, Option<String>)> = sqlx::query_as(
        "update staff set role = $1, event_ids = $2 where id = $3 and removed_at is null
         returning email, created_at, totp_secret",
    )
    .bind(grant.role.as_str())
    .bind(event_list(&scope))
    .bind(person)
    .fetch_optional(&mut *tx)
    .await?;
    let (email, joined, totp) = row.ok_or(ApiError::NotFound("team member"))?;
    let detail = Detail::TeamRoleChanged {
        email: email.clone(),
        role: grant.role,
    };
    audit::record(&mut tx, &Entry::about_team(by, "team_role", &detail), now).await?;
    db::commit(tx).await?;
    Ok(TeamMember {
        id: person,
        email,
        role: grant.role,
        event_ids: scope.to_list(),
        joined_at: rfc3339(joined),
        two_step_set: totp.is_some(),
    })
}

/// Takes a member off the team: their sessions and the keys they made
/// stop at once. Nobody removes themselves (an owner cannot lock the team
/// out by mistake; another owner, or the bootstrap password, can).
pub async fn remove(state: &AppState, by: &Admin, person: i64) -> Result<(), ApiError> {
    if by.holder == Holder::Person(person) {
        return Err(refuse(state, by).await);
    }
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let row: Option<(String, String)> = sqlx::query_as(
        "update staff set removed_at = $1, generation = generation + 1
         where id = $2 and removed_at is null
         returning email, role",
    )
    .bind(now)
    .bind(person)
    .fetch_optional(&mut *tx)
    .await?;
    let (email, role) = row.ok_or(ApiError::NotFound("team member"))?;
    // An owner removed by a manager cannot happen (Team is an owner's);
    // still, nobody takes off somebody with more than they have.
    if Role::parse(&role).is_some_and(|role| {
        Permission::ALL
            .into_iter()
            .any(|p| allows(role, p) && !allows(by.role, p))
    }) {
        drop(tx);
        return Err(refuse(state, by).await);
    }
    sqlx::query(
        "update api_key set revoked_at = $1 where made_by_person = $2 and revoked_at is null",
    )
    .bind(now)
    .bind(person)
    .execute(&mut *tx)
    .await?;
    let detail = Detail::TeamRemoved { email };
    audit::record(&mut tx, &Entry::about_team(by, "team_remove", &detail), now).await?;
    db::commit(tx).await?;
    Ok(())
}

/// A grant's events as stored: `None` for every event, else a JSON list.
pub fn event_list(scope: &EventScope) -> Option<String> {
    scope
        .to_list()
        .map(|ids| serde_json::to_string(&ids).unwrap_or_else(|_| "[]".into()))
}

/// A stored list of events. Unreadable text reaches no event (never all).
pub fn read_event_list(stored: Option<&str>) -> Option<Vec<EventId>> {
    stored.map(|text| serde_json::from_str(text).unwrap_or_default())
}

fn base_url(state: &AppState) -> &str {
    state
        .payments
        .settings
        .public_base_url
        .trim_end_matches('/')
}

/// Marks a link used, if it may still be: one of two browsers opening it at
/// once gets it.
async fn take_link(
    tx: &mut db::Tx,
    token: &str,
    kind: &str,
    now: At,
) -> Result<Option<LinkRow>, sqlx::Error> {
    sqlx::query_as(
        "update staff_link set used_at = $1
         where token_sha256 = $2 and kind = $3 and used_at is null and expires_at > $1
         returning email, role, event_ids, created_by, expires_at, used_at",
    )
    .bind(now)
    .bind(sha256_hex(token))
    .bind(kind)
    .fetch_optional(&mut **tx)
    .await
}

/// Why a link could not be taken (after `take_link` found it unusable).
async fn refusal(state: &AppState, token: &str) -> Result<LinkRefused, ApiError> {
    let row: Option<(At, Option<At>)> =
        sqlx::query_as("select expires_at, used_at from staff_link where token_sha256 = $1")
            .bind(sha256_hex(token))
            .fetch_optional(state.db.writer())
            .await?;
    Ok(match row {
        None => LinkRefused::Unknown,
        Some((_, Some(_))) => LinkRefused::Used,
        Some(_) => LinkRefused::Expired,
    })
}

#[derive(sqlx::FromRow)]
struct LinkRow {
    email: String,
    role: Option<String>,
    event_ids: Option<String>,
    created_by: String,
    expires_at: At,
    used_at: Option<At>,
}

impl LinkRow {
    fn pending(&self) -> Option<PendingInvitation> {
        Some(PendingInvitation {
            email: self.email.clone(),
            role: Role::parse(self.role.as_deref()?)?,
            event_ids: read_event_list(self.event_ids.as_deref()),
            invited_by: self.created_by.clone(),
            expires_at: rfc3339(self.expires_at),
        })
    }
}
