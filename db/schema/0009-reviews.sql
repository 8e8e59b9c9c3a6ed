-- 0009-reviews: the post-game review.  When a move ends a game, a
-- 'review' job is queued in its transaction; the worker weighs the
-- game's moves a few at a time between bot moves and keeps each move's
-- figures here (the crew's chance of winning from what the mover could
-- know: bots/review.h).  The review is ready once every action line of
-- the game has its row; the page says "being computed" until then.

-- jobs.kind gains 'review' and 'hints' (practice tables, 0010; a CHECK
-- cannot be changed: the table is
-- made again, with its rows and index).
CREATE TABLE jobs_new (
	id          INTEGER PRIMARY KEY,
	kind        TEXT NOT NULL CHECK (kind IN ('move', 'review', 'hints')),
	game        TEXT NOT NULL REFERENCES games (id),
	seq         INTEGER NOT NULL,
	seat        INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 6),
	created     INTEGER NOT NULL,
	due         INTEGER NOT NULL,
	attempts    INTEGER NOT NULL DEFAULT 0,
	done        INTEGER,                    -- NULL while to do
	outcome     TEXT NOT NULL DEFAULT '',
	UNIQUE (kind, game, seq)
) STRICT;
INSERT INTO jobs_new SELECT id, kind, game, seq, seat, created, due,
	attempts, done, outcome FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_new RENAME TO jobs;
CREATE INDEX jobs_todo ON jobs (due) WHERE done IS NULL;

-- One row per weighed move (move counts the game's action lines from
-- 0).  best_* is the option the search preferred: its verb and card
-- (bt_verb, bt_card), best_sweep 1 if it is "play this Sensor Sweep"
-- with the order left open.
CREATE TABLE review_moves (
	game            TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	move            INTEGER NOT NULL CHECK (move >= 0),
	chance_before   REAL NOT NULL CHECK (chance_before BETWEEN 0 AND 1),
	chance_played   REAL NOT NULL CHECK (chance_played BETWEEN 0 AND 1),
	best_verb       INTEGER NOT NULL,
	best_card       INTEGER NOT NULL,
	best_sweep      INTEGER NOT NULL CHECK (best_sweep IN (0, 1)),
	best_is_played  INTEGER NOT NULL CHECK (best_is_played IN (0, 1)),
	options         INTEGER NOT NULL CHECK (options >= 1),
	PRIMARY KEY (game, move)
) STRICT;

-- Games that ended before reviews existed get theirs too.
INSERT INTO jobs (kind, game, seq, seat, created, due)
	SELECT 'review', id, seq, 1, updated, updated FROM games
	WHERE status IN ('won', 'lost');
