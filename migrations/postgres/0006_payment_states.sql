-- Payment status becomes a checked set, bookings gain DISPUTED, and a
-- partial refund made outside Holdfast is recorded.
alter table booking drop constraint booking_status_check;
alter table booking add constraint booking_status_check
    check (status in ('HELD', 'PAYMENT_PENDING', 'BOOKED', 'EXPIRED', 'CANCELLED', 'REFUNDED', 'DISPUTED'));
alter table payment add constraint payment_status_check
    check (status in ('creating', 'open', 'expired', 'paid', 'refund_pending', 'refunded', 'disputed'));
alter table payment add column refunded_cents bigint not null default 0 check (refunded_cents >= 0);
