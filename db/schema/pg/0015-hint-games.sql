-- 0015-hint-games: how many drawn games each hint's chance was counted
-- over, so the table can tell options the estimate cannot tell apart
-- ("about equal") from a real difference.  0: not known (older rows).
-- (PostgreSQL spelling of db/schema/0015-hint-games.sql.)
ALTER TABLE hints ADD COLUMN games BIGINT NOT NULL DEFAULT 0
	CHECK (games >= 0);
