/*
 * driver_pg_sql.h - the SQL side of the PostgreSQL driver, which needs no
 * server (driver_pg_sql.c); for driver_pg.c only.
 */
#ifndef BT_DRIVER_PG_SQL_H
#define BT_DRIVER_PG_SQL_H

#include <stddef.h>

#include "driver.h"

/* SQLite's highest ?N: the SQL the driver is given is SQLite's. */
#define PG_SQL_MAX_PARAM 32766

/* What a statement does to a transaction: for a connection lost inside
 * one, whose statements then must not run outside it. */
enum pg_tx_end { PG_TX_NONE, PG_TX_COMMIT, PG_TX_ROLLBACK };

/* sql's first statement: COMMIT or END; ROLLBACK or ABORT (not ROLLBACK
 * TO a savepoint, nor ... PREPARED); else PG_TX_NONE. */
enum pg_tx_end pg_sql_tx_end(const char *sql);

/* Copies sql into out (strlen(sql) + 1 bytes: as long) with each ?N made
 * $N outside quoted text, quoted names and comments; *nparams is the
 * highest N.  0, or -1 with why (cap bytes) if a ? has no number 1 to
 * PG_SQL_MAX_PARAM. */
int pg_sql_translate(const char *sql, char *out, int *nparams, char *why,
                     size_t cap);

/* 1 if sql, run outside a transaction on a connection found lost, may
 * run again on a new one: it begins a transaction or only reads
 * (BEGIN, SELECT, SET, SHOW, VALUES first), so it changed nothing. */
int pg_sql_retryable(const char *sql);

/* What sql begins: a read-only transaction (a BEGIN ... READ ONLY
 * alone), any other, or none. */
enum pg_begin { PG_BEGIN_NONE, PG_BEGIN_READ_ONLY, PG_BEGIN_OTHER };
enum pg_begin pg_sql_begins(const char *sql);

/* A SQLSTATE (NULL: none) as the code the store acts on. */
db_code pg_sql_code(const char *state);

/* libpq's messages run over several lines (a hint, a tab): one line of
 * at most cap bytes. */
void pg_sql_one_line(const char *src, char *dst, size_t cap);

#endif
