-- Payments (SQLite; the Postgres folder has the same tables). A booking has
-- at most one payment: the provider's checkout session and what became of it.
create table payment (
    booking_id text primary key references booking (id),
    provider text not null,
    checkout_session_id text unique,
    checkout_url text,
    payment_intent_id text,
    refund_id text,
    -- creating | open | paid | expired | refund_pending | refunded
    status text not null,
    amount_cents bigint not null,
    currency text not null,
    -- reconciliation claims a payment before asking the provider about it
    lease_until bigint not null default 0,
    created_at bigint not null,
    updated_at bigint not null
);
create index payment_by_intent on payment (payment_intent_id);

-- Every provider event once: the unique id is inserted in the same
-- transaction as the event's effect.
create table webhook_inbox (
    event_id text primary key,
    type text not null,
    booking_id text,
    outcome text not null,
    received_at bigint not null
);

-- Side effects that leave the system (emails, refunds), written in the same
-- transaction as the state change; `dedupe_key` makes each one happen once.
create table outbox (
    id integer primary key,
    kind text not null check (kind in ('email', 'refund')),
    booking_id text not null,
    dedupe_key text not null unique,
    payload text not null,
    attempts bigint not null default 0,
    next_attempt_at bigint not null,
    lease_until bigint not null default 0,
    delivered_at bigint,
    created_at bigint not null
);
create index outbox_due on outbox (delivered_at, next_attempt_at);

-- Where emails land when no SMTP server is configured.
create table mailbox (
    id integer primary key,
    dedupe_key text not null unique,
    booking_id text not null,
    recipient text not null,
    subject text not null,
    body text not null,
    created_at bigint not null
);

-- The built-in Stripe stand-in's own records.
create table sandbox_session (
    id text primary key,
    idempotency_key text not null unique,
    booking_id text not null,
    payment_intent_id text not null unique,
    amount_cents bigint not null,
    currency text not null,
    status text not null,
    payment_status text not null,
    expires_at bigint not null,
    success_url text not null,
    cancel_url text not null,
    created_at bigint not null
);

create table sandbox_refund (
    id text primary key,
    idempotency_key text not null unique,
    payment_intent_id text not null,
    amount_cents bigint not null,
    created_at bigint not null
);

create table sandbox_delivery (
    id integer primary key,
    event_id text not null,
    body text not null,
    attempts bigint not null default 0,
    next_at bigint not null,
    delivered_at bigint
);
create index sandbox_delivery_due on sandbox_delivery (delivered_at, next_at);
