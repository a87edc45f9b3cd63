//! API keys: what integrations use instead of the bootstrap `ADMIN_TOKEN`.
//! Each is named, carries one role for every event or a list, and is shown
//! once; only its SHA-256 is stored. A request's key is looked up at every
//! request, so a revoked key (or the key of a person removed from the
//! team) stops working on every instance at once.

use holdfast_model::console::team::{ApiKeyView, CreatedApiKey, NewApiKey, Role};
use holdfast_model::EventId;

use super::access::{Admin, EventScope, Holder};
use super::audit::{self, Entry};
use super::audit_detail::Detail;
use super::secrets::{random_secret, sha256_hex};
use super::team::{check_grant, event_list, read_event_list};
use crate::platform::clock::{rfc3339, At};
use crate::platform::db::{self, Db};
use crate::{ApiError, AppState};

const MAX_NAME: usize = 80;

/// The admin a key's hash stands for, while the key works.
pub async fn holder(
    db: &Db,
    token_sha256: &str,
    client: Option<String>,
) -> Result<Option<Admin>, ApiError> {
    let row: Option<(i64, String, String, Option<String>)> = sqlx::query_as(
        "select id, name, role, event_ids from api_key
         where token_sha256 = $1 and revoked_at is null",
    )
    .bind(token_sha256)
    .fetch_optional(db.reader())
    .await?;
    let Some((id, name, role, events)) = row else {
        return Ok(None);
    };
    let Some(role) = Role::parse(&role) else {
        // A role this build does not know grants nothing.
        return Ok(None);
    };
    Ok(Some(Admin {
        actor: format!("key:{name}"),
        holder: Holder::Key(id),
        client,
        role,
        events: EventScope::from_list(read_event_list(events.as_deref())),
    }))
}

/// Makes a key; its secret is in the answer and nowhere else.
pub async fn create(
    state: &AppState,
    by: &Admin,
    new: &NewApiKey,
) -> Result<CreatedApiKey, ApiError> {
    let name = new.name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(ApiError::validation(
            "a key's name is 1 to 80 characters, on one line",
            "name",
        ));
    }
    let scope = check_grant(state, by, new.role, new.event_ids.as_deref()).await?;
    let secret = format!("hf_{}", random_secret());
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let (id,): (i64,) = sqlx::query_as(
        "insert into api_key (name, role, event_ids, token_sha256, created_by, created_at, made_by_person)
         values ($1, $2, $3, $4, $5, $6, $7) returning id",
    )
    .bind(name)
    .bind(new.role.as_str())
    .bind(event_list(&scope))
    .bind(sha256_hex(&secret))
    .bind(&by.actor)
    .bind(now)
    .bind(match by.holder {
        Holder::Person(person) => Some(person),
        _ => None,
    })
    .fetch_one(&mut *tx)
    .await?;
    let detail = Detail::ApiKeyCreated {
        name: name.to_string(),
        role: new.role,
    };
    audit::record(
        &mut tx,
        &Entry::about_team(by, "api_key_created", &detail),
        now,
    )
    .await?;
    db::commit(tx).await?;
    Ok(CreatedApiKey {
        key: view(id, name, new.role, scope.to_list(), &by.actor, now, None),
        secret,
    })
}

/// Every key, newest first (never a secret).
pub async fn list(db: &Db) -> Result<Vec<ApiKeyView>, ApiError> {
    let rows: Vec<KeyRow> = sqlx::query_as(&format!("{SELECT_KEYS} order by id desc"))
        .fetch_all(db.reader())
        .await?;
    Ok(rows.into_iter().filter_map(key_view).collect())
}

const SELECT_KEYS: &str =
    "select id, name, role, event_ids, created_by, created_at, revoked_at from api_key";

type KeyRow = (i64, String, String, Option<String>, String, At, Option<At>);

/// A stored key as listed; one of a role this build does not know is left
/// out.
fn key_view((id, name, role, events, by, at, revoked): KeyRow) -> Option<ApiKeyView> {
    let role = Role::parse(&role)?;
    Some(view(
        id,
        &name,
        role,
        read_event_list(events.as_deref()),
        &by,
        at,
        revoked,
    ))
}

/// Ends a key at once. Revoking one already revoked changes nothing.
pub async fn revoke(state: &AppState, by: &Admin, id: i64) -> Result<ApiKeyView, ApiError> {
    let now = state.clock.now();
    let mut tx = state.db.begin().await?;
    let revoked: Option<(String,)> = sqlx::query_as(
        "update api_key set revoked_at = $1 where id = $2 and revoked_at is null returning name",
    )
    .bind(now)
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some((name,)) = revoked {
        let detail = Detail::ApiKeyRevoked { name };
        audit::record(
            &mut tx,
            &Entry::about_team(by, "api_key_revoked", &detail),
            now,
        )
        .await?;
    }
    db::commit(tx).await?;
    let row: Option<KeyRow> = sqlx::query_as(&format!("{SELECT_KEYS} where id = $1"))
        .bind(id)
        .fetch_optional(state.db.writer())
        .await?;
    row.and_then(key_view).ok_or(ApiError::NotFound("API key"))
}

fn view(
    id: i64,
    name: &str,
    role: Role,
    event_ids: Option<Vec<EventId>>,
    by: &str,
    at: At,
    revoked: Option<At>,
) -> ApiKeyView {
    ApiKeyView {
        id,
        name: name.to_string(),
        role,
        event_ids,
        created_by: by.to_string(),
        created_at: rfc3339(at),
        revoked_at: revoked.map(rfc3339),
    }
}
