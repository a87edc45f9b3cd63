//! Paying, verdicts, refunds, promo codes and mail.

mod mail;
mod money;
mod paying;
mod promos;
mod refunds;
mod stripe;
mod verdicts;
