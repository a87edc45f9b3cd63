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
-- outbox and lands in the same mailbox.
alter table outbox alter column booking_id drop not null;
alter table mailbox alter column booking_id drop not null;
