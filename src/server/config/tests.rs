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

/// The contract's name (docs/API.md) sets the per-session limit; the older
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
    let relay = ("SMTP_URL", "smtps://relay.example");
    let sandbox = read(&[https, relay, ("PAYMENT_PROVIDER", "sandbox")]).unwrap();
    assert!(sandbox.production);
    for (name, value) in [
        ("STRIPE_WEBHOOK_SECRET", DEV_WEBHOOK_SECRET),
        ("TICKET_SECRET", DEV_TICKET_SECRET),
        ("ADMIN_TOKEN", TEST_ADMIN_TOKEN),
        ("ADMIN_PASSWORD", TEST_ADMIN_PASSWORD),
    ] {
        let refused = read(&[https, relay, ("PAYMENT_PROVIDER", "sandbox"), (name, value)]);
        assert!(refused.unwrap_err().contains(name));
        // Development takes them.
        assert!(read(&[(name, value)]).is_ok());
    }
}

/// Production needs an https address buyers use, a mail relay with TLS,
/// and sells no demo events unless told to.
#[test]
fn production_needs_https_a_tls_relay_and_no_demo_events() {
    let sandbox = ("PAYMENT_PROVIDER", "sandbox");
    let prod = ("HOLDFAST_ENV", "production");
    let relay = ("SMTP_URL", "smtp://relay.example:587?tls=required");
    let on_http = read(&[prod, sandbox, relay]).unwrap_err();
    assert!(on_http.contains("PUBLIC_BASE_URL"), "{on_http}");
    let https = ("PUBLIC_BASE_URL", "https://tickets.example");
    let no_relay = read(&[prod, sandbox, https]).unwrap_err();
    assert!(no_relay.contains("SMTP_URL"), "{no_relay}");
    for clear in [
        "smtp://relay.example:25",
        "smtp://relay.example?tls=opportunistic",
    ] {
        let refused = read(&[prod, sandbox, https, ("SMTP_URL", clear)]).unwrap_err();
        assert!(refused.contains("TLS"), "{clear}: {refused}");
    }
    let ok = read(&[prod, sandbox, https, relay]).unwrap();
    assert!(!ok.demo_data, "production sells no demo events by default");
    let asked = read(&[prod, sandbox, https, relay, ("DEMO_DATA", "1")]).unwrap();
    assert!(asked.demo_data);
    // Development keeps its demo events.
    assert!(read(&[]).unwrap().demo_data);
}

/// Behind a proxy, the one header named is read; a wrong name stops the
/// start.
#[test]
fn the_trusted_proxy_header_is_named_once() {
    let mut h = axum::http::HeaderMap::new();
    h.insert("x-forwarded-for", "203.0.113.5".parse().unwrap());
    h.insert("forwarded", "for=198.51.100.1".parse().unwrap());
    let peer: std::net::IpAddr = "10.1.1.1".parse().unwrap();
    let xff = read(&[("TRUSTED_PROXIES", "10.0.0.0/8")]).unwrap();
    assert_eq!(
        xff.trusted_proxies.client(peer, &h).0.to_string(),
        "203.0.113.5"
    );
    let rfc = read(&[
        ("TRUSTED_PROXIES", "10.0.0.0/8"),
        ("TRUSTED_PROXY_HEADER", "Forwarded"),
    ])
    .unwrap();
    assert_eq!(
        rfc.trusted_proxies.client(peer, &h).0.to_string(),
        "198.51.100.1"
    );
    let bad = read(&[("TRUSTED_PROXY_HEADER", "X-Real-IP")]).unwrap_err();
    assert!(bad.contains("TRUSTED_PROXY_HEADER"), "{bad}");
}
