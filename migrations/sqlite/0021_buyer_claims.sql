-- The buyer's claim counter of Postgres' one-statement claim (see the
-- Postgres migration of the same number). SQLite's single writer runs a
-- buyer's claims one after the other and never reads it; the column keeps
-- the two schemas the same.
alter table buyer_event add column claims bigint not null default 0;
