-- A batch of claims inserts dozens of bookings in one statement
-- (`booking::store::claim_set`). Their history rows were written by one
-- PL/pgSQL call and one single-row insert per booking, a tenth of the
-- batch's time (issue 19); now one insert per statement writes them all,
-- from the statement's transition table, still in the claim's own
-- transaction. Status changes stay per row: Postgres does not allow a
-- transition table on a trigger with a column list (`update of status`).
-- SQLite's triggers are per row only, and stay as they are.
drop trigger booking_history_append on booking;

create function booking_history_inserted() returns trigger language plpgsql as $$
begin
    insert into booking_history (booking_id, from_status, to_status, cause, at)
    select id, null, status, coalesce(cause, 'buyer'), created_at from inserted;
    return null;
end $$;

create trigger booking_history_inserted after insert on booking
referencing new table as inserted
for each statement execute function booking_history_inserted();

create trigger booking_history_append after update of status on booking
for each row execute function booking_history_append();
