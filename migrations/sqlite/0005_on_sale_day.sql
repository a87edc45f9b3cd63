-- The waiting room of an event. `issued` is the last queue position handed
-- out, `admitted_through` the last position let in; positions are handed
-- out in arrival order under this row's lock, so admission is a watermark.
create table waiting_room (
    event_id bigint primary key references event (id),
    enabled integer not null default 0,
    admit_per_minute bigint not null check (admit_per_minute > 0),
    issued bigint not null default 0,
    admitted_through bigint not null default 0,
    last_admit_at bigint not null default 0,
    updated_at bigint not null,
    check (admitted_through >= 0 and admitted_through <= issued)
);

-- One buyer's place in one event's queue.
create table queue_entry (
    event_id bigint not null references waiting_room (event_id),
    buyer_id text not null,
    position bigint not null,
    joined_at bigint not null,
    primary key (event_id, buyer_id),
    unique (event_id, position)
);

-- Each admission step: positions up to `through_position` were let in at
-- `admitted_at`. An admission token expires a fixed time after its step.
create table admission_step (
    event_id bigint not null references waiting_room (event_id),
    through_position bigint not null,
    admitted_at bigint not null,
    primary key (event_id, through_position)
);

-- Promo campaigns: a single-use code, a code with a usage cap (`uses`
-- never passes `max_uses`: the CHECK is the last line of defence behind the
-- conditional update), or a pool of unique codes handed out one per buyer.
create table promo_campaign (
    id integer primary key,
    event_id bigint references event (id),
    name text not null,
    kind text not null check (kind in ('single', 'capped', 'pooled')),
    percent_off bigint not null default 0 check (percent_off between 0 and 100),
    amount_off_cents bigint not null default 0 check (amount_off_cents >= 0),
    max_uses bigint check (max_uses is null or max_uses > 0),
    uses bigint not null default 0,
    created_at bigint not null,
    check (max_uses is null or uses <= max_uses)
);

-- A code. Single-use and pooled codes are redeemed once (`redeemed_at`);
-- pooled codes are first handed to one buyer (`holder`), at most one per
-- buyer and campaign.
create table promo_code (
    code text primary key,
    campaign_id bigint not null references promo_campaign (id),
    holder text,
    handed_at bigint,
    redeemed_at bigint,
    redeemed_booking text,
    unique (campaign_id, holder)
);
create index promo_code_free on promo_code (campaign_id, holder);

-- The promo applied to a booking: one per booking.
create table booking_promo (
    booking_id text primary key references booking (id),
    code text not null,
    campaign_id bigint not null references promo_campaign (id),
    discount_cents bigint not null check (discount_cents >= 0),
    created_at bigint not null
);
