/*
 * driver.c - which engine a target names: a PostgreSQL URL, or a file.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "driver.h"

int db_target_is_postgres(const char *target)
{
	return !strncasecmp(target, "postgresql://", 13) ||
	       !strncasecmp(target, "postgres://", 11);
}

db_code db_open(const char *target, db_conn **out, char *why, size_t cap)
{
	*out = NULL;
	if (!db_target_is_postgres(target))
		return db_sqlite_open(target, out, why, cap);
	*out = db_pg_open(target, why, cap);
	return *out ? DB_OK : DB_GONE;
}
