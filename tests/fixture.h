/*
 * fixture.h - what the unit tests of the store, the web layer and the
 * emails share: where the test data is, a scratch folder with a real
 * database, a look into it on a connection of its own, and the store's
 * clock.  Every helper fails the running Check test on error.
 *
 * The database is a SQLite file, or with BT_UNIT_ENGINE=postgres a
 * fresh schema in the PostgreSQL database at BT_PG_URL (no BT_PG_URL
 * then fails the test): tests/store_pg.sh runs the store's suites so.
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

/* 1 if the tests' database is a SQLite file (BT_UNIT_ENGINE unset or
 * sqlite), 0 if PostgreSQL (BT_UNIT_ENGINE=postgres).  A suite registers
 * the cases that are about SQLite's file itself only when it is 1. */
int fixture_engine_is_sqlite(void);

/* A new scratch folder under $TMPDIR (or /tmp) named bt-NAME.XXXXXX into
 * dir, and the path of a database in it (games.db) into path; on
 * PostgreSQL, path is the URL of a new schema of the test's own (noted
 * in dir). */
void fixture_scratch(const char *name, char dir[FIXTURE_PATH_MAX],
                     char path[FIXTURE_PATH_MAX]);

/* The path of a further database name in the scratch folder dir: the
 * file dir/name, or on PostgreSQL the URL of a new schema (noted in dir
 * as name's). */
void fixture_database(const char *dir, const char *name,
                      char path[FIXTURE_PATH_MAX]);

/* Removes the scratch folder dir and all it holds, and drops the
 * PostgreSQL schemas it notes. */
void fixture_remove(const char *dir);

/* Drops the PostgreSQL schemas dir notes, without Check (an unchecked
 * fixture's teardown may call it): 0, or -1 with why (cap bytes). */
int fixture_drop_databases(const char *dir, char *why, size_t cap);

/* Opens the store at path (the test fails if it cannot). */
store *fixture_open(const char *path);

/* The first column of the first row of sql, run on its own connection to
 * the database at path (through db/driver.h, so either engine), as an
 * integer (-1 if there is no row). */
long long fixture_sql_value(const char *path, const char *sql);

/* Runs script (statements separated by ';', no values) on its own
 * connection to the database at path: fixture_sql_exec fails the test
 * if it fails, fixture_sql_try returns 0 if it ran, -1 if it failed. */
void fixture_sql_exec(const char *path, const char *script);
int fixture_sql_try(const char *path, const char *script);

/* The first column of the first row of sql (with arg, if not NULL, as
 * its text parameter ?1) as text into out (cap bytes); no row fails the
 * test. */
void fixture_sql_text(const char *path, const char *sql, const char *arg,
                      char *out, size_t cap);

/* Sets the store's clock (BUFFERTIME_NOW) to t; 0 unsets it.  Check
 * runs each test in a process of its own, so it never leaks. */
void fixture_clock(int64_t t);

#endif
