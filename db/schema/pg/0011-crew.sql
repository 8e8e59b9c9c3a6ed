-- 0011-crew: a rematch chain is a crew (store_crew.c).  A game's
-- rematch names the game "play again" made from it; walking a chain
-- back asks which game names this one, which without an index reads
-- every row of games (their snapshots too).
-- (PostgreSQL spelling of db/schema/0011-crew.sql: the same.)
CREATE INDEX games_by_rematch ON games (rematch) WHERE rematch <> '';
