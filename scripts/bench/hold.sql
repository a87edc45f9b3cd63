-- pgbench: the statements of one durable hold as the product sends them on
-- Postgres (core/booking/store/claim.rs: the key and the buyer's lock, then
-- one statement that counts, checks, inserts and answers), on a seat picked
-- at random among a million bench seats. `on conflict do nothing` on the
-- seat keeps a rare collision from aborting the pgbench client.
\set seat random(1, 1000000)
\set buyer random(1, 100000)
begin;
with new_key as (
    insert into idempotency_key (buyer_id, key, fingerprint, created_at)
    select 'b' || :buyer, md5(random()::text), 'fp', 1
    on conflict (buyer_id, key) do nothing returning 1),
buyer_lock as (
    insert into buyer_event (buyer_id, event_id, touched_at) values ('b' || :buyer, 1, 1)
    on conflict (buyer_id, event_id) do update set touched_at = excluded.touched_at
    returning 1)
select case when exists (select 1 from new_key) then 0 else 1 end from buyer_lock;
with owned as (
    select cast(coalesce(sum(case when b.ga_quantity > 0 then b.ga_quantity
            else (select count(*) from booking_seat bs
                  where bs.booking_id = b.id and bs.live = 1) end), 0) as bigint) as n
    from booking b
    where b.buyer_id = 'b' || :buyer and b.event_id = 1
      and (b.status in ('PAYMENT_PENDING', 'BOOKED') or (b.status = 'HELD' and b.held_until > 1))),
stale as (
    select bs.booking_id from booking_seat bs join booking b on b.id = bs.booking_id
    where bs.live = 1 and bs.seat_id in (:seat) and b.status = 'HELD' and b.held_until <= 1),
new_booking as (
    insert into booking (id, event_id, buyer_id, status, held_until, amount_cents,
                         currency, ga_area_id, ga_quantity, created_at, updated_at)
    select gen_random_uuid()::text, 1, 'b' || :buyer, 'HELD', 9999999999999, 100, 'EUR', null, 0, 1, 1
    from event
    where id = 1 and published = 1 and on_sale_at <= 1
      and (select n from owned) + 1 <= 1000000
      and not exists (select 1 from stale)
    returning id),
new_seats as (
    insert into booking_seat (booking_id, seat_id, event_id, price_cents, live)
    select nb.id, s.seat_id, 1, s.price_cents, 1
    from new_booking nb cross join (values (0, cast(:seat as bigint), cast(100 as bigint))) as s(n, seat_id, price_cents)
    order by s.n
    on conflict do nothing),
answer as (
    update idempotency_key set status_code = 200, response_body = '{}'
    where buyer_id = 'b' || :buyer and key = 'x' and exists (select 1 from new_booking))
select (select n from owned), (select count(*) from stale), (select count(*) from new_booking);
commit;
