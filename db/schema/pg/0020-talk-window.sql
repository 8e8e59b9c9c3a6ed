-- 0020-talk-window: what shows or mails table talk reads a window of it
-- (the newest lines since a place in the game, or since a time) and
-- counts the rest up to a bound, never every line: these indexes serve
-- those reads in order, newest first, and hold what the count needs.
-- (PostgreSQL spelling of db/schema/0020-talk-window.sql: the same.)
CREATE INDEX chat_by_line ON chat (game, at_seq, seq);
CREATE INDEX chat_by_time ON chat (game, created, seq);
