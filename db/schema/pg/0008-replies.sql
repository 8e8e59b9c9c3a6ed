-- 0008-replies: the emails that replied to ours (play by reply), by
-- Message-ID, recorded in the transaction of what they did (a move, a
-- look, table talk, an answer queued): a message the MTA delivers again
-- after a crash, or sends twice, is handled once.
-- (PostgreSQL spelling of db/schema/0008-replies.sql; the primary key
-- is named, for 0018 to replace it.)
CREATE TABLE replies (
	message_id  TEXT CONSTRAINT replies_pkey PRIMARY KEY,
	game        TEXT NOT NULL DEFAULT '',
	seat        BIGINT NOT NULL DEFAULT 0,
	outcome     TEXT NOT NULL DEFAULT '',
	created     BIGINT NOT NULL
);
