/*
 * driver_pg_rows.c - the columns of a PostgreSQL statement's current row
 * (db/driver.h's column calls): rows come back as text, bytea decoded
 * on first read and kept until the next step or reset.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "driver_pg.h"

/* ---- columns ---------------------------------------------------------- */

/* 1 if the current row has column col. */
static int has(const pg_stmt *st, int col)
{
	return st->res && st->row < PQntuples(st->res) && col >= 0 &&
	       col < PQnfields(st->res);
}

int pg_column_count(db_stmt *s)
{
	pg_stmt *st = (pg_stmt *)s;

	return st->res ? PQnfields(st->res) : st->ncols;
}

int pg_column_is_null(db_stmt *s, int col)
{
	pg_stmt *st = (pg_stmt *)s;

	return !has(st, col) || PQgetisnull(st->res, st->row, col);
}

const char *pg_column_text(db_stmt *s, int col)
{
	pg_stmt *st = (pg_stmt *)s;

	if (pg_column_is_null(s, col))
		return NULL;
	return PQgetvalue(st->res, st->row, col);
}

static int is_bool(const pg_stmt *st, int col)
{
	return PQftype(st->res, col) == PG_BOOL_OID;
}

double pg_column_double(db_stmt *s, int col)
{
	const char *t = pg_column_text(s, col);

	if (!t)
		return 0.0;
	if (is_bool((pg_stmt *)s, col))
		return *t == 't' ? 1.0 : 0.0;
	return strtod(t, NULL);
}

int64_t pg_column_int64(db_stmt *s, int col)
{
	const char *t = pg_column_text(s, col);
	char *end;

	if (!t)
		return 0;
	if (is_bool((pg_stmt *)s, col))
		return *t == 't';
	long long v = strtoll(t, &end, 10);
	if (end != t && *end != '.' && *end != 'e' && *end != 'E')
		return (int64_t)v;
	/* a real (or NaN, Infinity): cut as SQLite does, within range */
	double d = strtod(t, NULL);
	if (isnan(d))
		return 0;
	if (d >= 9223372036854775807.0)
		return INT64_MAX;
	if (d <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)d;
}

/* Column col of a bytea column, decoded into the statement (until the
 * next step or reset); NULL if out of memory. */
static const unsigned char *decoded(pg_stmt *st, int col, size_t *len)
{
	if (!st->blobs) {
		int n = PQnfields(st->res);
		st->blobs = calloc((size_t)n, sizeof *st->blobs);
		st->blob_len = calloc((size_t)n, sizeof *st->blob_len);
		if (!st->blobs || !st->blob_len) {
			free(st->blobs);
			free(st->blob_len);
			st->blobs = NULL;
			st->blob_len = NULL;
			return NULL;
		}
		st->nblobs = n;
	}
	if (!st->blobs[col]) {
		const char *t = PQgetvalue(st->res, st->row, col);
		st->blobs[col] = PQunescapeBytea((const unsigned char *)t,
		                                 &st->blob_len[col]);
	}
	*len = st->blobs[col] ? st->blob_len[col] : 0;
	return st->blobs[col];
}

const void *pg_column_blob(db_stmt *s, int col)
{
	pg_stmt *st = (pg_stmt *)s;
	size_t len;

	if (pg_column_is_null(s, col))
		return NULL;
	if (PQftype(st->res, col) != PG_BYTEA_OID)
		return PQgetvalue(st->res, st->row, col);
	return decoded(st, col, &len);
}

int pg_column_bytes(db_stmt *s, int col)
{
	pg_stmt *st = (pg_stmt *)s;
	size_t len;

	if (pg_column_is_null(s, col))
		return 0;
	if (PQftype(st->res, col) != PG_BYTEA_OID)
		return PQgetlength(st->res, st->row, col);
	decoded(st, col, &len);
	return len > INT_MAX ? INT_MAX : (int)len;
}

const char *pg_column_name(db_stmt *s, int col)
{
	pg_stmt *st = (pg_stmt *)s;

	return st->res && col >= 0 && col < PQnfields(st->res)
	       ? PQfname(st->res, col) : NULL;
}

/* By the column's type (pg_type.dat): what its values are, as SQLite
 * would say of each value. */
db_type pg_column_type(db_stmt *s, int col)
{
	pg_stmt *st = (pg_stmt *)s;

	if (pg_column_is_null(s, col))
		return DB_TYPE_NULL;
	switch (PQftype(st->res, col)) {
	case PG_BOOL_OID: case 20: case 21: case 23:   /* int8, 2, 4 */
		return DB_TYPE_INT;
	case 700: case 701: case 1700:   /* float4, float8, numeric */
		return DB_TYPE_FLOAT;
	case PG_BYTEA_OID:
		return DB_TYPE_BLOB;
	default:
		return DB_TYPE_TEXT;
	}
}
