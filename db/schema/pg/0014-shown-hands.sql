-- 0014-shown-hands: a seat may show its hand to the crew (table talk,
-- which the rules allow): every seat's table then shows it, and the
-- bots plan with it.  Only the seat's own settings page turns it on or
-- off; a hand is never shown otherwise.
-- (PostgreSQL spelling of db/schema/0014-shown-hands.sql.)
ALTER TABLE seats ADD COLUMN shown BIGINT NOT NULL DEFAULT 0
	CHECK (shown IN (0, 1));
