//! `holdfast-bench`: Holdfast measured over real HTTP on 127.0.0.1.
//!
//!     holdfast-bench [DATABASE_URL]              throughput next to the machine's limits
//!     holdfast-bench pages [DATABASE_URL]        what a browser fetches, next to /healthz
//!     holdfast-bench claims [DATABASE_URL]       holds as they pile up on a 44,000-seat event
//!     holdfast-bench best [DATABASE_URL]         1,000 best-available requests at once
//!     holdfast-bench simulate --targets URL,...  the on-sale simulator (see simulate/)
//!     holdfast-bench rebooking --targets URL,... a cancelled sailing's 3,000 bookings moved
//!     holdfast-bench sse-memory URL PID [N]      a server's memory with N SSE clients
//!     holdfast-bench stadium-event DATABASE_URL  adds a 50,000-seat event, prints its id
//!
//! Run it from a release build; `scripts/bench.sh` runs all of it, with
//! pgbench on the same SQL transaction beside it.

mod best;
mod browser;
mod claims;
mod durable_loop;
mod queue;
mod rebooking;
mod rotating;
mod simulate;
mod sse_memory;
mod stadium;
mod stats;
mod throughput;
mod turns;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ok = match args.first().map(String::as_str) {
        Some("simulate") => simulate::main(&args[1..]).await,
        Some("stadium-event") => stadium::main(&args[1..]).await,
        Some("rebooking") => rebooking::main(&args[1..]).await,
        Some("sse-memory") => sse_memory::main(&args[1..]).await,
        Some("claims") => claims::main(args.get(1).cloned()).await,
        Some("best") => best::main(args.get(1).cloned()).await,
        Some("pages") => throughput::pages(args.get(1).cloned()).await,
        _ => throughput::main(args.first().cloned()).await,
    };
    if !ok {
        std::process::exit(1);
    }
}
