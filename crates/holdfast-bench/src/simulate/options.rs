//! The simulator's command line: `--name value` pairs, each with a default
//! fit for the full-size run (100,000 buyers on the 10,000-seat arena).

use std::collections::HashMap;
use std::str::FromStr;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct Options {
    /// Server instances; buyers are spread over them and fail over.
    pub targets: Vec<String>,
    /// The database the instances share, for the final checks.
    pub database: String,
    pub event: i64,
    pub buyers: usize,
    /// Buyers in flight at once (each on its own session).
    pub concurrency: usize,
    /// Buyers arrive evenly over this many seconds.
    pub arrival: Duration,
    /// Hold attempts per buyer (the first pick, then suggestions).
    pub tries: usize,
    /// No new buyer starts after this; the run is bounded in time.
    pub time_limit: Duration,
    /// Shares of held buyers who abandon, pay late, get their webhook twice,
    /// get it delayed, are declined.
    pub abandon: f64,
    pub late: f64,
    pub twice: f64,
    pub delayed: f64,
    pub declined: f64,
    /// The servers' `HOLD_TTL_SECONDS`: late payers wait past it.
    pub hold_ttl: Duration,
    pub admin_token: String,
    /// Listen to every instance's seat stream and measure how soon a hold
    /// made on one instance shows on the others.
    pub live_check: bool,
    /// Fail the run on any 500 (a failover must answer 503 with
    /// `Retry-After`, never 500).
    pub forbid_500: bool,
    pub seed: u64,
    /// Open the event's waiting room at this many buyers a minute for the
    /// run (0: no room); every buyer queues first.
    pub waiting_room: i64,
    /// The share of buyers whose browser has nothing cached: they fetch
    /// the script, wasm, stylesheet and drawing after the page. The others
    /// opened the page before the sale (as on-sale buyers wait on it) and
    /// fetch the page and the status letters only.
    pub cold_cache: f64,
}

impl Options {
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut named: HashMap<String, String> = HashMap::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let name = a
                .strip_prefix("--")
                .ok_or_else(|| format!("unexpected argument {a}"))?;
            if name == "live-check" || name == "forbid-500" {
                named.insert(name.into(), "true".into());
                continue;
            }
            let value = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
            named.insert(name.into(), value.clone());
        }
        let get = |name: &str| named.get(name).cloned();
        let targets: Vec<String> = get("targets")
            .ok_or("--targets URL[,URL...] is required")?
            .split(',')
            .map(|t| t.trim_end_matches('/').to_string())
            .collect();
        let opts = Options {
            targets,
            database: get("database").ok_or("--database URL is required")?,
            event: num(&named, "event", 1)?,
            buyers: num(&named, "buyers", 100_000)?,
            concurrency: num(&named, "concurrency", 256)?,
            arrival: Duration::from_secs_f64(num(&named, "arrival", 1.0)?),
            tries: num(&named, "tries", 3)?,
            time_limit: Duration::from_secs_f64(num(&named, "time-limit", 300.0)?),
            abandon: num(&named, "abandon", 0.10)?,
            late: num(&named, "late", 0.03)?,
            twice: num(&named, "twice", 0.20)?,
            delayed: num(&named, "delayed", 0.05)?,
            declined: num(&named, "declined", 0.02)?,
            hold_ttl: Duration::from_secs_f64(num(&named, "hold-ttl", 300.0)?),
            admin_token: get("admin-token")
                .or_else(|| std::env::var("ADMIN_TOKEN").ok())
                .ok_or("--admin-token (or ADMIN_TOKEN) is required")?,
            live_check: named.contains_key("live-check"),
            forbid_500: named.contains_key("forbid-500"),
            seed: num(&named, "seed", 7)?,
            waiting_room: num(&named, "waiting-room", 0)?,
            cold_cache: num(&named, "cold-cache", 0.1)?,
        };
        if opts.concurrency == 0 || opts.tries == 0 {
            return Err("--concurrency and --tries must be at least 1".into());
        }
        Ok(opts)
    }
}

fn num<T: FromStr>(named: &HashMap<String, String>, name: &str, default: T) -> Result<T, String> {
    match named.get(name) {
        None => Ok(default),
        Some(v) => v
            .parse()
            .map_err(|_| format!("--{name}: {v:?} is not a number")),
    }
}
