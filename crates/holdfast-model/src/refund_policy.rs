//! What a buyer gets back when they cancel a paid booking themselves: the
//! event's policy, set by its organizer. Pure: the amount for a moment
//! before the start, in minor units, or no cancellation at all.

use serde::{Deserialize, Serialize};

/// A full refund until `full_refund_until_days` before the start, then
/// `partial_refund_percent` until `partial_refund_until_days` before it,
/// then nothing (and no cancellation). Neither window: buyers cannot cancel.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RefundPolicy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_refund_until_days: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_refund_until_days: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_refund_percent: Option<i64>,
}

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

impl RefundPolicy {
    /// Whether buyers may cancel at all under this policy.
    pub fn allows_cancellation(&self) -> bool {
        self.full_refund_until_days.is_some() || self.partial_refund_until_days.is_some()
    }

    /// What the policy refunds of `paid_cents` when the buyer cancels at
    /// `now_ms` for an event starting at `starts_at_ms`; `None`: no
    /// cancellation (none allowed, or its last window has closed). `step`:
    /// the currency's charge step (`money::charge_step`), which a part is
    /// rounded down to, so the provider never refuses a refund of a
    /// booking already cancelled.
    pub fn refund_cents(
        &self,
        paid_cents: i64,
        step: i64,
        starts_at_ms: i64,
        now_ms: i64,
    ) -> Option<i64> {
        let open = |days: Option<i64>| days.is_some_and(|d| now_ms <= starts_at_ms - d * DAY_MS);
        if open(self.full_refund_until_days) {
            return Some(paid_cents);
        }
        if open(self.partial_refund_until_days) {
            let percent = self.partial_refund_percent.unwrap_or(0).clamp(0, 100);
            // Rounded down: never more than the policy says.
            let part = paid_cents * percent / 100;
            return Some(part - part.rem_euclid(step.max(1)));
        }
        None
    }

    /// The policy's windows for an event starting at `starts_at_ms`: until
    /// each end (ms), a cancellation gets back the percent; full first.
    pub fn windows(&self, starts_at_ms: i64) -> Vec<(i64, i64)> {
        let full = self.full_refund_until_days.map(|days| (100, days));
        let part = self
            .partial_refund_until_days
            .zip(self.partial_refund_percent)
            .map(|(days, percent)| (percent, days));
        full.into_iter()
            .chain(part)
            .map(|(percent, days)| (percent, starts_at_ms - days * DAY_MS))
            .collect()
    }

    /// A policy an organizer may set: days 0..=3650, a percent 1..=99 with
    /// its window, the partial window closing after the full one. The
    /// field at fault and why.
    pub fn check(&self) -> Result<(), (&'static str, &'static str)> {
        let days_ok = |d: Option<i64>| d.is_none_or(|d| (0..=3650).contains(&d));
        if !days_ok(self.full_refund_until_days) {
            return Err(("fullRefundUntilDays", "must be between 0 and 3650 days"));
        }
        if !days_ok(self.partial_refund_until_days) {
            return Err(("partialRefundUntilDays", "must be between 0 and 3650 days"));
        }
        match (self.partial_refund_until_days, self.partial_refund_percent) {
            (Some(_), None) => Err((
                "partialRefundPercent",
                "a partial refund window needs its percent",
            )),
            (None, Some(_)) => Err((
                "partialRefundUntilDays",
                "a partial refund percent needs its window",
            )),
            (Some(_), Some(p)) if !(1..=99).contains(&p) => {
                Err(("partialRefundPercent", "must be between 1 and 99"))
            }
            (Some(partial), _)
                if self
                    .full_refund_until_days
                    .is_some_and(|full| partial > full) =>
            {
                Err((
                    "partialRefundUntilDays",
                    "the partial window must close after the full one (fewer days before the start)",
                ))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: i64 = 100 * DAY_MS;

    fn policy() -> RefundPolicy {
        RefundPolicy {
            full_refund_until_days: Some(14),
            partial_refund_until_days: Some(2),
            partial_refund_percent: Some(50),
        }
    }

    #[test]
    fn full_then_partial_then_none() {
        let p = policy();
        assert_eq!(
            p.refund_cents(17_000, 1, START, START - 30 * DAY_MS),
            Some(17_000)
        );
        assert_eq!(
            p.refund_cents(17_000, 1, START, START - 14 * DAY_MS),
            Some(17_000)
        );
        assert_eq!(
            p.refund_cents(17_000, 1, START, START - 14 * DAY_MS + 1),
            Some(8_500)
        );
        assert_eq!(
            p.refund_cents(17_001, 1, START, START - 3 * DAY_MS),
            Some(8_500)
        );
        assert_eq!(
            p.refund_cents(17_000, 1, START, START - 2 * DAY_MS + 1),
            None
        );
        assert_eq!(
            RefundPolicy::default().refund_cents(17_000, 1, START, 0),
            None
        );
    }

    #[test]
    fn a_part_keeps_to_the_currencys_charge_steps() {
        let p = policy();
        let partial = START - 3 * DAY_MS;
        // 50 % of 17.015 KWD is 8.5075: Stripe takes 8.500, not 8.507.
        assert_eq!(p.refund_cents(17_015, 10, START, partial), Some(8_500));
        // 50 % of 12,345.00 HUF is 6,172.50: Stripe takes whole forints.
        assert_eq!(
            p.refund_cents(1_234_500, 100, START, partial),
            Some(617_200)
        );
        // In full: the whole amount, whatever the step.
        assert_eq!(
            p.refund_cents(17_015, 10, START, START - 30 * DAY_MS),
            Some(17_015)
        );
    }

    #[test]
    fn organizers_get_told_what_is_wrong() {
        assert!(policy().check().is_ok());
        assert!(RefundPolicy::default().check().is_ok());
        let mut p = policy();
        p.partial_refund_percent = Some(100);
        assert_eq!(p.check().unwrap_err().0, "partialRefundPercent");
        let mut p = policy();
        p.partial_refund_until_days = Some(20);
        assert_eq!(p.check().unwrap_err().0, "partialRefundUntilDays");
        let mut p = policy();
        p.full_refund_until_days = Some(-1);
        assert_eq!(p.check().unwrap_err().0, "fullRefundUntilDays");
    }
}
