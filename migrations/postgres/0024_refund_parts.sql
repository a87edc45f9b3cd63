-- A refund an organizer gives in part: any number of them, each its own
-- refund at the provider (idempotency key refund-<booking>-<id>), never
-- together above what was paid. Asked under the booking's row lock, sent
-- by the outbox; `sent_at` is null while the provider has not answered.
-- `notify_buyer` is 1 when the buyer is told (with the reason).
create table refund_part (
    id text primary key,
    booking_id text not null references booking (id),
    amount_cents bigint not null check (amount_cents > 0),
    currency text not null,
    reason text not null,
    notify_buyer bigint not null check (notify_buyer in (0, 1)),
    actor text not null,
    provider_refund_id text,
    created_at bigint not null,
    sent_at bigint
);
create index refund_part_of on refund_part (booking_id);

-- The booking's history keeps each part refund as a row of its own (the
-- status it stood in, both before and after), with the amount and why.
alter table booking_history add column refund_cents bigint;
alter table booking_history add column note text;

-- `refunded_cents` now counts every refund that went back, ours included:
-- a payment refunded in full before (its part was never recorded) says so,
-- except a cancellation whose policy gave nothing back.
update payment set refunded_cents = amount_cents
where status = 'refunded' and refunded_cents = 0 and coalesce(refund_id, '') <> 'none';
