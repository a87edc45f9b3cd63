-- What an audit entry's detail says, as a kind and its values (JSON), so
-- the console can write it in the organizer's language; `detail` keeps the
-- English words the API gives.
alter table audit_log add column words text;
