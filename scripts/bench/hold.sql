-- pgbench: the statement of one durable hold as the product sends it on
-- Postgres for a claim alone (core/booking/store/claim_sql.rs,
-- `Statement::Alone`: the key looked up, the buyer's lock and claim
-- counter, the count, the checks and the inserts, the key with the booking,
-- in one statement that is its own transaction: no BEGIN, no COMMIT), on a
-- seat picked at random among a million bench seats. `on conflict do
-- nothing` on the seat keeps a rare collision from aborting the pgbench
-- client.
\set seat random(1, 1000000)
\set buyer random(1, 100000)
\set key random(1, 1000000000)
with key_taken as (
    select 1 from idempotency_key where buyer_id = 'b' || :buyer and key = 'k' || :key),
seen as (
    select claims from buyer_event where buyer_id = 'b' || :buyer and event_id = 1),
buyer_lock as (
    insert into buyer_event (buyer_id, event_id, touched_at, claims, placed)
    values ('b' || :buyer, 1, 1, 1, 1)
    on conflict (buyer_id, event_id)
        do update set touched_at = excluded.touched_at, claims = buyer_event.claims + 1,
                      placed = buyer_event.placed + excluded.placed
    returning claims, placed),
counted as (
    select 1 from buyer_lock
    where claims = coalesce((select claims from seen), 0) + 1
      and not exists (select 1 from key_taken)),
owned as (
    select case when (select placed from buyer_lock) <= 1000000
                then (select placed from buyer_lock) - 1
                else (select cast(coalesce(sum(b.places), 0) as bigint) as n
                      from (select status, held_until, places from booking
                            where buyer_id = 'b' || :buyer and event_id = 1 offset 0) as b
                      where (b.status in ('PAYMENT_PENDING', 'BOOKED')
                             or (b.status = 'HELD' and b.held_until > 1))) end as n),
live_seats as (
    select b.status, b.held_until from booking_seat bs join booking b on b.id = bs.booking_id
    where bs.live = 1 and bs.seat_id in (:seat)),
stale as (
    select 1 from live_seats where status = 'HELD' and held_until <= 1),
seat_taken as (
    select 1 from live_seats where not (status = 'HELD' and held_until <= 1)),
ready as (
    select 1 from event
    where id = 1 and published = 1 and on_sale_at <= 1
      and not exists (select 1 from sailing where event_id = 1 and cancelled_at is not null)
      and (select n from owned) + 1 <= 1000000
      and not exists (select 1 from stale)
      and exists (select 1 from counted)),
free as (
    select 1 from ready where not exists (select 1 from seat_taken)),
new_booking as (
    insert into booking (id, event_id, buyer_id, status, held_until, amount_cents,
                         currency, ga_area_id, ga_quantity, places, created_at, updated_at)
    select gen_random_uuid()::text, 1, 'b' || :buyer, 'HELD', 9999999999999, 100, 'EUR', null, 0, 1,
           1, 1
    where exists (select 1 from free)
    returning id),
new_seats as (
    insert into booking_seat (booking_id, seat_id, event_id, price_cents, guests, live)
    select nb.id, s.seat_id, 1, s.price_cents, s.guests, 1
    from new_booking nb
    cross join (values (0, cast(:seat as bigint), cast(100 as bigint), cast(1 as bigint)))
        as s(n, seat_id, price_cents, guests)
    order by s.n
    on conflict do nothing),
new_key as (
    insert into idempotency_key (buyer_id, key, fingerprint, status_code, response_body, created_at)
    select 'b' || :buyer, 'k' || :key, 'fp', 200, '{}', 1
    where exists (select 1 from new_booking)
    on conflict do nothing)
select (select n from owned), (select count(*) from stale), (select count(*) from ready),
       (select count(*) from new_booking), (select count(*) from counted),
       (select count(*) from key_taken), (select count(*) from seat_taken);
