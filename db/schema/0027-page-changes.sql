-- 0027-page-changes: on PostgreSQL, every change to a row that a game's
-- table page reads notifies the programs that keep the page's rows
-- between requests (db/schema/pg/0027-page-changes.sql).  A file is read
-- in the program itself, where a read costs no round trip: nothing is
-- kept, nothing changes here.  (The migration keeps the two engines'
-- numbered lists the same.)
SELECT 1;
