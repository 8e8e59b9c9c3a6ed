/*
 * schema.h - the migrations compiled into the program (db/schema.c is
 * generated from db/schema/NNNN-name.sql, and their PostgreSQL spelling
 * db/schema/pg/NNNN-name.sql, by db/embed-schema.sh).
 */
#ifndef BT_SCHEMA_H
#define BT_SCHEMA_H

typedef struct store_migration {
	int version;         /* NNNN: PRAGMA user_version once applied
	                      * (PostgreSQL: the runner records it) */
	const char *name;    /* "0001-initial" */
	const char *const *lines;  /* the SQL, a line each, NULL at the end */
} store_migration;

/* In version order, versions 1, 2, ... without gaps. */
extern const store_migration store_migrations[];
extern const int store_migration_count;

/* The same migrations for PostgreSQL: the same versions and names, in
 * the same order (the build fails otherwise). */
extern const store_migration store_pg_migrations[];
extern const int store_pg_migration_count;

#endif
