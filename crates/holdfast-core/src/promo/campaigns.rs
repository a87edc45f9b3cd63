//! The admin's side of promo codes: create a campaign (with its codes) and
//! watch how it is used.

use super::store;
use super::{new_code, normalise};
use crate::admin::audit::{self, Entry};
use crate::admin::audit_detail::Detail;
use crate::admin::auth::Admin;
use crate::platform::clock::{rfc3339, At};
use crate::platform::db;
use crate::platform::db::is_unique_violation;
use crate::platform::error::FieldError;
use crate::{ApiError, AppState};
use holdfast_model::console::{CampaignKind, NewPromo, PromoCampaign};

/// The largest fixed discount (1,000,000.00 in the event's currency).
pub const MAX_AMOUNT_OFF_CENTS: i64 = 100_000_000;

/// At most this many codes in one pooled campaign.
pub const MAX_POOL: i64 = 10_000;

pub async fn create(
    state: &AppState,
    admin: &Admin,
    form: &NewPromo,
) -> Result<PromoCampaign, ApiError> {
    let (kind, codes) = check(form)?;
    let now = state.clock.now();
    // A wall-clock time is read in the event's zone (UTC for every event).
    let zone = match form.event_id {
        Some(event_id) => match crate::catalog::time_zone(state, event_id).await {
            Err(ApiError::NotFound(_)) => {
                return Err(ApiError::unprocessable("no such event", "eventId"))
            }
            zone => zone?,
        },
        None => "UTC".to_string(),
    };
    let window = window(form, &zone)?;
    let mut tx = state.db.begin().await?;
    let id = store::insert_campaign(&mut tx, form, kind, window, now).await?;
    if let Err(e) = store::insert_codes(&mut tx, id, &codes).await {
        return Err(if is_unique_violation(&e) {
            ApiError::unprocessable("this code already exists", "code")
        } else {
            e.into()
        });
    }
    let detail = Detail::PromoCreated {
        id,
        name: form.name.trim().to_string(),
        kind: kind.as_str().to_string(),
        codes: codes.len(),
    };
    audit::record(
        &mut tx,
        &Entry {
            by: admin,
            action: "promo_create",
            event_id: form.event_id,
            booking_id: None,
            detail: &detail,
        },
        now,
    )
    .await?;
    db::commit(tx).await?;
    one(state, id).await
}

/// The codes a valid form asks for, or every field's problem at once.
fn check(form: &NewPromo) -> Result<(CampaignKind, Vec<String>), ApiError> {
    let mut errors = Vec::new();
    let mut wrong = |field: &str, message: &str| {
        errors.push(FieldError {
            field: field.into(),
            message: message.into(),
        })
    };
    let name = form.name.trim();
    if name.is_empty() || name.len() > 100 {
        wrong("name", "a name of 1 to 100 characters");
    }
    if !(0..=100).contains(&form.percent_off) {
        wrong("percentOff", "a percentage from 0 to 100");
    }
    if !(0..=MAX_AMOUNT_OFF_CENTS).contains(&form.amount_off_cents) {
        wrong(
            "amountOffCents",
            "from 0 to 100,000,000 of the currency's smallest unit",
        );
    }
    if form.percent_off <= 0 && form.amount_off_cents <= 0 {
        wrong("percentOff", "a promo needs a percentage or an amount off");
    }
    let code = match &form.code {
        Some(c) => {
            let normal = normalise(c);
            if normal.is_none() {
                wrong("code", "3 to 64 letters, digits, '-' or '_'");
            }
            normal
        }
        None => None,
    };
    let kind = CampaignKind::parse(&form.kind);
    let codes = match kind {
        Some(CampaignKind::Single) => vec![code.unwrap_or_else(|| new_code("ONCE"))],
        Some(CampaignKind::Capped) => {
            if form.max_uses.is_none_or(|m| m <= 0) {
                wrong("maxUses", "a capped code needs maxUses of 1 or more");
            }
            vec![code.unwrap_or_else(|| new_code("CAP"))]
        }
        Some(CampaignKind::Pooled) => {
            let count = form.count.unwrap_or(0);
            if !(1..=MAX_POOL).contains(&count) {
                wrong("count", "a pool of 1 to 10,000 codes");
            }
            if form.code.is_some() {
                wrong("code", "pooled codes are made up by the server");
            }
            (0..count.clamp(0, MAX_POOL))
                .map(|_| new_code("POOL"))
                .collect()
        }
        None => {
            wrong("kind", "one of single, capped, pooled");
            Vec::new()
        }
    };
    match kind {
        Some(kind) if errors.is_empty() => Ok((kind, codes)),
        _ => Err(ApiError::FieldErrors(errors)),
    }
}

/// When the codes start and stop working, read in `zone`; the end after
/// the start.
fn window(form: &NewPromo, zone: &str) -> Result<(Option<At>, Option<At>), ApiError> {
    let read = |text: &Option<String>, field: &str| -> Result<Option<At>, FieldError> {
        match text.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => crate::event_time::parse_start(t, zone)
                .map(Some)
                .ok_or_else(|| FieldError {
                    field: field.into(),
                    message: "a date and time, such as 2027-06-01T10:00".into(),
                }),
        }
    };
    let starts = read(&form.starts_at, "startsAt");
    let ends = read(&form.ends_at, "endsAt");
    match (starts, ends) {
        (Ok(Some(s)), Ok(Some(e))) if e <= s => Err(ApiError::FieldErrors(vec![FieldError {
            field: "endsAt".into(),
            message: "the end must come after the start".into(),
        }])),
        (Ok(s), Ok(e)) => Ok((s, e)),
        (s, e) => Err(ApiError::FieldErrors(
            [s.err(), e.err()].into_iter().flatten().collect(),
        )),
    }
}

/// Both ends of a campaign's window, as the console shows them.
async fn with_window(state: &AppState, c: &mut PromoCampaign) -> Result<(), ApiError> {
    let (starts, ends) = store::window(&state.db, c.id).await?;
    c.starts_at = starts.map(rfc3339);
    c.ends_at = ends.map(rfc3339);
    Ok(())
}

/// Every campaign, newest first.
pub async fn list(state: &AppState) -> Result<Vec<PromoCampaign>, ApiError> {
    let mut campaigns = store::campaigns(&state.db, 200).await?;
    for c in campaigns.iter_mut() {
        c.codes = store::codes(&state.db, c.id, 100).await?;
        with_window(state, c).await?;
    }
    Ok(campaigns)
}

pub async fn one(state: &AppState, id: i64) -> Result<PromoCampaign, ApiError> {
    let mut campaign = store::campaign(&state.db, id)
        .await?
        .ok_or(ApiError::NotFound("promo campaign"))?;
    campaign.codes = store::codes(&state.db, id, 100).await?;
    with_window(state, &mut campaign).await?;
    Ok(campaign)
}
