/*
 * driver_sqlite.h - what only the SQLite engine has, for the store's
 * files that deal with a file: the handle (online backups, the
 * integrity pragmas, user functions, user_version) and whether the file
 * moved.
 */
#ifndef BT_DRIVER_SQLITE_H
#define BT_DRIVER_SQLITE_H

#include <sqlite3.h>

#include "driver.h"

/* The SQLite handle of a connection db_sqlite_open made; NULL for
 * another engine's. */
sqlite3 *db_sqlite_handle(db_conn *c);

/* 1 if the connection's file was deleted or moved away since it was
 * opened. */
int db_sqlite_moved(db_conn *c);

#endif
