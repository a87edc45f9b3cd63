//! Who is an admin: a password (argon2-hashed in the database) for the
//! console's sign-in, and a long random token (`Authorization: Bearer`) for
//! the admin API. When `ADMIN_PASSWORD` / `ADMIN_TOKEN` are unset at first
//! start, random ones are generated and printed once — by the one instance
//! whose insert created the credentials row.
//!
//! Wrong passwords answer 401 after a pause; more than `MAX_FAILURES` in a
//! minute from one client answer 429 until the minute is over. An attempt
//! is counted *before* its password is verified (and given back when it was
//! right), so a burst of parallel guesses gets no more verifications than
//! sequential ones would; and at most `VERIFY_SLOTS` argon2 verifications
//! (each ~19 MiB) run at once on an instance — an attempt that finds none
//! free within 2 s is answered 429. Wrong bearer tokens count as failures
//! of the same client too (429 past the limit), but the right token is
//! never refused for them.
//!
//! A console session holds a grant: until when, and under which credential
//! generation. Sessions holding one are never served from an instance's
//! cache (`session_store`), so signing out reaches every instance at once;
//! a new password moves the generation, which ends every grant (each
//! instance reads it at most `GENERATION_TTL` late).

use crate::platform::clock::At;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tower_sessions_core::Session;

pub use super::access::Admin;
use super::secrets::{hash_password, random_secret, same_bytes, sha256_hex, verify_password};
use super::{keys, team, two_factor};
use crate::platform::client_addr::ClientAddr;
use crate::platform::db::Db;
use crate::ApiError;

/// An admin session lasts this long from sign-in.
pub const SESSION_MS: i64 = 8 * 3600 * 1000;
/// Wrong credentials are answered after this pause.
pub const FAILURE_DELAY: Duration = Duration::from_millis(400);
const MAX_FAILURES: u32 = 5;
/// Password verifications running at once on one instance, and how long
/// an attempt waits for one before it is answered 429.
const VERIFY_SLOTS: usize = 4;
const SLOT_WAIT: Duration = Duration::from_secs(2);
const WINDOW: Duration = Duration::from_secs(60);
/// Where a console session keeps its grant.
pub const SESSION_KEY: &str = "admin_grant";
/// How long an instance trusts the credential generation it read.
const GENERATION_TTL: Duration = Duration::from_millis(500);

/// A signed-in console session's grant.
#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
struct Grant {
    until: At,
    generation: i64,
    /// A person of the team (`staff.id`), `generation` then being their
    /// membership's; `None`: the bootstrap password.
    #[serde(default)]
    person: Option<i64>,
    /// The person gave their second factor in this session (needed by the
    /// roles that move money: `two_factor::needed_by`).
    #[serde(default)]
    second_factor: bool,
}

pub struct AdminAuth {
    db: Db,
    token_sha256: String,
    failures: Mutex<HashMap<Option<IpAddr>, (u32, Instant)>>,
    verifying: tokio::sync::Semaphore,
    generation: Mutex<Option<(Instant, i64)>>,
}

/// Credentials generated at first start, to print once.
pub struct Generated {
    pub password: Option<String>,
    pub token: Option<String>,
}

impl AdminAuth {
    /// Loads (or creates) the credentials row, applying the configured
    /// password and token when given.
    pub async fn start(
        db: &Db,
        password: Option<&str>,
        token: Option<&str>,
        now_ms: At,
    ) -> Result<(AdminAuth, Option<Generated>), String> {
        let fail = |e: sqlx::Error| format!("admin credentials: {e}");
        let new_password = password.map_or_else(random_secret, str::to_string);
        let new_token = token.map_or_else(random_secret, str::to_string);
        let created = sqlx::query(
            "insert into admin_credential (id, password_hash, token_sha256, created_at)
             values (1, $1, $2, $3) on conflict (id) do nothing",
        )
        .bind(hash_password(&new_password)?)
        .bind(sha256_hex(&new_token))
        .bind(now_ms)
        .execute(db.writer())
        .await
        .map_err(fail)?
        .rows_affected()
            == 1;
        let generated = created.then(|| Generated {
            password: password.is_none().then(|| new_password.clone()),
            token: token.is_none().then(|| new_token.clone()),
        });
        if !created {
            if let Some(p) = password {
                let (stored,): (String,) =
                    sqlx::query_as("select password_hash from admin_credential where id = 1")
                        .fetch_one(db.reader())
                        .await
                        .map_err(fail)?;
                if !verify_password(&stored, p) {
                    // A new password signs every console session out.
                    sqlx::query(
                        "update admin_credential set password_hash = $1, generation = generation + 1
                         where id = 1",
                    )
                        .bind(hash_password(p)?)
                        .execute(db.writer())
                        .await
                        .map_err(fail)?;
                }
            }
            if let Some(t) = token {
                sqlx::query("update admin_credential set token_sha256 = $1 where id = 1")
                    .bind(sha256_hex(t))
                    .execute(db.writer())
                    .await
                    .map_err(fail)?;
            }
        }
        let (token_sha256,): (String,) =
            sqlx::query_as("select token_sha256 from admin_credential where id = 1")
                .fetch_one(db.writer())
                .await
                .map_err(fail)?;
        Ok((
            AdminAuth {
                db: db.clone(),
                token_sha256,
                failures: Mutex::default(),
                verifying: tokio::sync::Semaphore::new(VERIFY_SLOTS),
                generation: Mutex::default(),
            },
            generated.filter(|g| g.password.is_some() || g.token.is_some()),
        ))
    }

    /// Checks a sign-in password for a client; refuses early when the
    /// client failed too often, pauses before answering a wrong one.
    pub async fn check_password(
        &self,
        client: Option<IpAddr>,
        password: &str,
    ) -> Result<(), ApiError> {
        self.reserve_attempt(client)?;
        let slot = tokio::time::timeout(SLOT_WAIT, self.verifying.acquire()).await;
        let Ok(Ok(slot)) = slot else {
            self.give_back_attempt(client);
            return Err(ApiError::RateLimited {
                retry_after_secs: 1,
            });
        };
        let verified = self.verify(password).await;
        drop(slot);
        if !matches!(verified, Ok(false)) {
            // Right, or not decided (a database error): not a failure.
            self.give_back_attempt(client);
        }
        if verified? {
            return Ok(());
        }
        tokio::time::sleep(FAILURE_DELAY).await;
        // Wrong credentials, as docs/API.md's table has it: 403 (401 is for
        // none at all).
        Err(ApiError::Forbidden)
    }

    async fn verify(&self, password: &str) -> Result<bool, ApiError> {
        let (stored,): (String,) =
            sqlx::query_as("select password_hash from admin_credential where id = 1")
                .fetch_one(self.db.reader())
                .await?;
        let password = password.to_string();
        tokio::task::spawn_blocking(move || verify_password(&stored, &password))
            .await
            .map_err(ApiError::internal)
    }

    /// Counts an attempt as a failure before it is verified: 429 when the
    /// client has used up its minute.
    fn reserve_attempt(&self, client: Option<IpAddr>) -> Result<(), ApiError> {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if failures.len() > 100_000 {
            failures.retain(|_, (_, since)| since.elapsed() < WINDOW);
        }
        let entry = failures.entry(client).or_insert((0, Instant::now()));
        if entry.1.elapsed() >= WINDOW {
            *entry = (0, Instant::now());
        }
        if entry.0 >= MAX_FAILURES {
            return Err(ApiError::RateLimited {
                retry_after_secs: (WINDOW.saturating_sub(entry.1.elapsed())).as_secs().max(1),
            });
        }
        entry.0 += 1;
        Ok(())
    }

    /// The attempt was not a failure after all.
    fn give_back_attempt(&self, client: Option<IpAddr>) {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(entry) = failures.get_mut(&client) {
            entry.0 = entry.0.saturating_sub(1);
        }
    }

    /// Checks a bearer token for a client. The right token always passes:
    /// it is a long random secret nobody guesses, and its holder must not
    /// be locked out by somebody else at the same address. A wrong one is
    /// counted — 403, and 429 once the client has failed too often this
    /// minute — so scanning for tokens is slowed and shows in the answers.
    pub fn check_token(&self, client: Option<IpAddr>, token: &str) -> Result<(), ApiError> {
        if self.token_matches(token) {
            return Ok(());
        }
        self.reserve_attempt(client)?;
        Err(ApiError::Forbidden)
    }

    fn token_matches(&self, token: &str) -> bool {
        same_bytes(sha256_hex(token).as_bytes(), self.token_sha256.as_bytes())
    }

    /// The credentials' generation, at most `GENERATION_TTL` old.
    async fn generation(&self) -> Result<i64, ApiError> {
        let fresh = |g: &Option<(Instant, i64)>| {
            g.filter(|(at, _)| at.elapsed() < GENERATION_TTL)
                .map(|(_, n)| n)
        };
        if let Some(n) = fresh(&self.generation.lock().unwrap_or_else(|p| p.into_inner())) {
            return Ok(n);
        }
        let (n,): (i64,) = sqlx::query_as("select generation from admin_credential where id = 1")
            .fetch_one(self.db.reader())
            .await?;
        *self.generation.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), n));
        Ok(n)
    }

    /// Marks the session as an admin's until `now + SESSION_MS` (a new
    /// session id, so a fixated one is worth nothing).
    pub async fn sign_in(&self, session: &Session, now_ms: At) -> Result<(), ApiError> {
        let grant = Grant {
            until: now_ms + SESSION_MS,
            generation: self.generation().await?,
            person: None,
            second_factor: false,
        };
        grant_session(session, grant).await
    }

    /// Marks the session as a person of the team's (they opened a link
    /// mailed to them).
    pub async fn sign_in_person(
        &self,
        session: &Session,
        member: team::Member,
        now_ms: At,
    ) -> Result<(), ApiError> {
        let grant = Grant {
            until: now_ms + SESSION_MS,
            generation: member.generation,
            person: Some(member.person),
            second_factor: false,
        };
        grant_session(session, grant).await
    }

    /// The member a session belongs to who still owes their second factor
    /// (their role needs it, this session has not had it).
    pub async fn owing_second_factor(
        &self,
        session: &Session,
        now: At,
    ) -> Result<Option<(team::Member, Admin)>, ApiError> {
        let Ok(Some(grant)) = session.get::<Grant>(SESSION_KEY).await else {
            return Ok(None);
        };
        let Some(person) = grant
            .person
            .filter(|_| grant.until > now && !grant.second_factor)
        else {
            return Ok(None);
        };
        let member = team::Member {
            person,
            generation: grant.generation,
        };
        Ok(team::member_admin(&self.db, member, None)
            .await?
            .filter(|admin| two_factor::needed_by(admin.role))
            .map(|admin| (member, admin)))
    }

    /// Checks a member's password and code (or recovery code), counted per
    /// client like console passwords (5 wrong a minute, then 429); right,
    /// the session has its second factor (under a new session id).
    pub async fn give_second_factor(
        &self,
        session: &Session,
        client: Option<IpAddr>,
        member: team::Member,
        password: &str,
        code: &str,
        now: At,
    ) -> Result<(), ApiError> {
        let Some(stored) = two_factor::stored(&self.db, member).await? else {
            return Err(ApiError::InvalidState("no second factor is set yet".into()));
        };
        self.reserve_attempt(client)?;
        let slot = tokio::time::timeout(SLOT_WAIT, self.verifying.acquire()).await;
        let Ok(Ok(slot)) = slot else {
            self.give_back_attempt(client);
            return Err(ApiError::RateLimited {
                retry_after_secs: 1,
            });
        };
        let checked = two_factor::check(&self.db, member, &stored, password, code, now).await;
        drop(slot);
        match checked {
            Ok(()) => {
                self.give_back_attempt(client);
                self.second_factor_given(session).await
            }
            Err(ApiError::Forbidden) => {
                tokio::time::sleep(FAILURE_DELAY).await;
                Err(ApiError::Forbidden)
            }
            Err(other) => {
                self.give_back_attempt(client);
                Err(other)
            }
        }
    }

    /// Counts a second-factor attempt of a client that fails elsewhere (a
    /// wrong code at enrolment), like a wrong password.
    pub fn count_failure(&self, client: Option<IpAddr>) -> Result<(), ApiError> {
        self.reserve_attempt(client)
    }

    /// The counted attempt was no failure after all.
    pub fn forget_failure(&self, client: Option<IpAddr>) {
        self.give_back_attempt(client);
    }

    /// Marks the session's grant as having had its second factor.
    pub async fn second_factor_given(&self, session: &Session) -> Result<(), ApiError> {
        let Ok(Some(mut grant)) = session.get::<Grant>(SESSION_KEY).await else {
            return Err(ApiError::Unauthorized);
        };
        grant.second_factor = true;
        grant_session(session, grant).await
    }

    /// Whether this session is a signed-in admin's now.
    pub async fn session_is_admin(&self, session: &Session, now_ms: At) -> bool {
        matches!(self.session_admin(session, now_ms, None).await, Ok(Some(_)))
    }
}

/// A new session id (a fixated one is worth nothing) holding `grant`.
async fn grant_session(session: &Session, grant: Grant) -> Result<(), ApiError> {
    session.cycle_id().await.map_err(ApiError::internal)?;
    session
        .insert(SESSION_KEY, grant)
        .await
        .map_err(ApiError::internal)
}

pub async fn sign_out(session: &Session) -> Result<(), ApiError> {
    session
        .remove::<Grant>(SESSION_KEY)
        .await
        .map_err(ApiError::internal)?;
    Ok(())
}

impl AdminAuth {
    /// The admin a request is, from its `Authorization` header (the
    /// bootstrap token or an API key, counted against its client like a
    /// password when wrong) or else its console session; `Unauthorized`
    /// when neither is an admin's.
    pub async fn admin_of(
        &self,
        authorization: Option<&http::HeaderValue>,
        client: Option<ClientAddr>,
        session: &Session,
        now: At,
    ) -> Result<Admin, ApiError> {
        let address = client.map(|c| c.limit_key().to_string());
        if let Some(value) = authorization {
            let token = value
                .to_str()
                .ok()
                .and_then(bearer_token)
                .ok_or(ApiError::Unauthorized)?
                .trim();
            if self.token_matches(token) {
                return Ok(Admin::bootstrap("api-token", address));
            }
            if let Some(admin) = keys::holder(&self.db, &sha256_hex(token), address.clone()).await?
            {
                return Ok(admin);
            }
            self.reserve_attempt(client.map(ClientAddr::limit_key))?;
            return Err(ApiError::Forbidden);
        }
        self.session_admin(session, now, address)
            .await?
            .ok_or(ApiError::Unauthorized)
    }

    /// The admin a console session is now, if any: a person of the team
    /// while they are on it, the bootstrap owner under the current
    /// password's generation.
    pub async fn session_admin(
        &self,
        session: &Session,
        now: At,
        client: Option<String>,
    ) -> Result<Option<Admin>, ApiError> {
        let Ok(Some(grant)) = session.get::<Grant>(SESSION_KEY).await else {
            return Ok(None);
        };
        if grant.until <= now {
            return Ok(None);
        }
        match grant.person {
            // Read at every request: a person removed, or given another
            // role, is so on every instance at once.
            Some(person) => {
                let member = team::Member {
                    person,
                    generation: grant.generation,
                };
                // A role that moves money counts only once the session has
                // had the second factor.
                Ok(team::member_admin(&self.db, member, client)
                    .await?
                    .filter(|admin| grant.second_factor || !two_factor::needed_by(admin.role)))
            }
            None => Ok((self.generation().await? == grant.generation)
                .then(|| Admin::bootstrap("console", client))),
        }
    }
}

/// The token of an `Authorization: Bearer …` value; the scheme's name is
/// case-insensitive (RFC 9110, 11.1), so `bearer` and `BEARER` work too.
pub fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then_some(token)
}
