-- A cancelled sailing's bookings move to the route's next sailing
-- (`core::sailing::rebooking`): one row per booking and sailing it was
-- moved from, inserted in the transaction of the move, so a booking is
-- moved at most once however often the job runs or is resumed.
create table rebooking (
    booking_id text not null references booking (id),
    from_event_id bigint not null references sailing (event_id),
    -- Where the job put it; null when nothing had room (a refund is offered).
    to_event_id bigint references sailing (event_id),
    moved_at bigint not null,
    -- The job's fence when it moved the booking.
    fence bigint not null,
    -- The buyer's answer: kept, another sailing, or refunded; null until then.
    answer text check (answer in ('kept', 'changed', 'refunded')),
    answered_at bigint,
    answered_event_id bigint references sailing (event_id),
    primary key (booking_id, from_event_id)
);
create index rebooking_by_sailing on rebooking (from_event_id, to_event_id);

-- Where each place of a moved booking went (the old rows leave
-- booking_seat: a live booking owns all of its seats there).
create table moved_place (
    booking_id text not null references booking (id),
    from_seat_id bigint not null references seat (id),
    to_seat_id bigint not null references seat (id),
    guests bigint not null,
    price_cents bigint not null,
    moved_at bigint not null,
    primary key (booking_id, from_seat_id)
);

-- An event's bookings by state: a cancelled sailing's, the console's counts.
create index booking_by_event on booking (event_id, status);
alter table sailing add column cancelled_by text;
