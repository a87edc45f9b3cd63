-- The second factor of the roles that move money (owner, manager): a
-- password (argon2) and a TOTP secret (RFC 6238), set by the person at
-- their first sign-in. A code is taken once: totp_last_step is the newest
-- time step used. Recovery codes are kept as SHA-256 hashes (a JSON list),
-- each removed when used.
alter table staff add column password_hash text;
alter table staff add column totp_secret text;
alter table staff add column totp_last_step bigint;
alter table staff add column recovery_codes text;
