-- 0013-creations: which new-game form made which game.  The form carries
-- a one-use key (made when the form is shown); the game is made with a
-- row here, in the same transaction, holding a hash of that key (never
-- the key: the key shows the game's links to whoever sends it soon
-- after).  The same form sent again (a reload, a second press, back and
-- send again) finds its row and makes nothing: no second game, no second
-- set of emails, nothing counted against the hourly limit.
-- (PostgreSQL spelling of db/schema/0013-creations.sql: BLOB is BYTEA,
-- whose length() counts bytes as SQLite's does for a blob.)
CREATE TABLE creations (
	once        BYTEA PRIMARY KEY CHECK (length(once) = 32),
	game        TEXT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE
);
