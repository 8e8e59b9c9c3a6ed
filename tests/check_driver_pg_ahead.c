/*
 * check_driver_pg_ahead.c - reading ahead (db/driver_pg_ahead.c) against
 * the real server of check_driver_pg.c: the rows read together answer
 * later runs with the same values, from one snapshot, and never where
 * they could be stale (a write, a transaction that may write, other
 * values, the end of the request); a read-only transaction whose reads
 * were all read ahead needs no server; a statement that fails in the
 * pipeline leaves the connection as it was.
 *
 * Another connection changes the rows between the read ahead and the
 * runs: a run that sees the old value was answered from the rows read
 * ahead, one that sees the new value asked the server.  Inside a
 * transaction, rows read ahead answer inside it only.
 */
#include <stdint.h>

#include "check_driver_pg.h"

typedef struct rig {
	db_conn *c, *other;
	db_stmt *v_of;      /* SELECT v FROM ra WHERE n = ?1 */
	db_stmt *count;     /* SELECT count(*) FROM ra */
} rig;

static rig rig_up(void)
{
	rig r;

	r.c = open_ok();
	r.other = open_ok();
	exec_ok(r.c, "DROP TABLE IF EXISTS ra; CREATE TABLE ra (n int PRIMARY "
	        "KEY, v int); INSERT INTO ra VALUES (1, 10), (2, 20)");
	r.v_of = prepare_ok(r.c, "SELECT v FROM ra WHERE n = ?1");
	r.count = prepare_ok(r.c, "SELECT count(*) FROM ra");
	return r;
}

static void rig_down(rig *r)
{
	db_finalize(r->v_of);
	db_finalize(r->count);
	db_close(r->c);
	db_close(r->other);
}

/* Reads v of row 1 and the count ahead, then has the other connection
 * make row 1's v 11 and add row 3. */
static void read_ahead_then_change(rig *r)
{
	db_stmt *both[2] = { r->v_of, r->count };

	db_bind_int(r->v_of, 1, 1);
	ck_assert_int_eq(db_read_ahead(r->c, both, 2), DB_OK);
	db_reset(r->v_of);
	db_reset(r->count);
	exec_ok(r->other, "UPDATE ra SET v = 11 WHERE n = 1; "
	        "INSERT INTO ra VALUES (3, 30)");
}

static int64_t v_of(rig *r, int n)
{
	db_bind_int(r->v_of, 1, n);
	step_is(r->c, r->v_of, DB_ROW);
	int64_t v = db_column_int64(r->v_of, 0);
	step_is(r->c, r->v_of, DB_DONE);
	db_reset(r->v_of);
	return v;
}

static int64_t count(rig *r)
{
	step_is(r->c, r->count, DB_ROW);
	int64_t v = db_column_int64(r->count, 0);
	db_reset(r->count);
	return v;
}

START_TEST(test_pg_rows_read_ahead_answer_runs_with_the_same_values)
{
	rig r = rig_up();

	read_ahead_then_change(&r);
	/* one snapshot, taken before the change; twice, the same rows */
	ck_assert_int_eq(v_of(&r, 1), 10);
	ck_assert_int_eq(v_of(&r, 1), 10);
	ck_assert_int_eq(count(&r), 2);
	/* other values were not read ahead: the server answers */
	ck_assert_int_eq(v_of(&r, 3), 30);
	/* the request is over: what comes next reads anew */
	db_read_ahead_drop(r.c);
	ck_assert_int_eq(v_of(&r, 1), 11);
	ck_assert_int_eq(count(&r), 3);
	rig_down(&r);
}
END_TEST

START_TEST(test_pg_a_write_drops_the_rows_read_ahead)
{
	rig r = rig_up();

	read_ahead_then_change(&r);
	exec_ok(r.c, "UPDATE ra SET v = 21 WHERE n = 2");
	ck_assert_int_eq(v_of(&r, 1), 11);
	ck_assert_int_eq(count(&r), 3);

	/* a write through a prepared statement too */
	exec_ok(r.c, "DELETE FROM ra WHERE n = 3; UPDATE ra SET v = 10");
	read_ahead_then_change(&r);
	db_stmt *w = prepare_ok(r.c, "UPDATE ra SET v = ?1 WHERE n = 2");
	db_bind_int(w, 1, 22);
	step_is(r.c, w, DB_DONE);
	db_finalize(w);
	ck_assert_int_eq(v_of(&r, 1), 11);
	ck_assert_int_eq(count(&r), 3);
	rig_down(&r);
}
END_TEST

START_TEST(test_pg_a_transaction_that_may_write_reads_the_server)
{
	rig r = rig_up();

	read_ahead_then_change(&r);
	exec_ok(r.c, "BEGIN");
	ck_assert_int_eq(v_of(&r, 1), 11);
	exec_ok(r.c, "ROLLBACK");
	/* what BEGIN dropped stays dropped */
	ck_assert_int_eq(count(&r), 3);

	/* a script that begins and locks, as the store's writers do */
	exec_ok(r.c, "DELETE FROM ra WHERE n = 3");
	read_ahead_then_change(&r);
	exec_ok(r.c, "BEGIN; SELECT pg_advisory_xact_lock(42)");
	ck_assert_int_eq(count(&r), 3);
	exec_ok(r.c, "COMMIT");
	rig_down(&r);
}
END_TEST

START_TEST(test_pg_a_read_only_transaction_begins_only_when_it_must)
{
	rig r = rig_up();
	db_stmt *begin = prepare_ok(r.c, "BEGIN ISOLATION LEVEL REPEATABLE READ,"
	                            " READ ONLY");

	/* every read answered ahead: the transaction never reached the
	 * server, and ends without it */
	read_ahead_then_change(&r);
	step_is(r.c, begin, DB_DONE);
	db_reset(begin);
	ck_assert_int_eq(db_in_transaction(r.c), 1);
	ck_assert_int_eq(v_of(&r, 1), 10);
	ck_assert_int_eq(count(&r), 2);
	ck_assert_int_eq(db_exec(r.c, "ROLLBACK"), DB_OK);
	ck_assert_int_eq(db_in_transaction(r.c), 0);
	ck_assert_int_eq(value(r.c, "SELECT count(*) FROM ra"), 3);

	/* a read not read ahead begins it on the server first: from then on
	 * the transaction's snapshot answers, not the rows read ahead */
	exec_ok(r.c, "DELETE FROM ra WHERE n = 3; UPDATE ra SET v = 10 "
	        "WHERE n = 1");
	read_ahead_then_change(&r);
	step_is(r.c, begin, DB_DONE);
	db_reset(begin);
	ck_assert_int_eq(v_of(&r, 2), 20);
	exec_ok(r.other, "UPDATE ra SET v = 12 WHERE n = 1");
	ck_assert_int_eq(v_of(&r, 1), 11);
	ck_assert_int_eq(db_exec(r.c, "INSERT INTO ra VALUES (4, 40)"),
	                 DB_ERROR);     /* read only: it is on the server */
	ck_assert_int_eq(db_exec(r.c, "ROLLBACK"), DB_OK);
	ck_assert_int_eq(db_in_transaction(r.c), 0);
	ck_assert_int_eq(v_of(&r, 1), 12);
	db_finalize(begin);
	rig_down(&r);
}
END_TEST

START_TEST(test_pg_a_statement_failing_ahead_fails_when_run)
{
	rig r = rig_up();
	db_stmt *div = prepare_ok(r.c, "SELECT 100 / ?1");
	db_stmt *all[3] = { r.v_of, div, r.count };

	db_bind_int(r.v_of, 1, 1);
	db_bind_int(div, 1, 0);
	ck_assert_int_eq(db_read_ahead(r.c, all, 3), DB_OK);
	for (int i = 0; i < 3; i++)
		db_reset(all[i]);
	/* the connection is as it was, outside a transaction */
	ck_assert_int_eq(db_in_transaction(r.c), 0);
	db_bind_int(div, 1, 0);
	ck_assert_int_eq(db_step(div), DB_ERROR);
	db_reset(div);
	db_bind_int(div, 1, 4);
	step_is(r.c, div, DB_ROW);
	ck_assert_int_eq(db_column_int(div, 0), 25);
	db_reset(div);
	ck_assert_int_eq(v_of(&r, 1), 10);
	ck_assert_int_eq(count(&r), 2);
	db_finalize(div);
	rig_down(&r);
}
END_TEST

START_TEST(test_pg_rows_read_inside_a_transaction_answer_only_inside_it)
{
	rig r = rig_up();
	db_stmt *both[2] = { r.v_of, r.count };

	exec_ok(r.c, "BEGIN");
	exec_ok(r.c, "UPDATE ra SET v = 13 WHERE n = 1");
	db_bind_int(r.v_of, 1, 2);
	ck_assert_int_eq(db_read_ahead(r.c, both, 2), DB_OK);
	db_reset(r.v_of);
	ck_assert_int_eq(db_in_transaction(r.c), 1);
	/* the other connection commits; our rows read ahead are older */
	exec_ok(r.other, "UPDATE ra SET v = 21 WHERE n = 2; "
	        "INSERT INTO ra VALUES (3, 30)");
	ck_assert_int_eq(v_of(&r, 2), 20);
	ck_assert_int_eq(count(&r), 2);
	ck_assert_int_eq(v_of(&r, 1), 13);  /* the transaction's own write */
	exec_ok(r.c, "ROLLBACK");
	/* ended with the transaction */
	ck_assert_int_eq(v_of(&r, 2), 21);
	ck_assert_int_eq(count(&r), 3);
	ck_assert_int_eq(v_of(&r, 1), 10);
	rig_down(&r);
}
END_TEST

/* A statement finalized while it holds rows read ahead, and one being
 * read when a write drops them: nothing leaks, nothing is read after it
 * is freed (the sanitizer build runs this suite). */
START_TEST(test_pg_rows_read_ahead_outlive_neither_statement_nor_reader)
{
	rig r = rig_up();
	db_stmt *rows = prepare_ok(r.c, "SELECT n FROM ra ORDER BY n");
	db_stmt *both[2] = { rows, r.count };

	ck_assert_int_eq(db_read_ahead(r.c, both, 2), DB_OK);
	step_is(r.c, rows, DB_ROW);
	ck_assert_int_eq(db_column_int(rows, 0), 1);
	exec_ok(r.c, "UPDATE ra SET v = 0");       /* drops while reading */
	step_is(r.c, rows, DB_ROW);
	ck_assert_int_eq(db_column_int(rows, 0), 2);
	step_is(r.c, rows, DB_DONE);
	db_reset(rows);
	ck_assert_int_eq(db_read_ahead(r.c, both, 2), DB_OK);
	db_finalize(rows);
	ck_assert_int_eq(count(&r), 2);
	rig_down(&r);
}
END_TEST

Suite *driver_pg_ahead_suite(void)
{
	Suite *s = suite_create("driver_pg_ahead");
	TCase *tc = tcase_create("read ahead");

	tcase_add_test(tc, test_pg_rows_read_ahead_answer_runs_with_the_same_values);
	tcase_add_test(tc, test_pg_a_write_drops_the_rows_read_ahead);
	tcase_add_test(tc, test_pg_a_transaction_that_may_write_reads_the_server);
	tcase_add_test(tc, test_pg_a_read_only_transaction_begins_only_when_it_must);
	tcase_add_test(tc, test_pg_a_statement_failing_ahead_fails_when_run);
	tcase_add_test(tc, test_pg_rows_read_inside_a_transaction_answer_only_inside_it);
	tcase_add_test(tc, test_pg_rows_read_ahead_outlive_neither_statement_nor_reader);
	suite_add_tcase(s, tc);
	return s;
}
