-- A sign-in link remembers the browser that asked for it (a hash of a
-- value kept in that browser's session): opened there, the guest's
-- bookings come along; opened anywhere else, only if the person says so.
alter table sign_in_link add column asked_by text;

-- Sign-in links asked per address and per client, one row each, counted
-- by one conditional upsert: parallel asks queue on the row instead of all
-- counting before any of them writes.
create table sign_in_quota (
    scope text primary key,
    window_start bigint not null,
    asked bigint not null
);

-- A mail that kept failing is given up (a dead letter) instead of being
-- tried for ever; the cause of the last failure is kept for whoever
-- looks (a relay's refusal, not a database message).
alter table outbox add column failed_at bigint;
alter table outbox add column last_error text;
