-- 0008-replies: the emails that replied to ours (play by reply), by
-- Message-ID, recorded in the transaction of what they did (a move, a
-- look, table talk, an answer queued): a message the MTA delivers again
-- after a crash, or sends twice, is handled once.
CREATE TABLE replies (
	message_id  TEXT PRIMARY KEY,
	game        TEXT NOT NULL DEFAULT '',
	seat        INTEGER NOT NULL DEFAULT 0,
	outcome     TEXT NOT NULL DEFAULT '',
	created     INTEGER NOT NULL
) STRICT;
