-- 0021-wake: a worker waiting between its looks is woken as soon as work
-- is queued (a bot's turn, hints, a review, an email), whichever host
-- queued it: each insert into jobs or outbox notifies the channel
-- buffertime_work when its transaction commits, and the waiting workers
-- LISTEN on it (db/driver_pg_wake.c); a row that ON CONFLICT DO
-- NOTHING left out wakes nobody (FOR EACH ROW), and the notifications
-- of one transaction are one.  The payload is the schema, so that the
-- workers of other instances in the same database (each in a schema of
-- its own) let it pass.  Without it, a bot's move after a person's
-- waited up to the worker's one-second look.
CREATE FUNCTION buffertime_wake() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('buffertime_work', current_schema());
	RETURN NULL;
END
$$;
CREATE TRIGGER jobs_wake AFTER INSERT ON jobs
	FOR EACH ROW EXECUTE FUNCTION buffertime_wake();
CREATE TRIGGER outbox_wake AFTER INSERT ON outbox
	FOR EACH ROW EXECUTE FUNCTION buffertime_wake();
