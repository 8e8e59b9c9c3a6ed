/*
 * migrate.c - brings a database to the newest schema: each missing
 * migration in its own transaction, tracked by PRAGMA user_version.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
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
	char *msg = NULL;

	if (!sql)
		return store_fail(err, STORE_ERROR, "migration %s: out of "
		                  "memory", m->name);
	/* The migration and its version change commit together or not at
	 * all: a crash midway leaves the database at the version before. */
	int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	/* Another process may have applied it while we waited for the
	 * lock: look again inside the transaction. */
	if (rc == SQLITE_OK && store_schema_version(s) < m->version)
		rc = sqlite3_exec(s->db, sql, NULL, NULL, &msg);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	free(sql);
	if (rc == SQLITE_OK)
		return STORE_OK;
	store_rc out = msg ? store_fail(err, STORE_ERROR, "migration %s: %s",
	                                m->name, msg)
	                   : store_sqlite_fail(s, rc, m->name, err);
	sqlite3_free(msg);
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return out;
}

/* The first column of sql's first row as an integer, or -1. */
static int pragma_int(store *s, const char *sql)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
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
		                  "as it is", sqlite3_db_filename(s->db, "main"));
	return STORE_OK;
}

store_rc store_migrate(store *s, store_error *err)
{
	int version = store_schema_version(s);

	if (version < 0)
		return store_sqlite_fail(s, sqlite3_errcode(s->db),
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
