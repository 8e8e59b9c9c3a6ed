-- 0018-replies-per-seat: a reply is remembered for the game and seat it
-- acted for, not by its Message-ID alone: an id another seat or another
-- game sent first (anyone can write any Message-ID) must not make a
-- seat's own reply look handled before.  The rows kept say what they
-- always said: that id was handled for that game and seat.
-- (PostgreSQL spelling of db/schema/0018-replies-per-seat.sql: SQLite
-- makes the table again with the new key; here the key, named in 0008,
-- is replaced in place.)
ALTER TABLE replies DROP CONSTRAINT replies_pkey;
ALTER TABLE replies ALTER COLUMN message_id SET NOT NULL;
ALTER TABLE replies ADD CONSTRAINT replies_pkey
	PRIMARY KEY (message_id, game, seat);
