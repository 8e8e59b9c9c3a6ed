-- 0017-ended: while the crew can no longer reach its goal (rules:
-- bt_out_of_reach), a person's seat may end the game there.  Ending is
-- not a record line (the record format is the game's, and its lines
-- replay the same): the game is kept as it stood, marked lost here.
-- (PostgreSQL spelling of db/schema/0017-ended.sql.)

-- The seat that ended the game early (0: it was not) and when.
ALTER TABLE games ADD COLUMN ended_by BIGINT NOT NULL DEFAULT 0
	CHECK (ended_by BETWEEN 0 AND 6);
ALTER TABLE games ADD COLUMN ended_at BIGINT;
