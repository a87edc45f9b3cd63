-- The admin's credentials: an argon2 hash of the password and a SHA-256 of
-- the API token (a long random secret). One row.
create table admin_credential (
    id integer primary key check (id = 1),
    password_hash text not null,
    token_sha256 text not null,
    created_at bigint not null
);

-- Every admin action: who, what, on which booking or event, when.
create table audit_log (
    id integer primary key,
    actor text not null,
    action text not null,
    event_id bigint,
    booking_id text,
    detail text not null,
    created_at bigint not null
);
create index audit_by_event on audit_log (event_id, id);

-- When buyers may start holding seats (0: at once).
alter table event add column on_sale_at bigint not null default 0;
