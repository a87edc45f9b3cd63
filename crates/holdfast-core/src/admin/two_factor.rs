//! The second factor of the roles that move money. A person whose role
//! carries refunds or the team signs in with their mailed link, then with
//! their password and a code from their authenticator app (RFC 6238: six
//! digits, thirty-second steps, one step of drift either way) — or one of
//! their recovery codes. They set both at their first sign-in: the secret
//! is made here, shown as a QR code, and kept only once a code from it has
//! been read back. A code is taken once (`totp_last_step` moves forward
//! under a condition, so two requests racing with one code cannot both
//! pass); a recovery code is taken once likewise.

use totp_rs::{Algorithm, Secret, TOTP};

use super::access::{allows, Permission};
use super::secrets::{hash_password, random_secret, same_bytes, sha256_hex, verify_password};
use super::team::Member;
use crate::platform::clock::At;
use crate::platform::db::Db;
use crate::ApiError;
use holdfast_model::console::team::Role;

/// Digits of a code, and seconds of a step.
const DIGITS: usize = 6;
const STEP_SECONDS: u64 = 30;
/// Recovery codes made at enrolment.
const RECOVERY_CODES: usize = 10;
/// The shortest password a person may choose.
pub const MIN_PASSWORD: usize = 12;

/// Whether a role needs the second factor: those that move money or run
/// the team.
pub fn needed_by(role: Role) -> bool {
    allows(role, Permission::Refunds) || allows(role, Permission::Team)
}

/// A new authenticator secret (base32, 160 bits).
pub fn new_secret() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 20];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    match Secret::Raw(bytes.to_vec()).to_encoded() {
        Secret::Encoded(text) => text,
        Secret::Raw(_) => String::new(),
    }
}

/// What an authenticator app scans to add the account.
pub fn otpauth_uri(secret: &str, email: &str) -> String {
    let label = format!("Holdfast:{email}");
    format!(
        "otpauth://totp/{}?secret={secret}&issuer=Holdfast&algorithm=SHA1&digits={DIGITS}&period={STEP_SECONDS}",
        holdfast_model::percent::encode(&label)
    )
}

/// The time step `code` belongs to for `secret` at `now`, if it is one of
/// the current step's or a neighbour's.
pub fn step_of(secret: &str, code: &str, now: At) -> Option<i64> {
    let code = code.trim().replace(' ', "");
    if code.len() != DIGITS || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let bytes = Secret::Encoded(secret.to_string()).to_bytes().ok()?;
    let totp = TOTP::new(Algorithm::SHA1, DIGITS, 0, STEP_SECONDS, bytes).ok()?;
    let seconds = u64::try_from(now.ms() / 1000).ok()?;
    let step = seconds / STEP_SECONDS;
    [step.saturating_sub(1), step, step + 1]
        .into_iter()
        .find(|s| {
            let at = s * STEP_SECONDS;
            same_bytes(totp.generate(at).as_bytes(), code.as_bytes())
        })
        .and_then(|s| i64::try_from(s).ok())
}

/// The code an authenticator shows for `secret` at `now` (the tests' and
/// the benchmarks' authenticator).
pub fn code_at(secret: &str, now: At) -> Option<String> {
    let bytes = Secret::Encoded(secret.to_string()).to_bytes().ok()?;
    let totp = TOTP::new(Algorithm::SHA1, DIGITS, 0, STEP_SECONDS, bytes).ok()?;
    Some(totp.generate(u64::try_from(now.ms() / 1000).ok()?))
}

/// A member's second factor as stored.
pub struct Stored {
    pub password_hash: String,
    pub totp_secret: String,
}

/// The member's second factor, if they have set one.
pub async fn stored(db: &Db, member: Member) -> Result<Option<Stored>, ApiError> {
    let row: Option<(Option<String>, Option<String>)> =
        sqlx::query_as("select password_hash, totp_secret from staff where id = $1")
            .bind(member.person)
            .fetch_optional(db.writer())
            .await?;
    Ok(match row {
        Some((Some(password_hash), Some(totp_secret))) => Some(Stored {
            password_hash,
            totp_secret,
        }),
        _ => None,
    })
}

/// Sets the member's password and authenticator (a code from it read back
/// right), unless they had set them already; the recovery codes to show
/// once. `Forbidden` when the code is wrong.
pub async fn enrol(
    db: &Db,
    member: Member,
    secret: &str,
    password: &str,
    code: &str,
    now: At,
) -> Result<Vec<String>, ApiError> {
    if password.chars().count() < MIN_PASSWORD {
        return Err(ApiError::unprocessable(
            format!("a password of at least {MIN_PASSWORD} characters"),
            "password",
        ));
    }
    let step = step_of(secret, code, now).ok_or(ApiError::Forbidden)?;
    let codes: Vec<String> = (0..RECOVERY_CODES)
        .map(|_| random_secret()[..12].to_string())
        .collect();
    let hashes: Vec<String> = codes.iter().map(|c| sha256_hex(c)).collect();
    let password_hash = hash_password(password).map_err(|e| ApiError::Internal(e.into()))?;
    let set = sqlx::query(
        "update staff set password_hash = $1, totp_secret = $2, totp_last_step = $3,
           recovery_codes = $4
         where id = $5 and generation = $6 and removed_at is null and totp_secret is null",
    )
    .bind(password_hash)
    .bind(secret)
    .bind(step)
    .bind(serde_json::to_string(&hashes).unwrap_or_default())
    .bind(member.person)
    .bind(member.generation)
    .execute(db.writer())
    .await?
    .rows_affected();
    if set == 1 {
        Ok(codes)
    } else {
        Err(ApiError::InvalidState(
            "the second factor is set already: sign in with it".into(),
        ))
    }
}

/// Checks the member's password and code (or recovery code), taking the
/// code so it works once. `Forbidden` when either is wrong.
pub async fn check(
    db: &Db,
    member: Member,
    stored: &Stored,
    password: &str,
    code: &str,
    now: At,
) -> Result<(), ApiError> {
    let hash = stored.password_hash.clone();
    let given = password.to_string();
    let password_right = tokio::task::spawn_blocking(move || verify_password(&hash, &given))
        .await
        .map_err(ApiError::internal)?;
    if !password_right {
        return Err(ApiError::Forbidden);
    }
    if let Some(step) = step_of(&stored.totp_secret, code, now) {
        let taken = sqlx::query(
            "update staff set totp_last_step = $1
             where id = $2 and (totp_last_step is null or totp_last_step < $1)",
        )
        .bind(step)
        .bind(member.person)
        .execute(db.writer())
        .await?
        .rows_affected();
        return if taken == 1 {
            Ok(())
        } else {
            Err(ApiError::Forbidden)
        };
    }
    take_recovery_code(db, member, code).await
}

/// Uses up one recovery code, if `code` is one not used yet.
async fn take_recovery_code(db: &Db, member: Member, code: &str) -> Result<(), ApiError> {
    let row: Option<(Option<String>,)> =
        sqlx::query_as("select recovery_codes from staff where id = $1")
            .bind(member.person)
            .fetch_optional(db.writer())
            .await?;
    let Some((Some(stored),)) = row else {
        return Err(ApiError::Forbidden);
    };
    let hashes: Vec<String> = serde_json::from_str(&stored).unwrap_or_default();
    let given = sha256_hex(code.trim());
    if !hashes.contains(&given) {
        return Err(ApiError::Forbidden);
    }
    let left: Vec<&String> = hashes.iter().filter(|h| **h != given).collect();
    // Conditional on the list as read: of two requests with one code, one
    // changes it and the other finds it changed.
    let taken =
        sqlx::query("update staff set recovery_codes = $1 where id = $2 and recovery_codes = $3")
            .bind(serde_json::to_string(&left).unwrap_or_default())
            .bind(member.person)
            .bind(&stored)
            .execute(db.writer())
            .await?
            .rows_affected();
    if taken == 1 {
        Ok(())
    } else {
        Err(ApiError::Forbidden)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_6238_s_sha1_vectors() {
        // RFC 6238, appendix B: the ASCII key "12345678901234567890", the
        // last six digits of its eight.
        let secret = match Secret::Raw(b"12345678901234567890".to_vec()).to_encoded() {
            Secret::Encoded(s) => s,
            Secret::Raw(_) => unreachable!(),
        };
        for (seconds, eight) in [
            (59, "94287082"),
            (1111111109, "07081804"),
            (1234567890, "89005924"),
        ] {
            let at = At::from_ms(seconds * 1000);
            assert_eq!(code_at(&secret, at).unwrap(), eight[2..]);
            assert!(step_of(&secret, &eight[2..], at).is_some());
        }
    }

    #[test]
    fn a_code_works_one_step_either_side_and_no_further() {
        let secret = new_secret();
        let at = At::from_ms(1_700_000_000_000);
        let code = code_at(&secret, at).unwrap();
        assert!(step_of(&secret, &code, at + 30_000).is_some());
        assert!(step_of(&secret, &code, at - 30_000).is_some());
        assert!(step_of(&secret, &code, at + 95_000).is_none());
        assert!(step_of(&secret, "12345", at).is_none());
        assert!(step_of(&secret, "abcdef", at).is_none());
    }

    #[test]
    fn the_roles_that_move_money_need_it() {
        assert!(needed_by(Role::Owner));
        assert!(needed_by(Role::Manager));
        assert!(!needed_by(Role::BoxOffice));
        assert!(!needed_by(Role::Door));
        assert!(!needed_by(Role::ReadOnly));
    }
}
