-- 0001-initial: games, their seats, their append-only history, the
-- outbox of emails and the table talk.  Times are unix seconds.

-- "BTO1": marks the file as ours, so another program's database is
-- refused rather than migrated.
PRAGMA application_id = 1112821553;

CREATE TABLE games (
	id          TEXT PRIMARY KEY,          -- 22 random base64url characters
	created     INTEGER NOT NULL,
	updated     INTEGER NOT NULL,
	players     INTEGER NOT NULL CHECK (players BETWEEN 2 AND 6),
	first_seat  INTEGER NOT NULL CHECK (first_seat BETWEEN 1 AND players),
	seed        TEXT NOT NULL,             -- secret until the game is over
	header      TEXT NOT NULL DEFAULT '',  -- an imported record's stack lines
	status      TEXT NOT NULL DEFAULT 'playing'
	            CHECK (status IN ('playing', 'won', 'lost')),
	options     TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE TABLE seats (
	game        TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seat        INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 6),
	name        TEXT NOT NULL DEFAULT '',
	email       TEXT NOT NULL DEFAULT '',
	token_gen   INTEGER NOT NULL DEFAULT 1,  -- bumped to revoke old links
	last_seen   INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (game, seat)
) STRICT;

-- One record line per row: an action, or a stack line of an imported
-- record (seat 0).  Rows are never changed or removed.
CREATE TABLE actions (
	game        TEXT NOT NULL REFERENCES games (id),
	seq         INTEGER NOT NULL CHECK (seq >= 0),
	seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 6),
	line        TEXT NOT NULL,
	created     INTEGER NOT NULL,
	PRIMARY KEY (game, seq)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
	SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
	SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TABLE outbox (
	id           INTEGER PRIMARY KEY,
	game         TEXT REFERENCES games (id),
	seat         INTEGER NOT NULL DEFAULT 0,
	recipient    TEXT NOT NULL,
	subject      TEXT NOT NULL,
	body         TEXT NOT NULL,
	created      INTEGER NOT NULL,
	attempts     INTEGER NOT NULL DEFAULT 0,
	next_attempt INTEGER NOT NULL,
	last_error   TEXT NOT NULL DEFAULT '',
	sent         INTEGER                    -- NULL while queued
) STRICT;

CREATE INDEX outbox_queued ON outbox (next_attempt) WHERE sent IS NULL;

CREATE TABLE chat (
	game        TEXT NOT NULL REFERENCES games (id),
	seq         INTEGER NOT NULL,
	seat        INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 6),
	text        TEXT NOT NULL,
	created     INTEGER NOT NULL,
	PRIMARY KEY (game, seq)
) STRICT;
