//! A server's memory with many seat-stream clients connected: opens N SSE
//! connections to `URL` and reads the resident set of process `PID` before
//! and after.
//!
//!     holdfast-bench sse-memory http://127.0.0.1:3000 PID [N=1000] [EVENT=1]

use std::time::Duration;

pub async fn main(args: &[String]) -> bool {
    let (Some(base), Some(pid)) = (args.first(), args.get(1)) else {
        eprintln!("usage: holdfast-bench sse-memory URL PID [N] [EVENT]");
        return false;
    };
    let n: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(1000);
    let event: i64 = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(1);
    let before = rss_kib(pid);
    let mut open = Vec::new();
    for _ in 0..n {
        // One client each: every stream is its own TCP connection.
        let http = reqwest::Client::new();
        match http
            .get(format!("{base}/api/events/{event}/seats/stream"))
            .send()
            .await
        {
            Ok(r) if r.status().is_success() => open.push(r),
            Ok(r) => {
                eprintln!("stream answered {}", r.status());
                return false;
            }
            Err(e) => {
                eprintln!("stream failed: {e}");
                return false;
            }
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = rss_kib(pid);
    let metrics = reqwest::get(format!("{base}/metrics"))
        .await
        .ok()
        .map(|r| r.text());
    let clients = match metrics {
        Some(t) => t
            .await
            .unwrap_or_default()
            .lines()
            .find(|l| l.starts_with("holdfast_sse_clients"))
            .map(str::to_string)
            .unwrap_or_default(),
        None => String::new(),
    };
    println!(
        "server memory: {:.1} MiB RSS idle, {:.1} MiB with {} SSE clients connected ({clients})",
        before as f64 / 1024.0,
        after as f64 / 1024.0,
        open.len()
    );
    drop(open);
    after < 150 * 1024
}

/// VmRSS of a process, in KiB (0 when unreadable).
fn rss_kib(pid: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}
