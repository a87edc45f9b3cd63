-- The address the provider's checkout collected, so the confirmation can be
-- emailed; and how each mail left (the local mailbox or SMTP).
alter table payment add column customer_email text;
alter table mailbox add column channel text not null default 'mailbox';
alter table sandbox_session add column customer_email text;
