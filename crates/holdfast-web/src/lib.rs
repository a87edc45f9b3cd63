//! The HTTP edge, shared by the server's routes (`src/server`) and the
//! pages' server functions (`app/src/server_fns`): who is asking
//! (`caller`), and a refusal of the core as an HTTP answer (`answer`). The
//! core below knows neither axum nor status codes; the routes above take
//! their callers and answers from here, so both speak the same way.

pub mod answer;
pub mod caller;

pub use answer::{status_of, HttpError};
pub use caller::Caller;
