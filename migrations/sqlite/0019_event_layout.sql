-- The layout an event was made from (JSON, as `POST /api/admin/events`
-- took it), kept so it can be exported and edited until published; null
-- for events made otherwise (the demo's seed, sailings).
alter table event add column layout text;
-- When the event was first published (null: never). A layout may change
-- only before: once buyers could see it, its seats are fixed for good.
alter table event add column first_published_at bigint;
update event set first_published_at = created_at where published = 1;
