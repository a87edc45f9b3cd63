-- The places a booking claims (see the Postgres migration of the same
-- number): its seats, or its standing places, set when it is claimed.
alter table booking add column places bigint not null default 0;
update booking set places = ga_quantity
    + (select count(*) from booking_seat bs where bs.booking_id = booking.id);
-- The buyer's bookings with what the limit reads, so SQLite counts from
-- the index alone.
drop index booking_by_buyer;
create index booking_by_buyer on booking (buyer_id, event_id, status, held_until, places);
-- The places each buyer ever claimed for an event: the bound Postgres'
-- claims read before counting (see the Postgres migration of the same
-- number). SQLite's claims count from the index above and never read it;
-- the column keeps the two schemas the same.
alter table buyer_event add column placed bigint not null default 0;
