-- A promo campaign may be valid only from `starts_at` and until `ends_at`
-- (milliseconds since the epoch; null: no limit on that side).
alter table promo_campaign add column starts_at bigint;
alter table promo_campaign add column ends_at bigint;
