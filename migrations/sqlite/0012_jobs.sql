-- The job runner (`core::platform::jobs`): one row per periodic job, shared
-- by every instance. A run holds the job's lease; `fence` grows by one at
-- every acquisition, and every write of a run checks it, so a holder that
-- stalled past its lease changes nothing once another instance took over.
create table job (
    name text primary key,
    -- `every N ms` or `cron <expression>`, as the instances' code says.
    schedule text not null default '',
    -- The usual gap between runs (for an interval, the interval).
    every_ms integer not null,
    next_run_at integer not null default 0,
    -- The run under way: who holds it, with which fence, since when, and
    -- until when the lease lasts unless a heartbeat moves it.
    holder text,
    fence integer not null default 0,
    started_at integer,
    heartbeat_at integer,
    lease_until integer not null default 0
);

-- One row per finished run, and one per run the reaper found abandoned.
create table job_run (
    id integer primary key,
    job text not null references job (name),
    fence integer not null,
    instance text not null,
    started_at integer not null,
    ended_at integer not null,
    -- ok, failed or abandoned (the holder stopped beating).
    outcome text not null,
    done integer not null default 0,
    error text
);
create index job_run_by_job on job_run (job, id);
