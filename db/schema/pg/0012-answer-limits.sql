-- 0012-answer-limits: answers to replies that did nothing are counted
-- too (kind 'answer', subject = the key of the address answered), so a
-- mail program that answers every answer cannot have us write to it
-- without end.  SQLite cannot change a CHECK constraint in place and
-- makes the table again; here the CHECK (named in 0005) is replaced, and
-- the rows and both indexes stay.
-- (PostgreSQL spelling of db/schema/0012-answer-limits.sql.)
ALTER TABLE limit_events DROP CONSTRAINT limit_events_kind_check;
ALTER TABLE limit_events ADD CONSTRAINT limit_events_kind_check
	CHECK (kind IN ('game', 'seat', 'code', 'answer'));
