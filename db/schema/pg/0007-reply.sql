-- 0007-reply: the Reply-To of an email that asks a seat to move, a
-- signed address (links/reply.h) a reply by mail plays the seat through;
-- '' for every other email.
-- (PostgreSQL spelling of db/schema/0007-reply.sql.)
ALTER TABLE outbox ADD COLUMN reply_to TEXT NOT NULL DEFAULT '';
