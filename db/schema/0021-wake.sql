-- 0021-wake: on PostgreSQL, inserting a job or an email wakes the
-- workers that wait for work (db/schema/pg/0021-wake.sql: NOTIFY).  A
-- file has one worker, on the same machine, which looks each second
-- between its rounds: nothing changes here.  (The migration keeps the
-- two engines' numbered lists the same.)
SELECT 1;
