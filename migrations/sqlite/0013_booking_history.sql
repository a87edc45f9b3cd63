-- Every booking's history: one row per status it took, appended by a
-- trigger in the transition's own transaction, so no path can change a
-- status without leaving a row. `booking.cause` is what the transition's
-- statement says moved it (buyer, admin:<actor>, webhook:<event id>,
-- reconciliation, expiry, refund); a new booking is a buyer's claim.
alter table booking add column cause text;

create table booking_history (
    id integer primary key,
    booking_id text not null references booking (id),
    from_status text,
    to_status text not null,
    cause text not null,
    at integer not null
);
create index booking_history_of on booking_history (booking_id, id);

-- Bookings from before the history: where they stand now.
insert into booking_history (booking_id, from_status, to_status, cause, at)
select id, null, status, 'before history', updated_at from booking order by created_at, id;

create trigger booking_history_insert after insert on booking
begin
    insert into booking_history (booking_id, from_status, to_status, cause, at)
    values (new.id, null, new.status, coalesce(new.cause, 'buyer'), new.created_at);
end;

create trigger booking_history_update after update of status on booking
when new.status is not old.status
begin
    insert into booking_history (booking_id, from_status, to_status, cause, at)
    values (new.id, old.status, new.status, coalesce(new.cause, 'unrecorded'), new.updated_at);
end;
