-- The places a booking claims: its seats, or its standing places. Set when
-- the booking is claimed, recounted when it moves to another sailing (a
-- re-take takes the same seats back). The default 0 keeps an instance of
-- the build before this one working through a rolling deploy; the
-- invariants check flags any booking it leaves miscounted. The
-- buyer's limit sums it over the buyer's bookings that own their places,
-- where it once counted each booking's live seats: at an on-sale a
-- buyer with 40 holds cost 40 probes of booking_seat per claim.
alter table booking add column places bigint not null default 0;
update booking b set places = b.ga_quantity
    + (select count(*) from booking_seat bs where bs.booking_id = b.id);
-- The buyer's bookings with what the limit reads, so the count can be
-- answered from the index (where the visibility map allows).
drop index booking_by_buyer;
create index booking_by_buyer on booking (buyer_id, event_id)
    include (status, held_until, places);
-- The places each buyer ever claimed for an event, or received by a move
-- or at sign-in: never less than the places they hold or own, so a claim
-- that finds this bound within the limit need not count their bookings
-- (`booking::store::claim_sql`). Only grows.
alter table buyer_event add column placed bigint not null default 0;
insert into buyer_event (buyer_id, event_id, touched_at, claims, placed)
select buyer_id, event_id, max(updated_at), 0, sum(places) from booking group by buyer_id, event_id
on conflict (buyer_id, event_id) do update set placed = excluded.placed;
