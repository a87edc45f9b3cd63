-- An email's send is written down before the relay is asked: a dispatcher
-- that dies between the relay's OK and the mailbox row leaves `sending_at`
-- set, and the next one skips that mail rather than send it twice (at most
-- once; the mailbox records it as `smtp-unconfirmed`).
alter table outbox add column sending_at integer;
