-- 0016-take-back: a person may take back a move that showed nobody
-- anything (rules: bt_take_back_ok) until the next action.  The move's
-- line leaves actions for taken_back in one transaction, so the history
-- still tells it, and the exported record holds only the moves that
-- stand.

-- The game's line count after the move that queued the email (0: not a
-- move's email): taking the move back drops its unsent emails.
ALTER TABLE outbox ADD COLUMN move_seq INTEGER NOT NULL DEFAULT 0;

CREATE TABLE taken_back (
	id          INTEGER PRIMARY KEY,
	game        TEXT NOT NULL REFERENCES games (id),
	seq         INTEGER NOT NULL CHECK (seq >= 0),   -- as it was in actions
	seat        INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 6),
	line        TEXT NOT NULL,
	created     INTEGER NOT NULL,                    -- when it was made
	taken       INTEGER NOT NULL                     -- when taken back
) STRICT;

CREATE INDEX taken_back_game ON taken_back (game, seq);

-- Rows of actions still never change, and leave only this way: the last
-- line of its game, once the newest row of taken_back holds it.
DROP TRIGGER actions_no_delete;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
WHEN OLD.seq <> (SELECT max(seq) FROM actions WHERE game = OLD.game)
  OR NOT EXISTS (SELECT 1 FROM taken_back t
                 WHERE t.id = (SELECT max(id) FROM taken_back)
                   AND t.game = OLD.game AND t.seq = OLD.seq
                   AND t.line = OLD.line AND t.created = OLD.created)
BEGIN
	SELECT RAISE(ABORT, 'actions are append-only');
END;
