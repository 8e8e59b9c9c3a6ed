-- 0026-seats-by-address: on PostgreSQL, an index of the seats by their
-- address's key, for "Email me my games" and a signed-in browser's My
-- games (SQL_SEATS_OF_ADDRESS), which otherwise read every seat of the
-- server (db/schema/pg/0026-seats-by-address.sql).  On a file the key is
-- the program's C function (db/address.c), which an index would need in
-- every program that ever writes the file (the sqlite3 shell too): a
-- friends' server's seats are read fast enough without.  (The migration
-- keeps the two engines' numbered lists the same.)
SELECT 1;
