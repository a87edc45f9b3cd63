//! How every live stream ends when its instance stops: at once, with a
//! last word (`retry: 1000`) telling the browser's EventSource to come back
//! in a second — through the proxy, to an instance that stays. Without it a
//! stream would hold its connection open and the stop would wait on it.

use std::convert::Infallible;
use std::time::Duration;

use axum::response::sse::Event;
use futures::stream::{self, Stream, StreamExt};
use holdfast_core::platform::stopping::Stopping;

/// How soon a browser reconnects after its instance stopped.
pub const RECONNECT_AFTER: Duration = Duration::from_secs(1);

/// `events`, ended when the instance begins to stop, then the last word.
pub fn until_stopping<S>(
    stopping: Stopping,
    events: S,
) -> impl Stream<Item = Result<Event, Infallible>> + Send
where
    S: Stream<Item = Result<Event, Infallible>> + Send + 'static,
{
    let stopped = async move { stopping.wait().await };
    events
        .take_until(Box::pin(stopped))
        .chain(stream::once(async {
            Ok(Event::default()
                .retry(RECONNECT_AFTER)
                .comment("this instance is stopping; reconnect"))
        }))
}
