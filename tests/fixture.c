/*
 * fixture.c - the unit tests' shared scratch files, test data and clock.
 *
 * The store's database is a SQLite file in the scratch folder, or, when
 * BT_UNIT_ENGINE=postgres, a schema of its own in the PostgreSQL
 * database at BT_PG_URL (tests/store_pg.sh starts a server for it).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "driver.h"
#include "fixture.h"

/* In the scratch folder, NAME.pg-schema names the PostgreSQL schema
 * that stands for the database NAME, for fixture_remove to drop. */
static const char schema_note[] = ".pg-schema";

/* The folder sub beside (or above) this source file, when the
 * environment does not name it. */
static const char *beside_this_file(const char *env, const char *sub,
                                    char *buf, size_t cap)
{
	const char *given = getenv(env), *slash = strrchr(__FILE__, '/');

	if (given)
		return given;
	snprintf(buf, cap, "%.*s/%s", slash ? (int)(slash - __FILE__) : 1,
	         slash ? __FILE__ : ".", sub);
	return buf;
}

const char *fixture_data_dir(void)
{
	static char dir[FIXTURE_PATH_MAX];
	return beside_this_file("TESTDATA", "data", dir, sizeof dir);
}

const char *fixture_src_dir(void)
{
	static char dir[FIXTURE_PATH_MAX];
	return beside_this_file("SRCDIR", "..", dir, sizeof dir);
}

int fixture_engine_is_sqlite(void)
{
	const char *e = getenv("BT_UNIT_ENGINE");

	/* no Check asserts: suites ask this while registering cases,
	 * outside any test */
	if (!e || !*e || !strcmp(e, "sqlite"))
		return 1;
	if (!strcmp(e, "postgres"))
		return 0;
	fprintf(stderr, "BT_UNIT_ENGINE=%s: sqlite or postgres, please\n", e);
	exit(EXIT_FAILURE);
}

/* The server the PostgreSQL run uses: a missing one fails the test (a
 * run asked for PostgreSQL must not quietly test nothing). */
static const char *pg_url(void)
{
	const char *url = getenv("BT_PG_URL");

	ck_assert_msg(url && *url, "BT_UNIT_ENGINE=postgres needs BT_PG_URL, "
	              "a PostgreSQL URL (tests/store_pg.sh sets both)");
	return url;
}

/* Runs sql on a connection of its own to target; the test fails if it
 * cannot. */
static void pg_run(const char *target, const char *sql)
{
	db_conn *c;
	char why[256];

	ck_assert_msg(db_open(target, &c, why, sizeof why) == DB_OK,
	              "connecting to %s: %s", target, why);
	db_code rc = db_exec(c, sql);
	ck_assert_msg(rc == DB_OK, "%s: %s", sql, db_errmsg(c));
	db_close(c);
}

/* A fresh schema t_<hex> at BT_PG_URL, noted in dir as file's; its URL
 * (the server's, with the schema as search_path) into path. */
static void pg_scratch(const char *dir, const char *file,
                       char path[FIXTURE_PATH_MAX])
{
	const char *url = pg_url();
	unsigned char bytes[8];
	char hex[2 * sizeof bytes + 1], name[FIXTURE_PATH_MAX], sql[64];

	ck_assert_int_ge(sodium_init(), 0);
	randombytes_buf(bytes, sizeof bytes);
	sodium_bin2hex(hex, sizeof hex, bytes, sizeof bytes);
	snprintf(sql, sizeof sql, "CREATE SCHEMA t_%s", hex);
	pg_run(url, sql);
	snprintf(name, sizeof name, "%s/%s%s", dir, file, schema_note);
	FILE *f = fopen(name, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fprintf(f, "t_%s\n", hex), 0);
	ck_assert_int_eq(fclose(f), 0);
	/* libpq decodes %3D: the session's option -csearch_path=t_<hex> */
	int n = snprintf(path, FIXTURE_PATH_MAX,
	                 "%s%coptions=-csearch_path%%3Dt_%s", url,
	                 strchr(url, '?') ? '&' : '?', hex);
	ck_assert_int_lt(n, FIXTURE_PATH_MAX);
}

void fixture_database(const char *dir, const char *file,
                      char path[FIXTURE_PATH_MAX])
{
	if (!fixture_engine_is_sqlite()) {
		pg_scratch(dir, file, path);
		return;
	}
	int n = snprintf(path, FIXTURE_PATH_MAX, "%s/%s", dir, file);
	ck_assert_msg(n > 0 && n < FIXTURE_PATH_MAX, "path too long");
}

void fixture_scratch(const char *name, char dir[FIXTURE_PATH_MAX],
                     char path[FIXTURE_PATH_MAX])
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, FIXTURE_PATH_MAX, "%s/bt-%s.XXXXXX", tmp ? tmp : "/tmp",
	         name);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	fixture_database(dir, "games.db", path);
}

/* Drops the schema the note file names: 0, or -1 with why. */
static int drop_noted(const char *note, char *why, size_t cap)
{
	char schema[64], sql[96];
	const char *url = getenv("BT_PG_URL");
	FILE *f = fopen(note, "r");
	int got = f ? fscanf(f, "%63s", schema) : 0;
	db_conn *c;

	if (f)
		fclose(f);
	if (got != 1 || !url) {
		snprintf(why, cap, "%s: no schema, or no BT_PG_URL", note);
		return -1;
	}
	if (db_open(url, &c, why, cap) != DB_OK)
		return -1;
	snprintf(sql, sizeof sql, "DROP SCHEMA %s CASCADE", schema);
	db_code rc = db_exec(c, sql);
	if (rc != DB_OK)
		snprintf(why, cap, "%s: %s", sql, db_errmsg(c));
	db_close(c);
	return rc == DB_OK ? 0 : -1;
}

int fixture_drop_databases(const char *dir, char *why, size_t cap)
{
	char note[FIXTURE_PATH_MAX];
	size_t k = strlen(schema_note);
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return 0;
	while (rc == 0 && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n <= k || strcmp(e->d_name + n - k, schema_note))
			continue;
		snprintf(note, sizeof note, "%s/%s", dir, e->d_name);
		rc = drop_noted(note, why, cap);
	}
	closedir(d);
	return rc;
}

void fixture_remove(const char *dir)
{
	char cmd[FIXTURE_PATH_MAX + 16], why[256];

	ck_assert_ptr_null(strchr(dir, '\''));
	ck_assert_msg(fixture_drop_databases(dir, why, sizeof why) == 0, "%s",
	              why);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

store *fixture_open(const char *path)
{
	store *s = NULL;
	store_error err;
	store_rc rc = store_open(path, &s, &err);

	ck_assert_msg(rc == STORE_OK, "open %s: %s", path, err.why);
	return s;
}

/* A connection of its own to the database at path. */
static db_conn *connect_to(const char *path)
{
	db_conn *c;
	char why[256];

	ck_assert_msg(db_open(path, &c, why, sizeof why) == DB_OK, "%s: %s",
	              path, why);
	return c;
}

int fixture_sql_try(const char *path, const char *script)
{
	db_conn *c = connect_to(path);
	db_code rc = db_exec(c, script);

	db_close(c);
	return rc == DB_OK ? 0 : -1;
}

void fixture_sql_exec(const char *path, const char *script)
{
	db_conn *c = connect_to(path);
	db_code rc = db_exec(c, script);

	ck_assert_msg(rc == DB_OK, "%s: %s", script, db_errmsg(c));
	db_close(c);
}

void fixture_sql_text(const char *path, const char *sql, const char *arg,
                      char *out, size_t cap)
{
	db_conn *c = connect_to(path);
	db_stmt *st = db_prepare(c, sql);

	ck_assert_msg(st != NULL, "%s: %s", sql, db_errmsg(c));
	if (arg)
		db_bind_text(st, 1, arg, -1);
	ck_assert_msg(db_step(st) == DB_ROW, "%s: no row (%s)", sql,
	              db_errmsg(c));
	const char *t = db_column_text(st, 0);
	ck_assert_int_lt(snprintf(out, cap, "%s", t ? t : ""), (int)cap);
	db_finalize(st);
	db_close(c);
}

long long fixture_sql_value(const char *path, const char *sql)
{
	db_conn *c = connect_to(path);
	db_stmt *st = db_prepare(c, sql);
	long long v = -1;

	ck_assert_msg(st != NULL, "%s: %s", sql, db_errmsg(c));
	/* a statement a trigger refuses is -1, as no row */
	if (db_step(st) == DB_ROW)
		v = db_column_int64(st, 0);
	db_finalize(st);
	db_close(c);
	return v;
}

void fixture_clock(int64_t t)
{
	char v[32];

	if (t == 0) {
		ck_assert_int_eq(unsetenv("BUFFERTIME_NOW"), 0);
		return;
	}
	snprintf(v, sizeof v, "%lld", (long long)t);
	ck_assert_int_eq(setenv("BUFFERTIME_NOW", v, 1), 0);
}
