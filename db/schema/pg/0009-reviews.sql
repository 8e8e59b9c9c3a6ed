-- 0009-reviews: the post-game review.  When a move ends a game, a
-- 'review' job is queued in its transaction; the worker weighs the
-- game's moves a few at a time between bot moves and keeps each move's
-- figures here (the crew's chance of winning from what the mover could
-- know: bots/review.h).  The review is ready once every action line of
-- the game has its row; the page says "being computed" until then.
-- (PostgreSQL spelling of db/schema/0009-reviews.sql: REAL is DOUBLE
-- PRECISION.)

-- jobs.kind gains 'review' and 'hints' (practice tables, 0010).  SQLite
-- cannot change a CHECK and makes the table again; here the CHECK is
-- replaced in place (rows, ids and the index jobs_todo stay as they are).
ALTER TABLE jobs DROP CONSTRAINT jobs_kind_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_kind_check
	CHECK (kind IN ('move', 'review', 'hints'));

-- One row per weighed move (move counts the game's action lines from
-- 0).  best_* is the option the search preferred: its verb and card
-- (bt_verb, bt_card), best_sweep 1 if it is "play this Sensor Sweep"
-- with the order left open.
CREATE TABLE review_moves (
	game            TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	move            BIGINT NOT NULL CHECK (move >= 0),
	chance_before   DOUBLE PRECISION NOT NULL
	                CHECK (chance_before BETWEEN 0 AND 1),
	chance_played   DOUBLE PRECISION NOT NULL
	                CHECK (chance_played BETWEEN 0 AND 1),
	best_verb       BIGINT NOT NULL,
	best_card       BIGINT NOT NULL,
	best_sweep      BIGINT NOT NULL CHECK (best_sweep IN (0, 1)),
	best_is_played  BIGINT NOT NULL CHECK (best_is_played IN (0, 1)),
	options         BIGINT NOT NULL CHECK (options >= 1),
	PRIMARY KEY (game, move)
);

-- Games that ended before reviews existed get theirs too.
INSERT INTO jobs (kind, game, seq, seat, created, due)
	SELECT 'review', id, seq, 1, updated, updated FROM games
	WHERE status IN ('won', 'lost');
