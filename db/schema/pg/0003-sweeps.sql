-- 0003-sweeps: a Sensor Sweep a seat has looked at but not yet ordered
-- (the web page's two steps).  It holds only while the game still has
-- sweep_seq lines, so the next stored line ends it.
-- (PostgreSQL spelling of db/schema/0003-sweeps.sql.)

ALTER TABLE games ADD COLUMN sweep_seq BIGINT NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN sweep_seat BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN sweep_card TEXT NOT NULL DEFAULT '';
