/*
 * migrate.c - brings a database to the newest schema: each missing
 * migration in its own transaction, tracked by PRAGMA user_version.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "driver_sqlite.h"
#include "sql.h"

int store_schema_latest(void)
{
	return store_migrations[store_migration_count - 1].version;
}

static int pragma_int(store *s, const char *sql);

int store_schema_version(store *s)
{
	return pragma_int(s, "PRAGMA user_version");
}

/* The migration's lines joined, and its version pragma, as one script;
 * NULL if out of memory.  The caller frees it. */
static char *migration_script(const store_migration *m)
{
	size_t n = 64;
	for (const char *const *l = m->lines; *l; l++)
		n += strlen(*l);
	char *sql = malloc(n);
	if (!sql)
		return NULL;
	size_t at = 0;
	for (const char *const *l = m->lines; *l; l++) {
		size_t k = strlen(*l);
		memcpy(sql + at, *l, k);
		at += k;
	}
	snprintf(sql + at, n - at, ";\nPRAGMA user_version = %d;\n",
	         m->version);
	return sql;
}

static store_rc apply(store *s, const store_migration *m, store_error *err)
{
	char *sql = migration_script(m);

	if (!sql)
		return store_fail(err, STORE_ERROR, "migration %s: out of "
		                  "memory", m->name);
	/* The migration and its version change commit together or not at
	 * all: a crash midway leaves the database at the version before. */
	db_code rc = db_exec(s->db, "BEGIN IMMEDIATE");
	int in_script = 0;
	/* Another process may have applied it while we waited for the
	 * lock: look again inside the transaction. */
	if (rc == DB_OK && store_schema_version(s) < m->version) {
		in_script = 1;
		rc = db_exec(s->db, sql);
	}
	if (rc == DB_OK) {
		in_script = 0;
		rc = db_exec(s->db, "COMMIT");
	}
	free(sql);
	if (rc == DB_OK)
		return STORE_OK;
	store_rc out = in_script && rc != DB_BUSY && rc != DB_FULL
	               ? store_fail(err, STORE_ERROR, "migration %s: %s",
	                            m->name, db_errmsg(s->db))
	               : store_db_fail(s, rc, m->name, err);
	db_exec(s->db, "ROLLBACK");
	return out;
}

/* The first column of sql's first row as an integer, or -1. */
static int pragma_int(store *s, const char *sql)
{
	db_stmt *st;
	int v = -1;

	if (!(st = db_prepare(s->db, sql)))
		return -1;
	if (db_step(st) == DB_ROW)
		v = db_column_int(st, 0);
	db_finalize(st);
	return v;
}

/* A file is ours if 0001 marked it, or if it is still empty: another
 * program's database must not be migrated into a Buffer Time one. */
static store_rc check_owner(store *s, int version, store_error *err)
{
	int app = pragma_int(s, "PRAGMA application_id");
	int tables = pragma_int(s, "SELECT count(*) FROM sqlite_schema");

	if (version == 0 ? tables != 0 : app != STORE_APPLICATION_ID)
		return store_fail(err, STORE_CORRUPT, "%s is not a Buffer "
		                  "Time database (another program's?): left "
		                  "as it is", sqlite3_db_filename(
		                  db_sqlite_handle(s->db), "main"));
	return STORE_OK;
}

store_rc store_migrate(store *s, store_error *err)
{
	int version = store_schema_version(s);

	if (version < 0)
		return store_db_fail(s, db_errcode(s->db),
		                     "reading the schema version", err);
	store_rc rc = check_owner(s, version, err);
	if (rc != STORE_OK)
		return rc;
	if (version > store_schema_latest())
		return store_fail(err, STORE_TOO_NEW, "the database has "
		                  "schema version %d, newer than this "
		                  "program's %d: upgrade the program", version,
		                  store_schema_latest());
	for (int i = 0; i < store_migration_count; i++) {
		if (store_migrations[i].version <= version)
			continue;
		rc = apply(s, &store_migrations[i], err);
		if (rc != STORE_OK)
			return rc;
	}
	return STORE_OK;
}
