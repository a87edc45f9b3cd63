//! Live streams (server-sent events) held open at once: so many per client
//! address and so many on the instance. Each open stream holds a slot; the
//! slot goes back when the stream ends (the client left, or the server
//! stopped). Past either cap a new stream is refused with 503
//! `TOO_MANY_STREAMS` and `Retry-After`, before anything is subscribed.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use super::metrics::SseClient;
use crate::ApiError;

pub struct StreamSlots {
    per_client: usize,
    total: usize,
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    total: usize,
    by_client: HashMap<Option<IpAddr>, usize>,
}

/// One open stream's place; dropping it gives the place back.
pub struct StreamSlot {
    slots: Arc<StreamSlots>,
    client: Option<IpAddr>,
    _counted: SseClient,
}

impl StreamSlots {
    /// `per_client` streams per client address, `total` on this instance
    /// (0: no cap).
    pub fn new(per_client: usize, total: usize) -> Arc<StreamSlots> {
        let cap = |n: usize| if n == 0 { usize::MAX } else { n };
        Arc::new(StreamSlots {
            per_client: cap(per_client),
            total: cap(total),
            open: Mutex::default(),
        })
    }

    /// A place for one more stream from `client`, or 503.
    pub fn take(self: &Arc<Self>, client: Option<IpAddr>) -> Result<StreamSlot, ApiError> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let mine = open.by_client.get(&client).copied().unwrap_or(0);
        if open.total >= self.total || mine >= self.per_client {
            crate::platform::metrics::stream_refused();
            return Err(ApiError::TooManyStreams);
        }
        open.total += 1;
        open.by_client.insert(client, mine + 1);
        Ok(StreamSlot {
            slots: self.clone(),
            client,
            _counted: SseClient::open(),
        })
    }

    /// Streams open now (all clients).
    pub fn open_now(&self) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).total
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.slots.open.lock().unwrap_or_else(|p| p.into_inner());
        open.total -= 1;
        if let Some(n) = open.by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                open.by_client.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_capped_per_client_and_in_total_and_given_back() {
        let slots = StreamSlots::new(2, 3);
        let a = Some("192.0.2.1".parse().unwrap());
        let b = Some("192.0.2.2".parse().unwrap());
        let first = slots.take(a).unwrap();
        let _second = slots.take(a).unwrap();
        assert!(matches!(slots.take(a), Err(ApiError::TooManyStreams)));
        let _third = slots.take(b).unwrap();
        assert!(matches!(slots.take(b), Err(ApiError::TooManyStreams)));
        drop(first);
        assert_eq!(slots.open_now(), 2);
        let _again = slots.take(b).unwrap();
        assert_eq!(slots.open_now(), 3);
    }
}
