/*
 * migrate.c - brings a database to the newest schema: each missing
 * migration in its own transaction (a new database all of them in one).
 * A file tracks its version in PRAGMA user_version; a PostgreSQL
 * database in the table buffertime_schema.
 * Both engines take the same numbered list (db/schema/, db/schema/pg/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "driver_sqlite.h"
#include "sql.h"

static const char pg_version_table[] =
	"CREATE TABLE IF NOT EXISTS buffertime_schema"
	" (version integer NOT NULL)";

int store_schema_latest(void)
{
	return store_migrations[store_migration_count - 1].version;
}

static int is_pg(store *s)
{
	return s->db->engine == DB_POSTGRES;
}

/* The first column of sql's first row as an integer, or -1. */
static int query_int(store *s, const char *sql)
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

int store_schema_version(store *s)
{
	if (!is_pg(s))
		return query_int(s, "PRAGMA user_version");
	int has_table = query_int(s, "SELECT to_regclass('buffertime_schema')"
	                          " IS NOT NULL");
	if (has_table <= 0)
		return has_table;
	return query_int(s, "SELECT coalesce(max(version), 0)"
	                 " FROM buffertime_schema");
}

/* The migration's lines joined, and what records its version, as one
 * script; NULL if out of memory.  The caller frees it. */
static char *migration_script(const store_migration *m, int pg)
{
	size_t n = 128;
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
	if (pg)
		snprintf(sql + at, n - at, ";\nDELETE FROM buffertime_schema;\n"
		         "INSERT INTO buffertime_schema VALUES (%d);\n",
		         m->version);
	else
		snprintf(sql + at, n - at, ";\nPRAGMA user_version = %d;\n",
		         m->version);
	return sql;
}

/* Begins the migration's transaction, under the lock that keeps two
 * programs from migrating at once. */
static db_code begin_locked(store *s)
{
	if (!is_pg(s))
		return db_exec(s->db, "BEGIN IMMEDIATE");
	/* the writers' lock (sql.c): two programs starting at once apply
	 * it once */
	db_code rc = db_exec(s->db, sql_pg_begin_write);
	return rc == DB_OK ? db_exec(s->db, pg_version_table) : rc;
}

/* Runs the migrations of list[0 .. n) that the database, looked at
 * again under the lock, still lacks; *failed names the one that failed. */
static db_code run_missing(store *s, const store_migration *list, int n,
                           const store_migration **failed)
{
	int version = store_schema_version(s);
	db_code rc = version < 0 ? db_errcode(s->db) : DB_OK;

	for (int i = 0; i < n && rc == DB_OK; i++) {
		if (list[i].version <= version)
			continue;
		char *sql = migration_script(&list[i], is_pg(s));
		*failed = &list[i];
		rc = sql ? db_exec(s->db, sql) : DB_ERROR;
		free(sql);
	}
	return rc;
}

/*
 * Applies list[0 .. n) in one transaction: the migrations and their
 * version change commit together or not at all, so a crash midway
 * leaves the database at the version before.  Another process may have
 * applied them while we waited for the lock: run_missing looks again.
 */
static store_rc apply(store *s, const store_migration *list, int n,
                      store_error *err)
{
	const store_migration *failed = NULL;
	db_code rc = begin_locked(s);

	if (rc == DB_OK)
		rc = run_missing(s, list, n, &failed);
	int in_script = failed != NULL;
	if (rc == DB_OK) {
		in_script = 0;
		rc = db_exec(s->db, "COMMIT");
	}
	if (rc == DB_OK)
		return STORE_OK;
	const char *name = failed ? failed->name : list[0].name;
	store_rc out = in_script && rc != DB_BUSY && rc != DB_FULL
	               ? store_fail(err, STORE_ERROR, "migration %s: %s",
	                            name, db_errmsg(s->db))
	               : store_db_fail(s, rc, name, err);
	db_exec(s->db, "ROLLBACK");
	return out;
}

/* A file is ours if 0001 marked it, a PostgreSQL schema if it has our
 * version table, and either if it is still empty: another program's
 * database must not be migrated into a Buffer Time one. */
static store_rc check_owner(store *s, int version, store_error *err)
{
	int ours, tables;

	if (is_pg(s)) {
		ours = version > 0;
		tables = query_int(s, "SELECT count(*) FROM pg_catalog.pg_tables"
		                   " WHERE schemaname = current_schema()"
		                   " AND tablename <> 'buffertime_schema'");
	} else {
		ours = query_int(s, "PRAGMA application_id") ==
		       STORE_APPLICATION_ID;
		tables = query_int(s, "SELECT count(*) FROM sqlite_schema");
	}
	if (version == 0 ? tables == 0 : ours)
		return STORE_OK;
	if (is_pg(s))
		return store_fail(err, STORE_CORRUPT, "the PostgreSQL database "
		                  "holds another program's tables: left as "
		                  "it is (give Buffer Time a database or "
		                  "schema of its own)");
	return store_fail(err, STORE_CORRUPT, "%s is not a Buffer Time "
	                  "database (another program's?): left as it is",
	                  sqlite3_db_filename(db_sqlite_handle(s->db),
	                                      "main"));
}

store_rc store_migrate(store *s, store_error *err)
{
	const store_migration *list = is_pg(s) ? store_pg_migrations
	                                       : store_migrations;
	int count = is_pg(s) ? store_pg_migration_count
	                     : store_migration_count;
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
	/* A new database takes the whole schema in one transaction (one
	 * commit, not one a migration); an older one each missing migration
	 * in its own, so an upgrade stopped midway keeps what it did. */
	if (version == 0)
		return apply(s, list, count, err);
	for (int i = 0; i < count; i++) {
		if (list[i].version <= version)
			continue;
		rc = apply(s, &list[i], 1, err);
		if (rc != STORE_OK)
			return rc;
	}
	return STORE_OK;
}
