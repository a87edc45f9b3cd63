-- An event happens somewhere: its start is kept in UTC (`starts_at`) and
-- shown in the zone of the place (an IANA name such as 'Europe/Oslo').
alter table event add column time_zone text not null default 'UTC';
