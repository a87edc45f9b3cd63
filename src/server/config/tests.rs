//! The configuration read from tables of settings (no process environment:
//! the tests run in parallel).

use std::collections::HashMap;

use super::*;

fn read(pairs: &[(&str, &str)]) -> Result<Config, String> {
    let table: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Config::from_settings(&|name| table.get(name).cloned())
}

/// The contract's name (API.md) sets the per-session limit; the older
/// name still works where the new one is absent; TRUSTED_PROXIES is
/// read and checked.
#[test]
fn the_contracts_setting_names_are_honoured() {
    let old = read(&[("RATE_LIMIT_BUYER_PER_MINUTE", "33")]).unwrap();
    assert_eq!(old.rate_limit_buyer_per_minute, 33);
    let both = read(&[
        ("RATE_LIMIT_BUYER_PER_MINUTE", "33"),
        ("RATE_LIMIT_SESSION_PER_MINUTE", "7"),
    ]);
    assert_eq!(both.unwrap().rate_limit_buyer_per_minute, 7);
    let trusted = read(&[("TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.1")])
        .unwrap()
        .trusted_proxies;
    let headers = {
        let mut h = axum::http::HeaderMap::new();
        h.insert("x-forwarded-for", "203.0.113.5".parse().unwrap());
        h
    };
    assert_eq!(
        trusted.client("10.1.1.1".parse().unwrap(), &headers).0,
        "203.0.113.5".parse::<std::net::IpAddr>().unwrap()
    );
    let bad = read(&[("TRUSTED_PROXIES", "10.0.0.0/99")]).unwrap_err();
    assert!(bad.contains("TRUSTED_PROXIES"));
}

/// Unset secrets are not filled with constants: they stay unset (the
/// server generates them per deployment); weak ones are refused.
#[test]
fn secrets_have_no_usable_default_and_weak_ones_are_refused() {
    let config = read(&[]).unwrap();
    assert_eq!(config.ticket_secret, None);
    assert_eq!(config.stripe_webhook_secret, None);
    assert_eq!(config.admin_token, None);
    assert!(!config.production);
    for (name, value) in [
        ("ADMIN_TOKEN", "abc123"),
        ("ADMIN_PASSWORD", "hunter2"),
        ("TICKET_SECRET", "short"),
    ] {
        let refused = read(&[(name, value)]).unwrap_err();
        assert!(refused.starts_with(name), "{refused}");
    }
    assert!(read(&[("ADMIN_TOKEN", "a-token-of-16-ch")]).is_ok());
}

/// Production refuses the sandbox unless chosen and any development
/// secret, naming the setting; says what it is from https alone.
#[test]
fn production_refuses_development_settings() {
    let https = ("PUBLIC_BASE_URL", "https://tickets.example");
    let missing = read(&[https]).unwrap_err();
    assert!(missing.contains("PAYMENT_PROVIDER"), "{missing}");
    let env_only = read(&[("HOLDFAST_ENV", "production")]).unwrap_err();
    assert!(env_only.contains("PAYMENT_PROVIDER"), "{env_only}");
    assert!(read(&[("HOLDFAST_ENV", "staging")]).is_err());
    let sandbox = read(&[https, ("PAYMENT_PROVIDER", "sandbox")]).unwrap();
    assert!(sandbox.production);
    for (name, value) in [
        ("STRIPE_WEBHOOK_SECRET", DEV_WEBHOOK_SECRET),
        ("TICKET_SECRET", DEV_TICKET_SECRET),
        ("ADMIN_TOKEN", TEST_ADMIN_TOKEN),
        ("ADMIN_PASSWORD", TEST_ADMIN_PASSWORD),
    ] {
        let refused = read(&[https, ("PAYMENT_PROVIDER", "sandbox"), (name, value)]);
        assert!(refused.unwrap_err().contains(name));
        // Development takes them.
        assert!(read(&[(name, value)]).is_ok());
    }
}
