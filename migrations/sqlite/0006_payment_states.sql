-- Payment status becomes a checked set, bookings gain DISPUTED, and a
-- partial refund made outside Holdfast is recorded. SQLite cannot change a
-- CHECK in place, and this runs in the migration's transaction, where
-- foreign keys cannot be switched off. So: the new booking table is built
-- beside the old one, the three tables that refer to bookings are rebuilt
-- to refer to the new one, the old one (now referred to by nothing) is
-- dropped, and the rename moves every reference along to `booking`.
create table booking_new (
    id text primary key,
    event_id bigint not null references event (id),
    buyer_id text not null,
    status text not null check (status in ('HELD', 'PAYMENT_PENDING', 'BOOKED', 'EXPIRED', 'CANCELLED', 'REFUNDED', 'DISPUTED')),
    held_until bigint not null,
    amount_cents bigint not null,
    currency text not null,
    ga_area_id bigint references ga_area (id),
    ga_quantity bigint not null default 0,
    created_at bigint not null,
    updated_at bigint not null
);
insert into booking_new (id, event_id, buyer_id, status, held_until, amount_cents, currency,
                         ga_area_id, ga_quantity, created_at, updated_at)
    select id, event_id, buyer_id, status, held_until, amount_cents, currency,
           ga_area_id, ga_quantity, created_at, updated_at from booking;

create table booking_seat_new (
    booking_id text not null references booking_new (id),
    seat_id bigint not null references seat (id),
    event_id bigint not null,
    price_cents bigint not null,
    live integer not null default 1 check (live in (0, 1)),
    primary key (booking_id, seat_id)
);
insert into booking_seat_new (booking_id, seat_id, event_id, price_cents, live)
    select booking_id, seat_id, event_id, price_cents, live from booking_seat;
drop table booking_seat;
alter table booking_seat_new rename to booking_seat;

create table booking_promo_new (
    booking_id text primary key references booking_new (id),
    code text not null,
    campaign_id bigint not null references promo_campaign (id),
    discount_cents bigint not null check (discount_cents >= 0),
    created_at bigint not null
);
insert into booking_promo_new (booking_id, code, campaign_id, discount_cents, created_at)
    select booking_id, code, campaign_id, discount_cents, created_at from booking_promo;
drop table booking_promo;
alter table booking_promo_new rename to booking_promo;

create table payment_new (
    booking_id text primary key references booking_new (id),
    provider text not null,
    checkout_session_id text unique,
    checkout_url text,
    payment_intent_id text,
    refund_id text,
    status text not null check (status in ('creating', 'open', 'expired', 'paid', 'refund_pending', 'refunded', 'disputed')),
    amount_cents bigint not null,
    currency text not null,
    lease_until bigint not null default 0,
    created_at bigint not null,
    updated_at bigint not null,
    customer_email text,
    -- refunded outside Holdfast, in part (a full refund moves the status)
    refunded_cents bigint not null default 0 check (refunded_cents >= 0)
);
insert into payment_new (booking_id, provider, checkout_session_id, checkout_url, payment_intent_id,
                         refund_id, status, amount_cents, currency, lease_until, created_at,
                         updated_at, customer_email)
    select booking_id, provider, checkout_session_id, checkout_url, payment_intent_id,
           refund_id, status, amount_cents, currency, lease_until, created_at,
           updated_at, customer_email from payment;
drop table payment;
alter table payment_new rename to payment;
create index payment_by_intent on payment (payment_intent_id);

drop table booking;
alter table booking_new rename to booking;
create index booking_due on booking (status, held_until);
create index booking_by_buyer on booking (buyer_id, event_id);
-- Invariant 1: at most one live booking per seat, enforced here.
create unique index booking_seat_one_live on booking_seat (seat_id) where live = 1;
