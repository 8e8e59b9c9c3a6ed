-- 0005-mail-limits: what keeps the server from mailing strangers: the
-- addresses that asked for no more email from this server, and the
-- events the creation limits count.  Addresses are kept as their key
-- (store_address_key: lower case, without a "+tag"), so one person is
-- one row however the address is spelled.
-- (PostgreSQL spelling of db/schema/0005-mail-limits.sql.)

CREATE TABLE blocked (
	address     TEXT PRIMARY KEY,
	created     BIGINT NOT NULL,
	how         TEXT NOT NULL CHECK (how IN ('link', 'admin'))
);

-- game: a game made from the web, subject = the client's address;
-- seat: a "your seat" email queued, subject = the recipient's key;
-- code: a wrong invitation code, subject = the client's address.
-- Rows older than a day count for nothing and are pruned.
CREATE TABLE limit_events (
	kind        TEXT NOT NULL
	            CONSTRAINT limit_events_kind_check
	            CHECK (kind IN ('game', 'seat', 'code')),
	subject     TEXT NOT NULL,
	at          BIGINT NOT NULL
);

CREATE INDEX limit_events_by_subject ON limit_events (kind, subject, at);
CREATE INDEX limit_events_by_age ON limit_events (at);

-- address_key(text): the key the statements compare with the rows of
-- blocked (db/sql.c).  On SQLite it is a C function each connection
-- registers (db/address.c, store_address_key); here it lives in the
-- database, made with the table its keys go in.  The same rule, in
-- characters (the C's bytes: '@' and '+' are never part of a longer
-- UTF-8 sequence, so positions agree):
--  - the address splits at its LAST '@'; none, nothing before it, or
--    nothing after it: NULL;
--  - from the first '+' before that '@' up to it is dropped (a '@'
--    before the last one is kept, unless inside the tag);
--  - A-Z become a-z, nothing else (no other letter changes case);
--  - NULL if the key starts with '@' (an empty local part, or one that
--    is all tag) or is longer than 254 bytes (STORE_EMAIL_MAX).
-- Checked against the C (store_address_key compiled alone) on: NULL,
-- '', '@', 'a@', '@b', 'a@b', 'Ann@Example.ORG', 'ann+x@b', 'ann+@b',
-- '+x@b', '+@b', 'a+b+c@d', 'a@b@c', 'a+b@c@d', '@a@b', 'a@b+c'
-- (a '+' after the last '@' is kept), 'a@@b', 'x+Y@Z+W@Q',
-- 'Ä+x@É.example' (only ASCII is folded), addresses of 253 to 256
-- bytes (keys at and over the bound), with and without multi-byte
-- characters and a tag, and 200000 random strings over "aZ+@.é" of
-- lengths 0 to 12: the same result for each.
CREATE FUNCTION address_key(addr text) RETURNS text
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT CASE WHEN left(k, 1) = '@' OR octet_length(k) > 254 THEN NULL
            ELSE k END
FROM (SELECT CASE WHEN at > 1 AND at < length(addr)
                  THEN translate(split_part(left(addr, at - 1), '+', 1)
                                 || substr(addr, at),
                                 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
                                 'abcdefghijklmnopqrstuvwxyz')
             END AS k
      FROM (SELECT length(addr) + 1 - strpos(reverse(addr), '@') AS at)
           AS last_at) AS key
$$;
