-- 0006-bots: seats a bot plays, which record lines a bot chose, and the
-- work a move leaves for the worker (a bot's turn), queued in the same
-- transaction as the move that makes it.

-- The bot that plays the seat; '' for a person.
ALTER TABLE seats ADD COLUMN bot TEXT NOT NULL DEFAULT ''
	CHECK (bot IN ('', 'search'));

-- Who chose the line: '' the seat's player, 'bot' the seat's bot,
-- 'stand-in' a bot playing for an absent player.
ALTER TABLE actions ADD COLUMN made_by TEXT NOT NULL DEFAULT ''
	CHECK (made_by IN ('', 'bot', 'stand-in'));

-- A bot's turn: seat's move when the game has seq lines.  A worker
-- claims one by moving due on by its lease (a worker killed mid-job
-- leaves it to be claimed again); done once the move is stored, or the
-- game has moved on without it.  One job per turn.
CREATE TABLE jobs (
	id          INTEGER PRIMARY KEY,
	kind        TEXT NOT NULL CHECK (kind IN ('move')),
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

CREATE INDEX jobs_todo ON jobs (due) WHERE done IS NULL;

-- Stand-ins: a bot plays an absent player's turns until the player acts
-- again.  The rule is the game's, chosen at creation: off; agree (after
-- the turn's last reminder, once every other person at the table has
-- asked); days (after standin_days days without a move).
ALTER TABLE games ADD COLUMN standin TEXT NOT NULL DEFAULT 'off'
	CHECK (standin IN ('off', 'agree', 'days'));
ALTER TABLE games ADD COLUMN standin_days INTEGER NOT NULL DEFAULT 0
	CHECK (standin_days BETWEEN 0 AND 30);
-- Since when a bot stands in for the seat's player (0: it does not).
ALTER TABLE seats ADD COLUMN standin_since INTEGER NOT NULL DEFAULT 0;
-- Under "agree": the turn (games.turn_since) for which this seat asked
-- for a stand-in for the seat to move (0: none).
ALTER TABLE seats ADD COLUMN standin_ask INTEGER NOT NULL DEFAULT 0;
