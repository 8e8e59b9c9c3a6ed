-- 0002-snapshots: the engine state after the last action, so loading a
-- game does not replay it.  snapshot_format names the state's layout; a
-- snapshot of another layout (an older program) is ignored and rebuilt.
-- (PostgreSQL spelling of db/schema/0002-snapshots.sql: BLOB is BYTEA.)

ALTER TABLE games ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN snapshot BYTEA;
ALTER TABLE games ADD COLUMN snapshot_seq BIGINT NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN snapshot_format BIGINT NOT NULL DEFAULT 0;

UPDATE games SET seq = (SELECT count(*) FROM actions WHERE actions.game = games.id);

CREATE INDEX games_updated ON games (updated);
