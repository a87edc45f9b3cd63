//! What holds under load and faults, and at the edge: abuse, limits, cross-site writes, a lost commit, retries, the pool, jobs, start-up, migrations, the wire, the OpenAPI document.

mod abuse;
mod commit_lost;
mod faults;
mod jobs;
mod limits;
mod migrations;
mod model;
mod openapi;
mod pool;
mod posture;
mod protect;
mod retries;
mod startup;
mod wire;
