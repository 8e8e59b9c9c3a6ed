/*
 * check_driver_pg.h - what the PostgreSQL driver's suites share
 * (check_driver_pg.c, check_driver_pg_ahead.c): each helper fails the
 * running Check test on error.
 */
#ifndef BT_CHECK_DRIVER_PG_H
#define BT_CHECK_DRIVER_PG_H

#include <stdint.h>

#include <check.h>

#include "driver.h"

/* A connection to the server at BT_PG_URL. */
db_conn *open_ok(void);
void exec_ok(db_conn *c, const char *sql);
db_stmt *prepare_ok(db_conn *c, const char *sql);
void step_is(db_conn *c, db_stmt *st, db_code want);
/* The first column of sql's first row, as a number. */
int64_t value(db_conn *c, const char *sql);

/* check_driver_pg_ahead.c: reading ahead */
Suite *driver_pg_ahead_suite(void);

#endif
