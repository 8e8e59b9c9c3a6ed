-- 0013-creations: which new-game form made which game.  The form carries
-- a one-use key (made when the form is shown); the game is made with a
-- row here, in the same transaction, holding a hash of that key (never
-- the key: the key shows the game's links to whoever sends it soon
-- after).  The same form sent again (a reload, a second press, back and
-- send again) finds its row and makes nothing: no second game, no second
-- set of emails, nothing counted against the hourly limit.
CREATE TABLE creations (
	once        BLOB PRIMARY KEY CHECK (length(once) = 32),
	game        TEXT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE
) STRICT;
