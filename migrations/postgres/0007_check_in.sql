-- Tickets at the door: each seat (or standing place) of a booking is one
-- ticket; its first scan is recorded here, once (the primary key decides a
-- race between two scanners).
create table ticket_checkin (
    booking_id text not null references booking (id),
    -- the seat id, or `p{n}` for the n-th standing place
    unit text not null,
    gate text not null,
    actor text not null,
    checked_in_at bigint not null,
    primary key (booking_id, unit)
);
