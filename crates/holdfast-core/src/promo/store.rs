//! The only SQL that reads or writes promo campaigns, their codes and
//! their uses (`promo_campaign`, `promo_code`, `booking_promo`). The use
//! cases around it decide; this file knows the tables.

use crate::platform::clock::At;
use crate::platform::db::{Db, Tx};
use holdfast_model::console::{CampaignKind, NewPromo, PromoCampaign};
use holdfast_model::{BookingId, BookingStatus, BuyerId, EventId};

/// A campaign with how its codes are used: a capped code counts its uses,
/// the others their redeemed codes. (Its `codes` are read apart: `codes`.)
const CAMPAIGN_COLUMNS: &str = "c.id, c.name, c.kind, c.event_id, c.percent_off, c.amount_off_cents, c.max_uses,
     case when c.kind = 'capped' then c.uses
          else (select count(*) from promo_code p where p.campaign_id = c.id and p.redeemed_at is not null)
     end as redeemed,
     (select count(*) from promo_code p where p.campaign_id = c.id and p.holder is not null) as handed_out,
     (select count(*) from promo_code p where p.campaign_id = c.id) as code_count";

/// The campaign a code belongs to, as a claim needs it.
#[derive(sqlx::FromRow)]
pub struct CodeCampaign {
    pub campaign_id: i64,
    pub kind: CampaignKind,
    pub percent_off: i64,
    pub amount_off_cents: i64,
    /// The one event the code is for, if any.
    pub event_id: Option<EventId>,
    /// The buyer a pooled code was handed to.
    pub holder: Option<BuyerId>,
    /// When the campaign's codes start and stop working.
    pub starts_at: Option<At>,
    pub ends_at: Option<At>,
}

/// A use of a code by a booking.
#[derive(sqlx::FromRow)]
pub struct Use {
    pub code: String,
    pub campaign_id: i64,
    pub discount_cents: i64,
}

pub async fn insert_campaign(
    tx: &mut Tx,
    form: &NewPromo,
    kind: CampaignKind,
    (starts_at, ends_at): (Option<At>, Option<At>),
    now: At,
) -> Result<i64, sqlx::Error> {
    let (id,): (i64,) = sqlx::query_as(
        "insert into promo_campaign (event_id, name, kind, percent_off, amount_off_cents, max_uses, created_at,
                                     starts_at, ends_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id",
    )
    .bind(form.event_id)
    .bind(form.name.trim())
    .bind(kind.as_str())
    .bind(form.percent_off)
    .bind(form.amount_off_cents)
    .bind(if kind == CampaignKind::Capped {
        form.max_uses
    } else {
        None
    })
    .bind(now)
    .bind(starts_at)
    .bind(ends_at)
    .fetch_one(&mut **tx)
    .await?;
    Ok(id)
}

/// When a campaign's codes start and stop working.
pub async fn window(db: &Db, id: i64) -> Result<(Option<At>, Option<At>), sqlx::Error> {
    sqlx::query_as("select starts_at, ends_at from promo_campaign where id = $1")
        .bind(id)
        .fetch_one(db.reader())
        .await
}

/// The campaign's codes, 500 to a statement.
pub async fn insert_codes(
    tx: &mut Tx,
    campaign_id: i64,
    codes: &[String],
) -> Result<(), sqlx::Error> {
    for chunk in codes.chunks(500) {
        let values = (0..chunk.len())
            .map(|i| format!("(${}, $1)", i + 2))
            .collect::<Vec<_>>()
            .join(",");
        let sql = format!("insert into promo_code (code, campaign_id) values {values}");
        let mut q = sqlx::query(&sql).bind(campaign_id);
        for code in chunk {
            q = q.bind(code);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Every campaign, newest first.
pub async fn campaigns(db: &Db, limit: i64) -> Result<Vec<PromoCampaign>, sqlx::Error> {
    sqlx::query_as(&format!(
        "select {CAMPAIGN_COLUMNS} from promo_campaign c order by c.id desc limit $1"
    ))
    .bind(limit)
    .fetch_all(db.reader())
    .await
}

pub async fn campaign(db: &Db, id: i64) -> Result<Option<PromoCampaign>, sqlx::Error> {
    sqlx::query_as(&format!(
        "select {CAMPAIGN_COLUMNS} from promo_campaign c where c.id = $1"
    ))
    .bind(id)
    .fetch_optional(db.reader())
    .await
}

/// The campaign's first codes, in order.
pub async fn codes(db: &Db, campaign_id: i64, limit: i64) -> Result<Vec<String>, sqlx::Error> {
    let rows: Vec<(String,)> =
        sqlx::query_as("select code from promo_code where campaign_id = $1 order by code limit $2")
            .bind(campaign_id)
            .bind(limit)
            .fetch_all(db.reader())
            .await?;
    Ok(rows.into_iter().map(|r| r.0).collect())
}

/// The code a booking already uses, if any.
pub async fn use_of(tx: &mut Tx, booking_id: &BookingId) -> Result<Option<Use>, sqlx::Error> {
    sqlx::query_as(
        "select code, campaign_id, discount_cents from booking_promo where booking_id = $1",
    )
    .bind(booking_id)
    .fetch_optional(&mut **tx)
    .await
}

pub async fn campaign_of_code(
    tx: &mut Tx,
    code: &str,
) -> Result<Option<CodeCampaign>, sqlx::Error> {
    sqlx::query_as(
        "select c.id as campaign_id, c.kind, c.percent_off, c.amount_off_cents, c.event_id, p.holder,
                c.starts_at, c.ends_at
         from promo_code p join promo_campaign c on c.id = p.campaign_id where p.code = $1",
    )
    .bind(code)
    .fetch_optional(&mut **tx)
    .await
}

/// The claim: one use of the code for this booking, decided by the
/// database — a capped campaign by a conditional increment under its
/// CHECK, a single or pooled code by a conditional update on
/// `redeemed_at is null` (a pooled one only by its holder). `false` when
/// no use is left.
pub async fn take_use(
    tx: &mut Tx,
    campaign: &CodeCampaign,
    code: &str,
    booking_id: &BookingId,
    buyer: &BuyerId,
    now: At,
) -> Result<bool, sqlx::Error> {
    let claimed = if campaign.kind == CampaignKind::Capped {
        sqlx::query("update promo_campaign set uses = uses + 1 where id = $1 and uses < max_uses")
            .bind(campaign.campaign_id)
            .execute(&mut **tx)
            .await?
            .rows_affected()
    } else {
        sqlx::query(
            "update promo_code set redeemed_at = $2, redeemed_booking = $3
             where code = $1 and redeemed_at is null and ($4 = 0 or holder = $5)",
        )
        .bind(code)
        .bind(now)
        .bind(booking_id)
        .bind(i64::from(campaign.kind == CampaignKind::Pooled))
        .bind(buyer)
        .execute(&mut **tx)
        .await?
        .rows_affected()
    };
    Ok(claimed == 1)
}

/// Writes down which code the booking uses and what it took off.
pub async fn record_use(
    tx: &mut Tx,
    booking_id: &BookingId,
    used: &Use,
    now: At,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into booking_promo (booking_id, code, campaign_id, discount_cents, created_at)
         values ($1, $2, $3, $4, $5)",
    )
    .bind(booking_id)
    .bind(&used.code)
    .bind(used.campaign_id)
    .bind(used.discount_cents)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Takes the booking's use back: the code may be used again and a capped
/// campaign counts one use less. The use taken back, if there was one.
pub async fn return_use(tx: &mut Tx, booking_id: &BookingId) -> Result<Option<Use>, sqlx::Error> {
    let used: Option<Use> = sqlx::query_as(
        "delete from booking_promo where booking_id = $1 returning code, campaign_id, discount_cents",
    )
    .bind(booking_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(used) = used else {
        return Ok(None);
    };
    sqlx::query(
        "update promo_campaign set uses = uses - 1 where id = $1 and kind = 'capped' and uses > 0",
    )
    .bind(used.campaign_id)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "update promo_code set redeemed_at = null, redeemed_booking = null
         where code = $1 and redeemed_booking = $2",
    )
    .bind(&used.code)
    .bind(booking_id)
    .execute(&mut **tx)
    .await?;
    Ok(Some(used))
}

/// Locks the capped campaigns whose uses these bookings would give back, in
/// ascending id order, before one transaction ends several of them: every
/// such transaction then takes those rows in the same order, and none waits
/// on another in a circle. (SQLite has a single writer: nothing to order.)
pub async fn lock_campaigns_of(tx: &mut Tx, booking_ids: &[BookingId]) -> Result<(), sqlx::Error> {
    if booking_ids.len() < 2 || tx.backend_name().eq_ignore_ascii_case("sqlite") {
        return Ok(());
    }
    let list = (0..booking_ids.len())
        .map(|i| format!("${}", i + 1))
        .collect::<Vec<_>>()
        .join(",");
    let sql = format!(
        "select id from promo_campaign where kind = 'capped' and id in
           (select campaign_id from booking_promo where booking_id in ({list}))
         order by id for update"
    );
    let mut q = sqlx::query_as::<_, (i64,)>(&sql);
    for id in booking_ids {
        q = q.bind(id);
    }
    q.fetch_all(&mut **tx).await?;
    Ok(())
}

/// A pooled campaign whose code this buyer may be handed: one with a live
/// hold on the campaign's event.
pub async fn entitled_to_pool(
    db: &Db,
    campaign_id: i64,
    buyer: &BuyerId,
    now: At,
) -> Result<bool, sqlx::Error> {
    let entitled: Option<(i64,)> = sqlx::query_as(&format!(
        "select c.id from promo_campaign c
         where c.id = $1 and c.kind = 'pooled'
           and exists (select 1 from booking b
                       where b.buyer_id = $2 and b.status = {} and b.held_until > $3
                         and (c.event_id is null or b.event_id = c.event_id))",
        BookingStatus::Held.sql()
    ))
    .bind(campaign_id)
    .bind(buyer)
    .bind(now)
    .fetch_optional(db.reader())
    .await?;
    Ok(entitled.is_some())
}

/// Hands the buyer any free code of the pool (on Postgres `skip locked`
/// lets concurrent buyers take different ones instead of queueing on the
/// first); `None` when none was free to take this instant.
pub async fn hand_out(
    db: &Db,
    campaign_id: i64,
    buyer: &BuyerId,
    now: At,
) -> Result<Option<String>, sqlx::Error> {
    let handed: Option<(String,)> = sqlx::query_as(&format!(
        "update promo_code set holder = $2, handed_at = $3
         where code = (select code from promo_code where campaign_id = $1 and holder is null
                       order by code limit 1{})
           and holder is null
         returning code",
        db.skip_locked()
    ))
    .bind(campaign_id)
    .bind(buyer)
    .bind(now)
    .fetch_all(db.writer())
    .await?
    .into_iter()
    .next();
    Ok(handed.map(|h| h.0))
}

/// The code of the pool handed to this buyer, if any.
pub async fn held_by(
    db: &Db,
    buyer: &BuyerId,
    campaign_id: i64,
) -> Result<Option<String>, sqlx::Error> {
    let row: Option<(String,)> =
        sqlx::query_as("select code from promo_code where campaign_id = $1 and holder = $2")
            .bind(campaign_id)
            .bind(buyer)
            .fetch_optional(db.writer())
            .await?;
    Ok(row.map(|r| r.0))
}

pub async fn pool_is_empty(db: &Db, campaign_id: i64) -> Result<bool, sqlx::Error> {
    let (free,): (i64,) =
        sqlx::query_as("select count(*) from promo_code where campaign_id = $1 and holder is null")
            .bind(campaign_id)
            .fetch_one(db.writer())
            .await?;
    Ok(free == 0)
}
