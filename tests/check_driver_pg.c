/*
 * check_driver_pg.c - the PostgreSQL driver (db/driver_pg.c) against a
 * real server, the one BT_PG_URL names: tests/driver_pg.sh starts a
 * throwaway one (tests/pg-cluster.sh) and runs this.  Without BT_PG_URL
 * every test fails: a driver never tried is not a driver that works.
 *
 * Each test makes the tables it uses afresh (DROP, CREATE), so that the
 * tests share the database but not their rows.
 */
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "check_driver_pg.h"

db_conn *open_ok(void)
{
	const char *url = getenv("BT_PG_URL");
	char why[512] = "";

	ck_assert_msg(url && *url, "BT_PG_URL is not set: run tests/driver_pg.sh"
	              " (make check TESTS=tests/driver_pg.sh), which starts a "
	              "PostgreSQL server for this suite");
	db_conn *c = db_pg_open(url, why, sizeof why);
	ck_assert_msg(c != NULL, "db_pg_open: %s", why);
	return c;
}

void exec_ok(db_conn *c, const char *sql)
{
	db_code rc = db_exec(c, sql);
	ck_assert_msg(rc == DB_OK, "%s: %d %s", sql, rc, db_errmsg(c));
}

db_stmt *prepare_ok(db_conn *c, const char *sql)
{
	db_stmt *st = db_prepare(c, sql);
	ck_assert_msg(st != NULL, "%s: %s", sql, db_errmsg(c));
	return st;
}

void step_is(db_conn *c, db_stmt *st, db_code want)
{
	db_code rc = db_step(st);
	ck_assert_msg(rc == want, "step gave %d, want %d: %s", rc, want,
	              db_errmsg(c));
}

/* The first column of sql's first row, as a number. */
int64_t value(db_conn *c, const char *sql)
{
	db_stmt *st = prepare_ok(c, sql);
	step_is(c, st, DB_ROW);
	int64_t v = db_column_int64(st, 0);
	db_finalize(st);
	return v;
}

/* ---- SQL ---------------------------------------------------------------- */

START_TEST(test_pg_numbered_parameters_become_the_servers_own)
{
	db_conn *c = open_ok();
	/* ?2 before ?1, each twice; '?1' in a string, "?3" as a name and
	 * ?9 in comments stay as they are */
	db_stmt *st = prepare_ok(c,
		"SELECT ?2::int * 10 + ?1::int, 'a ?1 b ''?2''' -- ?9\n"
		", x.\"?3\" /* ?8 /* ?7 */ */, ?2::int - ?1::int "
		"FROM (SELECT 5 AS \"?3\") x");

	ck_assert_int_eq(db_parameter_count(st), 2);
	ck_assert_int_eq(db_column_count(st), 4);
	db_bind_int(st, 1, 3);
	db_bind_int(st, 2, 4);
	step_is(c, st, DB_ROW);
	ck_assert_int_eq(db_column_int(st, 0), 43);
	ck_assert_str_eq(db_column_text(st, 1), "a ?1 b '?2'");
	ck_assert_int_eq(db_column_int(st, 2), 5);
	ck_assert_int_eq(db_column_int(st, 3), 1);
	step_is(c, st, DB_DONE);
	db_finalize(st);
	db_close(c);
}
END_TEST

START_TEST(test_pg_unnumbered_parameters_are_refused_in_words)
{
	db_conn *c = open_ok();

	ck_assert_ptr_null(db_prepare(c, "SELECT ?"));
	ck_assert_int_eq(db_errcode(c), DB_ERROR);
	ck_assert_msg(strstr(db_errmsg(c), "?1"), "%s", db_errmsg(c));
	ck_assert_ptr_null(db_prepare(c, "SELECT ?0"));
	ck_assert_ptr_null(db_prepare(c, "SELECT ?99999999999"));
	/* and a statement that did not prepare fails as the contract says */
	ck_assert_int_eq(db_step(NULL), DB_ERROR);
	ck_assert_ptr_null(db_prepare(c, "SELEC 1"));
	ck_assert_int_eq(db_errcode(c), DB_ERROR);
	ck_assert_msg(strstr(db_errmsg(c), "syntax"), "%s", db_errmsg(c));
	ck_assert_int_eq(value(c, "SELECT 7"), 7);
	db_close(c);
}
END_TEST

START_TEST(test_pg_open_says_where_it_could_not_connect)
{
	char why[512] = "";
	db_conn *c = db_pg_open("postgresql:///buffertime?host=/nonexistent-bt"
	                        "&user=buffertime&connect_timeout=5", why,
	                        sizeof why);

	ck_assert_ptr_null(c);
	ck_assert_msg(strstr(why, "/nonexistent-bt"), "%s", why);
	ck_assert_msg(!strchr(why, '\n') && !strchr(why, '\t'), "%s", why);
}
END_TEST

/* ---- values ------------------------------------------------------------- */

START_TEST(test_pg_int64_extremes_round_trip)
{
	static const int64_t v[] = { INT64_MIN, INT64_MAX, 0, -1, 4294967296 };
	db_conn *c = open_ok();

	exec_ok(c, "DROP TABLE IF EXISTS ints; "
	           "CREATE TABLE ints (id int PRIMARY KEY, v bigint)");
	db_stmt *ins = prepare_ok(c, "INSERT INTO ints VALUES (?1, ?2)");
	for (int i = 0; i < 5; i++) {
		db_bind_int(ins, 1, i);
		db_bind_int64(ins, 2, v[i]);
		step_is(c, ins, DB_DONE);
		db_reset(ins);
	}
	db_stmt *sel = prepare_ok(c, "SELECT v, v = ?1, true, false "
	                             "FROM ints WHERE id = ?2");
	for (int i = 0; i < 5; i++) {
		db_bind_int64(sel, 1, v[i]);
		db_bind_int(sel, 2, i);
		step_is(c, sel, DB_ROW);
		ck_assert_msg(db_column_int64(sel, 0) == v[i], "row %d", i);
		/* booleans come back as 't' and 'f': 1 and 0 */
		ck_assert_int_eq(db_column_int64(sel, 1), 1);
		ck_assert_int_eq(db_column_int64(sel, 2), 1);
		ck_assert_int_eq(db_column_int64(sel, 3), 0);
		db_reset(sel);
	}
	db_finalize(ins);
	db_finalize(sel);
	db_close(c);
}
END_TEST

START_TEST(test_pg_doubles_round_trip_exactly)
{
	static const double v[] = { 0.1, 1.0 / 3.0, -1e300, 5e-324, 0.0,
	                            123456789.125 };
	db_conn *c = open_ok();
	db_stmt *st = prepare_ok(c, "SELECT ?1::float8, 2.75::float8, "
	                            "'-Infinity'::float8");

	for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
		db_bind_double(st, 1, v[i]);
		step_is(c, st, DB_ROW);
		ck_assert_msg(db_column_double(st, 0) == v[i], "%.17g came back "
		              "as %s", v[i], db_column_text(st, 0));
		/* a real read as an integer is cut, as SQLite does */
		ck_assert_int_eq(db_column_int64(st, 1), 2);
		ck_assert_msg(db_column_int64(st, 2) == INT64_MIN, "-Infinity");
		db_reset(st);
	}
	db_finalize(st);
	db_close(c);
}
END_TEST

START_TEST(test_pg_text_keeps_quotes_utf8_and_empty_apart_from_null)
{
	static const char *const text[] = {
		"it's \"quoted\" \\ ?1 $1 --",
		"Ünïcødé ♠♥♦♣ 🂡",
		"",
	};
	db_conn *c = open_ok();

	exec_ok(c, "DROP TABLE IF EXISTS texts; "
	           "CREATE TABLE texts (id int PRIMARY KEY, t text)");
	db_stmt *ins = prepare_ok(c, "INSERT INTO texts VALUES (?1, ?2)");
	for (int i = 0; i < 3; i++) {
		db_bind_int(ins, 1, i);
		db_bind_text(ins, 2, text[i], -1);
		step_is(c, ins, DB_DONE);
		db_reset(ins);
	}
	db_bind_int(ins, 1, 3);
	db_bind_null(ins, 2);
	step_is(c, ins, DB_DONE);
	db_reset(ins);
	db_bind_int(ins, 1, 4);
	db_bind_text(ins, 2, "hello", 3);   /* n bytes only */
	step_is(c, ins, DB_DONE);

	db_stmt *sel = prepare_ok(c, "SELECT t FROM texts ORDER BY id");
	for (int i = 0; i < 3; i++) {
		step_is(c, sel, DB_ROW);
		ck_assert_int_eq(db_column_is_null(sel, 0), 0);
		ck_assert_str_eq(db_column_text(sel, 0), text[i]);
		ck_assert_int_eq(db_column_bytes(sel, 0), (int)strlen(text[i]));
	}
	step_is(c, sel, DB_ROW);
	ck_assert_int_eq(db_column_is_null(sel, 0), 1);
	ck_assert_ptr_null(db_column_text(sel, 0));
	ck_assert_int_eq(db_column_bytes(sel, 0), 0);
	step_is(c, sel, DB_ROW);
	ck_assert_str_eq(db_column_text(sel, 0), "hel");
	step_is(c, sel, DB_DONE);
	db_finalize(ins);
	db_finalize(sel);
	db_close(c);
}
END_TEST

START_TEST(test_pg_blobs_with_nul_bytes_round_trip_exactly)
{
	unsigned char all[256], other[3] = { 0, 0, 7 };
	db_conn *c = open_ok();

	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	exec_ok(c, "DROP TABLE IF EXISTS blobs; "
	           "CREATE TABLE blobs (id int PRIMARY KEY, a bytea, b bytea)");
	db_stmt *ins = prepare_ok(c, "INSERT INTO blobs VALUES (?1, ?2, ?3)");
	db_bind_int(ins, 1, 1);
	db_bind_blob(ins, 2, all, sizeof all);
	db_bind_blob(ins, 3, other, sizeof other);
	step_is(c, ins, DB_DONE);
	db_reset(ins);
	db_bind_int(ins, 1, 2);
	db_bind_blob(ins, 2, all, 0);       /* empty, not NULL */
	step_is(c, ins, DB_DONE);           /* ?3 unbound: NULL */

	db_stmt *sel = prepare_ok(c, "SELECT a, b FROM blobs ORDER BY id");
	step_is(c, sel, DB_ROW);
	/* both columns' bytes stay valid until the next step */
	const void *a = db_column_blob(sel, 0);
	const void *b = db_column_blob(sel, 1);
	ck_assert_int_eq(db_column_bytes(sel, 0), 256);
	ck_assert_int_eq(db_column_bytes(sel, 1), 3);
	ck_assert(a && memcmp(a, all, sizeof all) == 0);
	ck_assert(b && memcmp(b, other, sizeof other) == 0);
	step_is(c, sel, DB_ROW);
	ck_assert_int_eq(db_column_is_null(sel, 0), 0);
	ck_assert_int_eq(db_column_bytes(sel, 0), 0);
	ck_assert_int_eq(db_column_is_null(sel, 1), 1);
	ck_assert_ptr_null(db_column_blob(sel, 1));
	step_is(c, sel, DB_DONE);
	db_finalize(ins);
	db_finalize(sel);
	db_close(c);
}
END_TEST

START_TEST(test_pg_reset_forgets_the_values)
{
	db_conn *c = open_ok();
	db_stmt *st = prepare_ok(c, "SELECT ?1::int IS NULL, ?1::int");

	db_bind_int(st, 1, 5);
	step_is(c, st, DB_ROW);
	ck_assert_int_eq(db_column_int(st, 0), 0);
	ck_assert_int_eq(db_column_int(st, 1), 5);
	db_reset(st);
	step_is(c, st, DB_ROW);
	ck_assert_int_eq(db_column_int(st, 0), 1);
	ck_assert_int_eq(db_column_is_null(st, 1), 1);
	db_finalize(st);
	db_close(c);
}
END_TEST

/* ---- rows and changes --------------------------------------------------- */

START_TEST(test_pg_steps_over_rows_then_done_then_runs_again)
{
	db_conn *c = open_ok();
	db_stmt *st = prepare_ok(c, "SELECT g, g * ?1 FROM generate_series(1, "
	                            "?2) g ORDER BY g");

	db_bind_int(st, 1, 10);
	db_bind_int(st, 2, 4);
	for (int run = 0; run < 2; run++) {
		/* after DB_DONE a step runs it again, with the same values */
		for (int i = 1; i <= 4; i++) {
			step_is(c, st, DB_ROW);
			ck_assert_int_eq(db_column_int(st, 0), i);
			ck_assert_int_eq(db_column_int(st, 1), i * 10);
		}
		step_is(c, st, DB_DONE);
		ck_assert_ptr_null(db_column_text(st, 0));
	}
	db_reset(st);
	db_bind_int(st, 1, 2);
	db_bind_int(st, 2, 1);
	step_is(c, st, DB_ROW);
	ck_assert_int_eq(db_column_int(st, 1), 2);
	step_is(c, st, DB_DONE);
	db_reset(st);
	db_bind_int(st, 2, 0);
	step_is(c, st, DB_DONE);
	db_finalize(st);
	db_close(c);
}
END_TEST

START_TEST(test_pg_changes_count_the_last_write)
{
	db_conn *c = open_ok();

	exec_ok(c, "DROP TABLE IF EXISTS nums; CREATE TABLE nums (n int); "
	           "INSERT INTO nums SELECT generate_series(1, 6)");
	ck_assert_int_eq(db_changes(c), 6);
	db_stmt *up = prepare_ok(c, "UPDATE nums SET n = n + 100 WHERE n <= ?1");
	db_bind_int(up, 1, 3);
	step_is(c, up, DB_DONE);
	ck_assert_int_eq(db_changes(c), 3);
	/* a SELECT changes nothing, nor the count */
	ck_assert_int_eq(value(c, "SELECT count(*) FROM nums WHERE n > 100"), 3);
	ck_assert_int_eq(db_changes(c), 3);
	/* RETURNING's rows are rows; the count is of the rows deleted */
	db_stmt *del = prepare_ok(c, "DELETE FROM nums WHERE n > ?1 "
	                             "RETURNING n");
	db_bind_int(del, 1, 100);
	int rows = 0;
	while (db_step(del) == DB_ROW)
		rows++;
	ck_assert_int_eq(rows, 3);
	ck_assert_int_eq(db_errcode(c), DB_OK);
	ck_assert_int_eq(db_changes(c), 3);
	db_reset(up);
	db_bind_int(up, 1, -1);
	step_is(c, up, DB_DONE);
	ck_assert_int_eq(db_changes(c), 0);
	db_finalize(up);
	db_finalize(del);
	db_close(c);
}
END_TEST

/* ---- errors ------------------------------------------------------------- */

START_TEST(test_pg_unique_violation_is_a_constraint)
{
	db_conn *c = open_ok();

	exec_ok(c, "DROP TABLE IF EXISTS uniq; "
	           "CREATE TABLE uniq (k text PRIMARY KEY)");
	db_stmt *st = prepare_ok(c, "INSERT INTO uniq VALUES (?1)");
	db_bind_text(st, 1, "a", -1);
	step_is(c, st, DB_DONE);
	db_reset(st);
	db_bind_text(st, 1, "a", -1);
	step_is(c, st, DB_CONSTRAINT);
	ck_assert_int_eq(db_errcode(c), DB_CONSTRAINT);
	ck_assert_msg(strstr(db_errmsg(c), "duplicate key") &&
	              !strchr(db_errmsg(c), '\n'), "%s", db_errmsg(c));
	ck_assert_int_eq(db_exec(c, "INSERT INTO uniq VALUES ('a')"),
	                 DB_CONSTRAINT);
	/* the connection goes on */
	db_reset(st);
	db_bind_text(st, 1, "b", -1);
	step_is(c, st, DB_DONE);
	ck_assert_int_eq(db_exec(c, "SELEC 1"), DB_ERROR);
	ck_assert_int_eq(value(c, "SELECT count(*) FROM uniq"), 2);
	db_finalize(st);
	db_close(c);
}
END_TEST

START_TEST(test_pg_a_held_lock_is_busy)
{
	db_conn *a = open_ok(), *b = open_ok();

	exec_ok(a, "DROP TABLE IF EXISTS locked; CREATE TABLE locked (n int); "
	           "INSERT INTO locked VALUES (1)");
	exec_ok(a, "BEGIN; UPDATE locked SET n = 2");
	/* the caller's own time limit, here a short one */
	exec_ok(b, "SET lock_timeout = '200ms'");
	ck_assert_int_eq(db_exec(b, "UPDATE locked SET n = 3"), DB_BUSY);
	exec_ok(a, "ROLLBACK");
	exec_ok(b, "UPDATE locked SET n = 3");
	db_close(a);
	db_close(b);
}
END_TEST

/* ---- scripts and transactions ------------------------------------------- */

START_TEST(test_pg_exec_runs_a_script_of_several_statements)
{
	db_conn *c = open_ok();

	exec_ok(c, "DROP TABLE IF EXISTS script;\n"
	           "CREATE TABLE script (k text, v int);\n"
	           "INSERT INTO script VALUES ('x;y', 1); -- a ; in a comment\n"
	           "INSERT INTO script VALUES ('z', 2);\n");
	ck_assert_int_eq(value(c, "SELECT sum(v) FROM script"), 3);
	ck_assert_int_eq(value(c, "SELECT count(*) FROM script "
	                          "WHERE k = 'x;y'"), 1);
	db_close(c);
}
END_TEST

START_TEST(test_pg_in_transaction_follows_begin_commit_rollback)
{
	db_conn *c = open_ok();

	exec_ok(c, "DROP TABLE IF EXISTS tx; CREATE TABLE tx (n int UNIQUE)");
	ck_assert_int_eq(db_in_transaction(c), 0);
	exec_ok(c, "BEGIN");
	ck_assert_int_eq(db_in_transaction(c), 1);
	exec_ok(c, "INSERT INTO tx VALUES (1)");
	exec_ok(c, "COMMIT");
	ck_assert_int_eq(db_in_transaction(c), 0);

	/* the store begins and commits with prepared statements */
	db_stmt *begin = prepare_ok(c, "BEGIN");
	db_stmt *late = prepare_ok(c, "SELECT 1");
	db_stmt *rollback = prepare_ok(c, "ROLLBACK");
	step_is(c, begin, DB_DONE);
	ck_assert_int_eq(db_in_transaction(c), 1);
	exec_ok(c, "INSERT INTO tx VALUES (2)");
	/* a failed statement leaves the transaction open, refusing */
	ck_assert_int_eq(db_exec(c, "INSERT INTO tx VALUES (1)"), DB_CONSTRAINT);
	ck_assert_int_eq(db_in_transaction(c), 1);
	/* a statement finalized meanwhile (the server refuses even its
	 * DEALLOCATE) is deallocated once the transaction ends */
	db_finalize(late);
	step_is(c, rollback, DB_DONE);
	ck_assert_int_eq(db_in_transaction(c), 0);
	ck_assert_int_eq(value(c, "SELECT count(*) FROM tx"), 1);
	ck_assert_int_eq(value(c, "SELECT count(*) FROM pg_prepared_statements"),
	                 3);   /* begin, rollback and that count's own */
	db_finalize(begin);
	db_finalize(rollback);
	db_close(c);
}
END_TEST

/* ---- a lost connection -------------------------------------------------- */

/* Ends c's server process from another connection, and waits till it is
 * gone. */
static void terminate(db_conn *c)
{
	db_conn *other = open_ok();
	db_stmt *st = prepare_ok(other, "SELECT pg_terminate_backend(?1, 10000)");

	db_bind_int64(st, 1, value(c, "SELECT pg_backend_pid()"));
	step_is(other, st, DB_ROW);
	ck_assert_int_eq(db_column_int(st, 0), 1);
	db_finalize(st);
	db_close(other);
}

START_TEST(test_pg_a_lost_connection_is_opened_again_and_reprepared)
{
	db_conn *c = open_ok();

	exec_ok(c, "DROP TABLE IF EXISTS lost; CREATE TABLE lost (n int); "
	           "INSERT INTO lost VALUES (1), (2), (3)");
	db_stmt *st = prepare_ok(c, "SELECT n * ?1 FROM lost WHERE n >= ?2 "
	                            "ORDER BY n");
	db_stmt *ins = prepare_ok(c, "INSERT INTO lost VALUES (?1)");
	db_bind_int(st, 1, 10);
	db_bind_int(st, 2, 2);
	step_is(c, st, DB_ROW);
	ck_assert_int_eq(db_column_int(st, 0), 20);
	db_reset(st);

	terminate(c);
	db_bind_int(ins, 1, 4);
	step_is(c, ins, DB_GONE);   /* a write that may or may not be done */
	ck_assert_int_eq(db_errcode(c), DB_GONE);
	ck_assert_msg(*db_errmsg(c) && !strchr(db_errmsg(c), '\n'), "%s",
	              db_errmsg(c));
	ck_assert_int_eq(db_in_transaction(c), 0);
	/* the next call opens the connection again, and both statements
	 * are prepared again in the new session */
	db_bind_int(st, 1, 10);
	db_bind_int(st, 2, 2);
	step_is(c, st, DB_ROW);
	ck_assert_int_eq(db_column_int(st, 0), 20);
	step_is(c, st, DB_ROW);
	ck_assert_int_eq(db_column_int(st, 0), 30);
	step_is(c, st, DB_DONE);
	db_reset(ins);
	db_bind_int(ins, 1, 5);
	step_is(c, ins, DB_DONE);
	ck_assert_int_eq(db_changes(c), 1);
	ck_assert_int_eq(value(c, "SELECT count(*) FROM lost"), 4);
	db_finalize(st);
	db_finalize(ins);
	db_close(c);
}
END_TEST

START_TEST(test_pg_a_transaction_lost_with_its_connection_must_be_rolled_back)
{
	db_conn *c = open_ok();

	exec_ok(c, "DROP TABLE IF EXISTS lost_tx; CREATE TABLE lost_tx (n int)");
	db_stmt *ins = prepare_ok(c, "INSERT INTO lost_tx VALUES (?1)");
	exec_ok(c, "BEGIN");
	db_bind_int(ins, 1, 1);
	step_is(c, ins, DB_DONE);
	db_reset(ins);

	terminate(c);
	db_bind_int(ins, 1, 2);
	step_is(c, ins, DB_GONE);
	/* the rest of the transaction must not run outside it: the loss is
	 * the answer until the store rolls back */
	ck_assert_int_eq(db_in_transaction(c), 1);
	step_is(c, ins, DB_GONE);
	ck_assert_int_eq(db_exec(c, "INSERT INTO lost_tx VALUES (3)"), DB_GONE);
	exec_ok(c, "ROLLBACK");
	ck_assert_int_eq(db_in_transaction(c), 0);
	ck_assert_int_eq(value(c, "SELECT count(*) FROM lost_tx"), 0);

	/* a COMMIT after the loss says it did not commit */
	exec_ok(c, "BEGIN");
	terminate(c);
	ck_assert_int_eq(db_exec(c, "INSERT INTO lost_tx VALUES (4)"), DB_GONE);
	ck_assert_int_eq(db_exec(c, "COMMIT"), DB_GONE);
	ck_assert_msg(strstr(db_errmsg(c), "did not commit"), "%s",
	              db_errmsg(c));
	ck_assert_int_eq(db_in_transaction(c), 0);
	ck_assert_int_eq(value(c, "SELECT count(*) FROM lost_tx"), 0);
	db_finalize(ins);
	db_close(c);
}
END_TEST

/* ---- waking a worker ---------------------------------------------------- */

/* 1 if c's wake descriptor turns readable within ms milliseconds and c
 * then says it was woken. */
static int woken_within(db_conn *c, int ms)
{
	int fd = db_wake_fd(c);

	ck_assert_msg(fd >= 0, "no wake descriptor: %s", db_errmsg(c));
	if (db_woken(c))
		return 1;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, ms) == 1 && db_woken(c);
}

START_TEST(test_pg_a_listener_is_woken_by_another_connections_commit)
{
	db_conn *waiter = open_ok(), *other = open_ok();

	ck_assert_int_ge(db_wake_fd(waiter), 0);
	ck_assert_int_eq(db_woken(waiter), 0);
	/* a notification is sent when its transaction commits, not before,
	 * and never if it rolls back */
	exec_ok(other, "BEGIN; NOTIFY buffertime_work, 'public'");
	ck_assert_int_eq(woken_within(waiter, 300), 0);
	exec_ok(other, "ROLLBACK");
	ck_assert_int_eq(woken_within(waiter, 300), 0);
	/* another instance's work (its schema's) is not this one's */
	exec_ok(other, "NOTIFY buffertime_work, 'elsewhere'");
	ck_assert_int_eq(woken_within(waiter, 300), 0);
	exec_ok(other, "BEGIN; NOTIFY buffertime_work, 'public'; "
	               "NOTIFY buffertime_work, 'public'");
	exec_ok(other, "COMMIT");
	ck_assert_int_eq(woken_within(waiter, 10000), 1);
	/* woken once: the wake-ups were forgotten */
	ck_assert_int_eq(db_woken(waiter), 0);
	/* the waiter's own statements may read a wake-up off the socket
	 * first: it still counts */
	exec_ok(other, "NOTIFY buffertime_work, 'public'");
	ck_assert_int_eq(woken_within(waiter, 10000), 1);
	exec_ok(other, "NOTIFY buffertime_work, 'public'");
	int got = 0;
	for (int i = 0; i < 500 && !got; i++) {
		poll(NULL, 0, 20);
		ck_assert_int_eq(value(waiter, "SELECT 1"), 1);
		got = db_woken(waiter);
	}
	ck_assert_int_eq(got, 1);
	ck_assert_int_eq(db_woken(waiter), 0);
	db_close(other);
	db_close(waiter);
}
END_TEST

START_TEST(test_pg_a_listener_listens_again_on_a_new_connection)
{
	db_conn *waiter = open_ok(), *other = open_ok();

	ck_assert_int_ge(db_wake_fd(waiter), 0);
	terminate(waiter);
	/* the lost connection wakes the waiter, to find out and reconnect */
	ck_assert_int_eq(woken_within(waiter, 10000), 1);
	ck_assert_int_eq(value(waiter, "SELECT 2"), 2);
	exec_ok(other, "NOTIFY buffertime_work, 'public'");
	ck_assert_int_eq(woken_within(waiter, 10000), 1);
	db_close(other);
	db_close(waiter);
}
END_TEST

static Suite *driver_pg_suite(void)
{
	Suite *s = suite_create("driver_pg");
	TCase *tc = tcase_create("driver_pg");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_pg_numbered_parameters_become_the_servers_own);
	tcase_add_test(tc, test_pg_unnumbered_parameters_are_refused_in_words);
	tcase_add_test(tc, test_pg_open_says_where_it_could_not_connect);
	tcase_add_test(tc, test_pg_int64_extremes_round_trip);
	tcase_add_test(tc, test_pg_doubles_round_trip_exactly);
	tcase_add_test(tc, test_pg_text_keeps_quotes_utf8_and_empty_apart_from_null);
	tcase_add_test(tc, test_pg_blobs_with_nul_bytes_round_trip_exactly);
	tcase_add_test(tc, test_pg_reset_forgets_the_values);
	tcase_add_test(tc, test_pg_steps_over_rows_then_done_then_runs_again);
	tcase_add_test(tc, test_pg_changes_count_the_last_write);
	tcase_add_test(tc, test_pg_unique_violation_is_a_constraint);
	tcase_add_test(tc, test_pg_a_held_lock_is_busy);
	tcase_add_test(tc, test_pg_exec_runs_a_script_of_several_statements);
	tcase_add_test(tc, test_pg_in_transaction_follows_begin_commit_rollback);
	tcase_add_test(tc, test_pg_a_lost_connection_is_opened_again_and_reprepared);
	tcase_add_test(tc, test_pg_a_transaction_lost_with_its_connection_must_be_rolled_back);
	tcase_add_test(tc, test_pg_a_listener_is_woken_by_another_connections_commit);
	tcase_add_test(tc, test_pg_a_listener_listens_again_on_a_new_connection);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	const char *url = getenv("BT_PG_URL");

	if (!url || !*url) {
		fprintf(stderr, "check_driver_pg: BT_PG_URL is not set: run "
		        "tests/driver_pg.sh (make check TESTS=tests/driver_pg.sh),"
		        " which starts a PostgreSQL server for this suite\n");
		return EXIT_FAILURE;
	}
	SRunner *sr = srunner_create(driver_pg_suite());
	srunner_add_suite(sr, driver_pg_ahead_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
