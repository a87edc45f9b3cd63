-- A claim on Postgres is one statement (`booking::store::claim_sql`): it
-- counts the buyer's places from its snapshot, taken before it locks the
-- buyer's row. The counter tells it whether that count saw every claim of
-- the buyer: each claim bumps it under the lock, so the value the lock
-- returns is the one the snapshot saw plus one exactly when no claim of
-- the buyer committed in between. Otherwise the claim counts again after
-- the lock, as before. (SQLite's single writer needs no buyer lock.)
alter table buyer_event add column claims bigint not null default 0;
