/*
 * fixture.h - what the unit tests of the store, the web layer and the
 * emails share: where the test data is, a scratch folder with a real
 * SQLite file, a look into that file on a connection of its own, and the
 * store's clock.  Every helper fails the running Check test on error.
 */
#ifndef BT_FIXTURE_H
#define BT_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

enum { FIXTURE_PATH_MAX = 512 };

/* $TESTDATA, or tests/data beside this file; $SRCDIR, or the source tree
 * above it. */
const char *fixture_data_dir(void);
const char *fixture_src_dir(void);

/* A new scratch folder under $TMPDIR (or /tmp) named bt-NAME.XXXXXX into
 * dir, and the path of a database in it (games.db) into path. */
void fixture_scratch(const char *name, char dir[FIXTURE_PATH_MAX],
                     char path[FIXTURE_PATH_MAX]);

/* Removes the scratch folder dir and all it holds. */
void fixture_remove(const char *dir);

/* Opens the store at path (the test fails if it cannot). */
store *fixture_open(const char *path);

/* The first column of the first row of sql, run on its own connection to
 * the database at path, as an integer (-1 if there is no row). */
long long fixture_sql_value(const char *path, const char *sql);

/* Sets the store's clock (BUFFERTIME_NOW) to t; 0 unsets it.  Check
 * runs each test in a process of its own, so it never leaks. */
void fixture_clock(int64_t t);

#endif
