//! This instance is stopping (SIGTERM from systemd, a deploy): it takes no
//! new connections, lets the requests in flight finish, ends its live
//! streams with a word to reconnect (the proxy sends them to an instance
//! that stays), and its job runner lets its leases go so another instance
//! takes the jobs over at once instead of when the leases run out.

use std::sync::Arc;

use tokio::sync::watch;

/// Whether the instance is stopping; every clone sees the same.
#[derive(Clone)]
pub struct Stopping(Arc<watch::Sender<bool>>);

impl Default for Stopping {
    fn default() -> Self {
        Stopping(Arc::new(watch::channel(false).0))
    }
}

impl Stopping {
    /// From now on the instance is stopping (once; again changes nothing).
    pub fn begin(&self) {
        self.0.send_replace(true);
    }

    pub fn is_stopping(&self) -> bool {
        *self.0.borrow()
    }

    /// Resolves once the instance is stopping (at once if it is).
    pub async fn wait(&self) {
        let mut rx = self.0.subscribe();
        let _ = rx.wait_for(|stopping| *stopping).await;
    }

    /// A receiver that changes when the instance begins to stop (the job
    /// runner's stop signal).
    pub fn subscribe(&self) -> watch::Receiver<bool> {
        self.0.subscribe()
    }
}
