-- Cruises as they are sold. A ship has a plan (its places deck by deck); a
-- route is sailed by one ship; a sailing is one voyage, and an event (its
-- seat map, holds and payments are an event's), with an itinerary of port
-- calls and its own inventory: the plan's places copied into `seat`, the
-- cabins' shapes and occupancy into `cabin`.
create table ship (
    id integer primary key,
    slug text not null unique,
    name text not null,
    created_at bigint not null
);

-- A place on a deck: a cabin (sleeps min_guests..max_guests) or a seat (one
-- person). x, y is its centre; width along the ship, depth across it.
create table ship_place (
    id integer primary key,
    ship_id bigint not null references ship (id),
    deck text not null,
    kind text not null check (kind in ('cabin', 'seat')),
    corridor text not null,
    side text not null check (side in ('port', 'starboard', 'inside')),
    number bigint not null,
    category text not null,
    x double precision not null,
    y double precision not null,
    width double precision not null,
    depth double precision not null,
    min_guests bigint not null check (min_guests >= 1),
    max_guests bigint not null check (max_guests >= min_guests),
    accessible integer not null default 0 check (accessible in (0, 1)),
    unique (ship_id, deck, corridor, number)
);

create table route (
    id integer primary key,
    code text not null unique,
    name text not null,
    ship_id bigint not null references ship (id)
);

create table sailing (
    event_id bigint primary key references event (id),
    route_id bigint not null references route (id),
    ship_id bigint not null references ship (id),
    departs_at bigint not null,
    arrives_at bigint not null check (arrives_at > departs_at),
    cancelled_at bigint,
    cancel_reason text
);
create index sailing_by_route on sailing (route_id, departs_at);

create table port_call (
    event_id bigint not null references sailing (event_id),
    position bigint not null,
    port text not null,
    country text not null,
    arrives_at bigint,
    departs_at bigint,
    primary key (event_id, position)
);

-- A cabin of a sailing's inventory (a seat row of the sailing's event).
create table cabin (
    seat_id bigint primary key references seat (id),
    side text not null check (side in ('port', 'starboard', 'inside')),
    width double precision not null,
    depth double precision not null,
    min_guests bigint not null check (min_guests >= 1),
    max_guests bigint not null check (max_guests >= min_guests),
    accessible integer not null default 0 check (accessible in (0, 1))
);

-- A cabin's price is for up to two guests; each guest beyond two adds
-- the category's supplement.
alter table price_category add column extra_guest_cents bigint not null default 0 check (extra_guest_cents >= 0);

-- How many people a booked place is for: 1 for a seat, the party for a cabin.
alter table booking_seat add column guests bigint not null default 1 check (guests >= 1);

-- The manifest: every guest of a booked cabin or seat on a sailing, by name
-- and date of birth (YYYY-MM-DD), required before boarding.
create table booking_guest (
    booking_id text not null references booking (id),
    seat_id bigint not null,
    position bigint not null,
    full_name text not null,
    birth_date text not null,
    primary key (booking_id, seat_id, position)
);
