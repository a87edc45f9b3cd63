//! The admin's side of promo codes: create a campaign (with its codes) and
//! watch how it is used.

use super::{new_code, normalise};
use crate::core::admin::audit::{self, Entry};
use crate::core::admin::audit_detail::Detail;
use crate::core::admin::auth::Admin;
use crate::core::platform::db::is_unique_violation;
use crate::core::platform::error::FieldError;
use crate::core::{ApiError, AppState};
use crate::model::console::{NewPromo, PromoCampaign};

/// The largest fixed discount (1,000,000.00 in the event's currency).
pub const MAX_AMOUNT_OFF_CENTS: i64 = 100_000_000;

/// At most this many codes in one pooled campaign.
pub const MAX_POOL: i64 = 10_000;

pub async fn create(
    state: &AppState,
    admin: &Admin,
    form: &NewPromo,
) -> Result<PromoCampaign, ApiError> {
    let codes = check(form)?;
    let now = state.clock.now_ms();
    let mut tx = state.db.begin().await?;
    if let Some(event_id) = form.event_id {
        let found: Option<(i64,)> = sqlx::query_as("select id from event where id = $1")
            .bind(event_id)
            .fetch_optional(&mut *tx)
            .await?;
        if found.is_none() {
            return Err(ApiError::unprocessable("no such event", "eventId"));
        }
    }
    let (id,): (i64,) = sqlx::query_as(
        "insert into promo_campaign (event_id, name, kind, percent_off, amount_off_cents, max_uses, created_at)
         values ($1, $2, $3, $4, $5, $6, $7) returning id",
    )
    .bind(form.event_id)
    .bind(form.name.trim())
    .bind(&form.kind)
    .bind(form.percent_off)
    .bind(form.amount_off_cents)
    .bind(if form.kind == "capped" { form.max_uses } else { None })
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    for chunk in codes.chunks(500) {
        let mut sql = String::from("insert into promo_code (code, campaign_id) values ");
        for i in 0..chunk.len() {
            if i > 0 {
                sql.push(',');
            }
            sql.push_str(&format!("(${}, $1)", i + 2));
        }
        let mut q = sqlx::query(&sql).bind(id);
        for code in chunk {
            q = q.bind(code);
        }
        if let Err(e) = q.execute(&mut *tx).await {
            return Err(if is_unique_violation(&e) {
                ApiError::unprocessable("this code already exists", "code")
            } else {
                e.into()
            });
        }
    }
    let detail = Detail::PromoCreated {
        id,
        name: form.name.trim().to_string(),
        kind: form.kind.clone(),
        codes: codes.len(),
    };
    audit::record(
        &mut tx,
        &Entry {
            actor: &admin.actor,
            action: "promo_create",
            event_id: form.event_id,
            booking_id: None,
            detail: &detail,
        },
        now,
    )
    .await?;
    tx.commit().await?;
    one(state, id).await
}

/// The codes a valid form asks for, or every field's problem at once.
fn check(form: &NewPromo) -> Result<Vec<String>, ApiError> {
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
    let codes = match form.kind.as_str() {
        "single" => vec![code.unwrap_or_else(|| new_code("ONCE"))],
        "capped" => {
            if form.max_uses.is_none_or(|m| m <= 0) {
                wrong("maxUses", "a capped code needs maxUses of 1 or more");
            }
            vec![code.unwrap_or_else(|| new_code("CAP"))]
        }
        "pooled" => {
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
        _ => {
            wrong("kind", "one of single, capped, pooled");
            Vec::new()
        }
    };
    if errors.is_empty() {
        Ok(codes)
    } else {
        Err(ApiError::FieldErrors(errors))
    }
}

type CampaignRow = (i64, String, String, Option<i64>, i64, i64, Option<i64>, i64);

const CAMPAIGN_COLUMNS: &str =
    "id, name, kind, event_id, percent_off, amount_off_cents, max_uses, uses";

/// Every campaign, newest first.
pub async fn list(state: &AppState) -> Result<Vec<PromoCampaign>, ApiError> {
    let rows: Vec<CampaignRow> = sqlx::query_as(&format!(
        "select {CAMPAIGN_COLUMNS} from promo_campaign order by id desc limit 200"
    ))
    .fetch_all(state.db.reader())
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(with_usage(state, row).await?);
    }
    Ok(out)
}

pub async fn one(state: &AppState, id: i64) -> Result<PromoCampaign, ApiError> {
    let row: Option<CampaignRow> = sqlx::query_as(&format!(
        "select {CAMPAIGN_COLUMNS} from promo_campaign where id = $1"
    ))
    .bind(id)
    .fetch_optional(state.db.reader())
    .await?;
    with_usage(state, row.ok_or(ApiError::NotFound("promo campaign"))?).await
}

async fn with_usage(state: &AppState, row: CampaignRow) -> Result<PromoCampaign, ApiError> {
    let (id, name, kind, event_id, percent_off, amount_off_cents, max_uses, uses) = row;
    let (count, redeemed, handed): (i64, i64, i64) = sqlx::query_as(
        "select count(*),
                cast(coalesce(sum(case when redeemed_at is not null then 1 else 0 end), 0) as bigint),
                cast(coalesce(sum(case when holder is not null then 1 else 0 end), 0) as bigint)
         from promo_code where campaign_id = $1",
    )
    .bind(id)
    .fetch_one(state.db.reader())
    .await?;
    let codes: Vec<(String,)> = sqlx::query_as(
        "select code from promo_code where campaign_id = $1 order by code limit 100",
    )
    .bind(id)
    .fetch_all(state.db.reader())
    .await?;
    Ok(PromoCampaign {
        id,
        name,
        redeemed: if kind == "capped" { uses } else { redeemed },
        kind,
        event_id,
        percent_off,
        amount_off_cents,
        max_uses,
        handed_out: handed,
        code_count: count,
        codes: codes.into_iter().map(|c| c.0).collect(),
    })
}
