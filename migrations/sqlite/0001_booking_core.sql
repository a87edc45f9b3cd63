-- Holdfast schema (SQLite). Times are integers: milliseconds since the epoch,
-- compared with one `now` the application passes in (see core/clock.rs).
-- The Postgres folder has the same tables.

create table event (
    id integer primary key,
    slug text not null unique,
    name text not null,
    kind text not null check (kind in ('concert', 'cruise')),
    venue text not null,
    starts_at bigint not null,
    currency text not null,
    published integer not null default 1,
    created_at bigint not null
);

create table price_category (
    id integer primary key,
    event_id bigint not null references event (id),
    code text not null,
    name text not null,
    price_cents bigint not null check (price_cents >= 0),
    color text not null,
    unique (event_id, code)
);

-- `level` is a deck on a ship; null in an arena.
create table seat (
    id integer primary key,
    event_id bigint not null references event (id),
    category_id bigint not null references price_category (id),
    level text,
    section text not null,
    row_label text not null,
    number bigint not null,
    label text not null,
    x real not null,
    y real not null,
    unique (event_id, section, row_label, number)
);
create index seat_by_event on seat (event_id, id);

-- General admission: sold by count. Invariant 2 lives in the check.
create table ga_area (
    id integer primary key,
    event_id bigint not null references event (id),
    category_id bigint not null references price_category (id),
    name text not null,
    capacity bigint not null check (capacity >= 0),
    remaining bigint not null check (remaining >= 0 and remaining <= capacity)
);

create table booking (
    id text primary key,
    event_id bigint not null references event (id),
    buyer_id text not null,
    status text not null check (status in ('HELD', 'PAYMENT_PENDING', 'BOOKED', 'EXPIRED', 'CANCELLED', 'REFUNDED')),
    held_until bigint not null,
    amount_cents bigint not null,
    currency text not null,
    ga_area_id bigint references ga_area (id),
    ga_quantity bigint not null default 0,
    created_at bigint not null,
    updated_at bigint not null
);
create index booking_due on booking (status, held_until);
create index booking_by_buyer on booking (buyer_id, event_id);

-- A seat of a booking. `live` is 1 while the booking is HELD, PAYMENT_PENDING
-- or BOOKED and drops to 0 in the same transaction that ends it.
create table booking_seat (
    booking_id text not null references booking (id),
    seat_id bigint not null references seat (id),
    event_id bigint not null,
    price_cents bigint not null,
    live integer not null default 1 check (live in (0, 1)),
    primary key (booking_id, seat_id)
);
-- Invariant 1: at most one live booking per seat, enforced here.
create unique index booking_seat_one_live on booking_seat (seat_id) where live = 1;

-- Serialises a buyer's own concurrent holds on one event so the per-buyer
-- limit is counted under a lock (a row lock on Postgres; SQLite has one writer).
create table buyer_event (
    buyer_id text not null,
    event_id bigint not null,
    touched_at bigint not null,
    primary key (buyer_id, event_id)
);

-- Idempotency-Key records per buyer (IETF draft): the request fingerprint and
-- the final response, written in the transaction of the effect.
create table idempotency_key (
    buyer_id text not null,
    key text not null,
    fingerprint text not null,
    status_code bigint,
    response_body text,
    created_at bigint not null,
    primary key (buyer_id, key)
);
create index idempotency_key_age on idempotency_key (created_at);

-- tower-sessions records (the buyer is the session).
create table session (
    id text primary key,
    data blob not null,
    expiry_ms bigint not null
);
create index session_expiry on session (expiry_ms);
