-- 0022-address-key: on PostgreSQL, address_key() becomes one expression
-- that the planner inlines into the statements that call it
-- (db/schema/pg/0022-address-key.sql).  On a file it is the program's C
-- function (db/address.c): nothing changes here.  (The migration keeps
-- the two engines' numbered lists the same.)
SELECT 1;
