-- 0003-sweeps: a Sensor Sweep a seat has looked at but not yet ordered
-- (the web page's two steps).  It holds only while the game still has
-- sweep_seq lines, so the next stored line ends it.

ALTER TABLE games ADD COLUMN sweep_seq INTEGER NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN sweep_seat INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN sweep_card TEXT NOT NULL DEFAULT '';
