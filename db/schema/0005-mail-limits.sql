-- 0005-mail-limits: what keeps the server from mailing strangers: the
-- addresses that asked for no more email from this server, and the
-- events the creation limits count.  Addresses are kept as their key
-- (store_address_key: lower case, without a "+tag"), so one person is
-- one row however the address is spelled.

CREATE TABLE blocked (
	address     TEXT PRIMARY KEY,
	created     INTEGER NOT NULL,
	how         TEXT NOT NULL CHECK (how IN ('link', 'admin'))
) STRICT, WITHOUT ROWID;

-- game: a game made from the web, subject = the client's address;
-- seat: a "your seat" email queued, subject = the recipient's key;
-- code: a wrong invitation code, subject = the client's address.
-- Rows older than a day count for nothing and are pruned.
CREATE TABLE limit_events (
	kind        TEXT NOT NULL CHECK (kind IN ('game', 'seat', 'code')),
	subject     TEXT NOT NULL,
	at          INTEGER NOT NULL
) STRICT;

CREATE INDEX limit_events_by_subject ON limit_events (kind, subject, at);
CREATE INDEX limit_events_by_age ON limit_events (at);
