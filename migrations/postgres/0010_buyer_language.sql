-- The language a buyer reads Holdfast in, as they last started paying:
-- their mail (confirmation, refund, dispute) is written in it. No row:
-- English.
create table buyer_language (
    buyer_id text primary key,
    language text not null check (language in ('en', 'vi')),
    updated_at bigint not null
);
