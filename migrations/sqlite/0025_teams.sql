-- The organizer's team: people who sign in with their own address, each
-- with one role, for every event (event_ids null) or the events listed
-- (a JSON array of event ids). A removed person keeps their row, so the
-- audit log's names still mean someone. A session holds the generation
-- it was granted under; removing a person, or their coming back, moves it
-- on, so no earlier session counts again.
create table staff (
    id integer primary key,
    email text not null unique,
    role text not null,
    event_ids text,
    created_at bigint not null,
    removed_at bigint,
    generation bigint not null default 0
);

-- Links mailed to staff: an invitation (role and events chosen by an
-- owner) or a sign-in link. Only the token's SHA-256 is kept; each is
-- opened once, before it expires.
create table staff_link (
    token_sha256 text primary key,
    kind text not null,
    email text not null,
    role text,
    event_ids text,
    created_by text not null,
    created_at bigint not null,
    expires_at bigint not null,
    used_at bigint
);
create index staff_link_by_email on staff_link (email, created_at);

-- Keys of the admin API, each named, with one role and its events; only
-- the secret's SHA-256 is kept (it is shown once, when made). A key made
-- by a person of the team ends when they leave it (made_by_person).
create table api_key (
    id integer primary key,
    name text not null,
    role text not null,
    event_ids text,
    token_sha256 text not null unique,
    created_by text not null,
    created_at bigint not null,
    made_by_person bigint,
    revoked_at bigint
);

-- Where an admin action came from (the client's address).
alter table audit_log add column client text;
