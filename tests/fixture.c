/*
 * fixture.c - the unit tests' shared scratch files, test data and clock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sqlite3.h>

#include "fixture.h"

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

void fixture_scratch(const char *name, char dir[FIXTURE_PATH_MAX],
                     char path[FIXTURE_PATH_MAX])
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, FIXTURE_PATH_MAX, "%s/bt-%s.XXXXXX", tmp ? tmp : "/tmp",
	         name);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, FIXTURE_PATH_MAX, "%s/games.db", dir);
}

void fixture_remove(const char *dir)
{
	char cmd[FIXTURE_PATH_MAX + 16];

	ck_assert_ptr_null(strchr(dir, '\''));
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

long long fixture_sql_value(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -1;

	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK,
	              "%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
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
