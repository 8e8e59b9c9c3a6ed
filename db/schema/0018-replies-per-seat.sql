-- 0018-replies-per-seat: a reply is remembered for the game and seat it
-- acted for, not by its Message-ID alone: an id another seat or another
-- game sent first (anyone can write any Message-ID) must not make a
-- seat's own reply look handled before.  The rows kept say what they
-- always said: that id was handled for that game and seat.
CREATE TABLE replies_new (
	message_id  TEXT NOT NULL,
	game        TEXT NOT NULL DEFAULT '',
	seat        INTEGER NOT NULL DEFAULT 0,
	outcome     TEXT NOT NULL DEFAULT '',
	created     INTEGER NOT NULL,
	PRIMARY KEY (message_id, game, seat)
) STRICT;

INSERT INTO replies_new (message_id, game, seat, outcome, created)
	SELECT message_id, game, seat, outcome, created FROM replies;
DROP TABLE replies;
ALTER TABLE replies_new RENAME TO replies;
