-- 0004-life: what a game needs between moves: whose turn it is and
-- since when (reminders), how each seat wants its mail, the table talk's
-- place in the history, play-again links, and the mailer's bookkeeping.
-- (PostgreSQL spelling of db/schema/0004-life.sql.)

-- The seat to move, since when, and how many reminders it has had for
-- this turn.  An older game starts counting from its last change.
ALTER TABLE games ADD COLUMN turn_seat BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN turn_since BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN reminders BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN reminder_secs BIGINT NOT NULL DEFAULT 86400
	CHECK (reminder_secs BETWEEN 3600 AND 2592000);
-- The game "play again" started from this one ('' if none yet).
ALTER TABLE games ADD COLUMN rematch TEXT NOT NULL DEFAULT '';
UPDATE games SET turn_since = updated;

-- every: an email for every move of the others; turn: only when it is
-- this seat's turn (and the end); digest: one email a day; none: never.
ALTER TABLE seats ADD COLUMN notify TEXT NOT NULL DEFAULT 'turn'
	CHECK (notify IN ('every', 'turn', 'digest', 'none'));
ALTER TABLE seats ADD COLUMN digest_sent BIGINT NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN nudged BIGINT NOT NULL DEFAULT 0;

-- How many record lines the game had when the message was said.
ALTER TABLE chat ADD COLUMN at_seq BIGINT NOT NULL DEFAULT 0;
CREATE INDEX chat_by_seat ON chat (game, seat, created);

-- What a message is about (turn, move, over, reminder, nudge, digest,
-- seat) and when an administrator dropped it (NULL: not dropped).
ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN dropped BIGINT;
DROP INDEX outbox_queued;
-- The mailer takes the oldest queued message first: walking this index
-- in id order meets only queued ones.
CREATE INDEX outbox_queued ON outbox (id)
	WHERE sent IS NULL AND dropped IS NULL;
