-- Buyers who come back. An account is an email address with the buyer id
-- every session signed in to it shares (so a buyer's limit and lock are the
-- account's); sign-in links are single-use and stored hashed.
create table account (
    email text primary key,
    buyer_id text not null unique,
    created_at bigint not null
);

create table sign_in_link (
    token_hash text primary key,
    email text not null,
    created_at bigint not null,
    expires_at bigint not null,
    used_at bigint,
    -- The client address that asked (per-address and per-client limits).
    requested_from text
);
create index sign_in_link_by_email on sign_in_link (email, created_at);
create index sign_in_link_by_client on sign_in_link (requested_from, created_at);

-- A booking paid with an address belongs to that address's account too.
create index payment_by_email on payment (lower(customer_email));

-- The event's cancellation policy: a full refund until `refund_full_days`
-- before the start, `refund_partial_percent` until `refund_partial_days`;
-- both null: buyers cannot cancel.
alter table event add column refund_full_days bigint;
alter table event add column refund_partial_days bigint;
alter table event add column refund_partial_percent bigint;

-- Mail that belongs to no booking (sign-in links) leaves through the same
-- outbox and lands in the same mailbox: `booking_id` may be null (SQLite
-- changes a column's constraint by copying the table).
create table outbox_new (
    id integer primary key,
    kind text not null check (kind in ('email', 'refund')),
    booking_id text,
    dedupe_key text not null unique,
    payload text not null,
    attempts bigint not null default 0,
    next_attempt_at bigint not null,
    lease_until bigint not null default 0,
    delivered_at bigint,
    created_at bigint not null,
    sending_at integer
);
insert into outbox_new (id, kind, booking_id, dedupe_key, payload, attempts, next_attempt_at,
                        lease_until, delivered_at, created_at, sending_at)
    select id, kind, booking_id, dedupe_key, payload, attempts, next_attempt_at,
           lease_until, delivered_at, created_at, sending_at from outbox;
drop table outbox;
alter table outbox_new rename to outbox;
create index outbox_due on outbox (delivered_at, next_attempt_at);

create table mailbox_new (
    id integer primary key,
    dedupe_key text not null unique,
    booking_id text,
    recipient text not null,
    subject text not null,
    body text not null,
    created_at bigint not null,
    channel text not null default 'mailbox'
);
insert into mailbox_new (id, dedupe_key, booking_id, recipient, subject, body, created_at, channel)
    select id, dedupe_key, booking_id, recipient, subject, body, created_at, channel from mailbox;
drop table mailbox;
alter table mailbox_new rename to mailbox;
