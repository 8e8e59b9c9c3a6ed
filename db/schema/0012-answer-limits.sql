-- 0012-answer-limits: answers to replies that did nothing are counted
-- too (kind 'answer', subject = the key of the address answered), so a
-- mail program that answers every answer cannot have us write to it
-- without end.  SQLite cannot change a CHECK constraint in place: the
-- table is made again.
CREATE TABLE limit_events_new (
	kind        TEXT NOT NULL
	            CHECK (kind IN ('game', 'seat', 'code', 'answer')),
	subject     TEXT NOT NULL,
	at          INTEGER NOT NULL
) STRICT;

INSERT INTO limit_events_new (kind, subject, at)
	SELECT kind, subject, at FROM limit_events;
DROP TABLE limit_events;
ALTER TABLE limit_events_new RENAME TO limit_events;

CREATE INDEX limit_events_by_subject ON limit_events (kind, subject, at);
CREATE INDEX limit_events_by_age ON limit_events (at);
