-- pgbench: the statements of one durable hold (core/booking/hold.rs), on a
-- seat picked at random among a million bench seats. `on conflict do nothing`
-- on the seat keeps a rare collision from aborting the pgbench client.
\set seat random(1, 1000000)
\set buyer random(1, 100000)
begin;
insert into idempotency_key (buyer_id, key, fingerprint, created_at)
  values ('b' || :buyer, md5(random()::text), 'fp', 1) on conflict (buyer_id, key) do nothing;
insert into buyer_event (buyer_id, event_id, touched_at) values ('b' || :buyer, 1, 1)
  on conflict (buyer_id, event_id) do update set touched_at = excluded.touched_at;
select cast(coalesce(sum(case when b.ga_quantity > 0 then b.ga_quantity
                              else (select count(*) from booking_seat bs
                                    where bs.booking_id = b.id and bs.live = 1) end), 0) as bigint)
  from booking b
  where b.buyer_id = 'b' || :buyer and b.event_id = 1
    and (b.status in ('PAYMENT_PENDING', 'BOOKED') or (b.status = 'HELD' and b.held_until > 0));
select distinct b.id from booking_seat bs join booking b on b.id = bs.booking_id
  where bs.live = 1 and bs.seat_id in (:seat) and b.status = 'HELD' and b.held_until <= 0;
insert into booking (id, event_id, buyer_id, status, held_until, amount_cents, currency, ga_area_id, ga_quantity, created_at, updated_at)
  select gen_random_uuid()::text, 1, 'b' || :buyer, 'HELD', 9999999999999, 100, 'EUR', null, 0, 1, 1 from event
  where id = 1 and published = 1 and on_sale_at <= 1;
insert into booking_seat (booking_id, seat_id, event_id, price_cents, live)
  select id, :seat, 1, 100, 1 from booking where buyer_id = 'b' || :buyer order by created_at desc limit 1
  on conflict do nothing;
update idempotency_key set status_code = 200, response_body = '{}' where buyer_id = 'b' || :buyer and key = 'x';
commit;
