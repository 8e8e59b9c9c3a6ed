-- 0010-practice: practice tables.  A game made with practice = 1 shows
-- the seat to move each of its actions' chance of winning, as the
-- search estimates it from that seat's knowledge: a 'hints' job is
-- queued in the transaction of each move (and of the game's making)
-- that gives a person the turn, and the worker keeps its figures here.
-- Everyone at the table sees that it is a practice table.
-- (PostgreSQL spelling of db/schema/0010-practice.sql.)
ALTER TABLE games ADD COLUMN practice BIGINT NOT NULL DEFAULT 0
	CHECK (practice IN (0, 1));

-- One row per option of the seat to move when the game had seq lines:
-- the action as a record line writes it ("2 work"; a Sensor Sweep to
-- play, its order open: "2 special X04"), its verb and card, and its
-- chance of winning (0..1).
CREATE TABLE hints (
	game        TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
	seq         BIGINT NOT NULL,
	option      BIGINT NOT NULL CHECK (option >= 0),
	action      TEXT NOT NULL,
	verb        BIGINT NOT NULL,
	card        BIGINT NOT NULL,
	chance      DOUBLE PRECISION NOT NULL CHECK (chance BETWEEN 0 AND 1),
	PRIMARY KEY (game, seq, option)
);
