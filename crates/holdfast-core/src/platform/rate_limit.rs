//! Abuse protection on the steps that claim seats or start payments: a
//! buyer (session) and a client address may each make so many attempts a
//! minute (GCRA token buckets from `governor`, in memory per instance).
//! Over the limit: 429 `RATE_LIMITED` with `Retry-After`, and nothing is
//! read or written. The console sign-in has its own, stricter throttle
//! (`admin::auth`).

use std::net::IpAddr;
use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::ApiError;
use holdfast_model::BuyerId;

pub struct RateLimits {
    per_buyer: Option<DefaultKeyedRateLimiter<String>>,
    per_address: Option<DefaultKeyedRateLimiter<IpAddr>>,
}

fn limiter<K: std::hash::Hash + Eq + Clone>(per_minute: u32) -> Option<DefaultKeyedRateLimiter<K>> {
    NonZeroU32::new(per_minute).map(|n| RateLimiter::keyed(Quota::per_minute(n)))
}

fn refused(not_until: governor::NotUntil<governor::clock::QuantaInstant>) -> ApiError {
    let wait = not_until.wait_time_from(DefaultClock::default().now());
    ApiError::RateLimited {
        retry_after_secs: wait.as_secs().max(1),
    }
}

impl RateLimits {
    /// Attempts a minute per buyer and per client address; 0 turns a limit off.
    pub fn new(per_buyer_per_minute: u32, per_address_per_minute: u32) -> RateLimits {
        RateLimits {
            per_buyer: limiter(per_buyer_per_minute),
            per_address: limiter(per_address_per_minute),
        }
    }

    pub fn off() -> RateLimits {
        RateLimits::new(0, 0)
    }

    /// One attempt by this buyer (a hold or a pay step).
    pub fn buyer_attempt(&self, buyer: &BuyerId) -> Result<(), ApiError> {
        match &self.per_buyer {
            Some(l) => l.check_key(&buyer.to_string()).map_err(refused),
            None => Ok(()),
        }
    }

    /// One attempt from this client address (any guarded step).
    pub fn address_attempt(&self, address: IpAddr) -> Result<(), ApiError> {
        match &self.per_address {
            Some(l) => l.check_key(&address).map_err(refused),
            None => Ok(()),
        }
    }

    /// Forgets buckets that are full again (keeps memory flat).
    pub fn tidy(&self) {
        if let Some(l) = &self.per_buyer {
            l.retain_recent();
        }
        if let Some(l) = &self.per_address {
            l.retain_recent();
        }
    }
}
