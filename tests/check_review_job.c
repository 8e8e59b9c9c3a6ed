/*
 * check_review_job.c - the worker's review of a finished game, on a real
 * database: the last move queues the review job; the worker weighs
 * the moves a slice at a time (each slice adds moves, none twice) until
 * all are in; the figures kept are those the review computes at once
 * from the game's record (bots/review.c), with the game's own seed; a
 * game still in play has nothing to review.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "driver.h"
#include "fixture.h"
#include "policy.h"
#include "review.h"
#include "review_job.h"
#include "store.h"

enum { T0 = 1700000000, ROLLOUTS = 60 };

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;
static bot *b;

static void setup(void)
{
	fixture_scratch("review-job", dir, path);
	st = fixture_open(path);
	fixture_clock(T0);
	ck_assert_ptr_nonnull(b = bot_new());
}

static void teardown(void)
{
	bot_free(b);
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

/* A 3-seat game of people, played to its end by the greedy crew;
 * returns its number of moves. */
static int finished_game(char id[STORE_ID_LEN + 1])
{
	static store_game g;
	store_new_game ng = { .players = 3, .first = 1, .seed = "42" };
	bt_action legal[BT_MAX_LEGAL];
	store_error err;
	uint64_t rng = 3;
	int moves = 0;

	ck_assert_int_eq(store_create(st, &ng, id, &err), STORE_OK);
	for (;;) {
		ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
		if (g.state.status != BT_PLAYING)
			return moves;
		int n = bt_legal(&g.state, legal, BT_MAX_LEGAL);
		int pick = policy_greedy(&g.state, legal, n, &rng);
		ck_assert_int_eq(store_append(st, id, g.seq, &legal[pick], NULL,
		                              NULL, NULL, &err), STORE_OK);
		ck_assert_int_lt(++moves, 2000);
	}
}

START_TEST(test_review_job_weighs_every_move_once)
{
	static store_review_move rows[REVIEW_MAX_MOVES];
	static bt_record rec;
	static review rv;
	char id[STORE_ID_LEN + 1];
	store_error err;
	bt_error berr;
	store_job j;
	int moves = finished_game(id), finished = 0, n = 0, steps = 0;

	ck_assert_int_eq(store_job_claim(st, T0, 60, &j, &err), STORE_OK);
	ck_assert_str_eq(j.kind, "review");
	ck_assert_str_eq(j.game, id);
	while (!finished) {
		int before = n;
		ck_assert_msg(review_job_step(st, b, ROLLOUTS, &j, &finished,
		                              &err) == STORE_OK, "%s", err.why);
		ck_assert_int_eq(store_review_get(st, id, rows, REVIEW_MAX_MOVES,
		                                  &n, &err), STORE_OK);
		ck_assert_int_gt(n, before);            /* progress each step */
		ck_assert_int_lt(++steps, moves + 1);
	}
	ck_assert_int_eq(n, moves);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM "
	                                   "review_moves"), moves);
	/* once all are in, another step adds nothing */
	ck_assert_int_eq(review_job_step(st, b, ROLLOUTS, &j, &finished, &err),
	                 STORE_OK);
	ck_assert_int_eq(finished, 1);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM "
	                                   "review_moves"), moves);

	/* the figures are the review of the game's record, computed at once */
	ck_assert_int_eq(store_export(st, id, 1, &rec, &err), STORE_OK);
	ck_assert_int_eq(review_record(b, &rec, ROLLOUTS, review_job_seed(id),
	                               &rv, &berr), 0);
	ck_assert_int_eq(rv.nmoves, moves);
	for (int k = 0; k < moves; k++) {
		ck_assert(rows[k].before == rv.move[k].before);
		ck_assert(rows[k].played == rv.move[k].played);
		ck_assert_int_eq(rows[k].options, rv.move[k].options);
		ck_assert_int_eq(rows[k].best_verb, rv.move[k].best.verb);
		ck_assert_int_eq(rows[k].best_card, rv.move[k].best.card);
		ck_assert_int_eq(rows[k].best_is_played, rv.move[k].best_is_played);
	}
}
END_TEST

/* The worker's quick phase (bot moves, hints: before the emails) never
 * claims a review; the slow one (after them) claims only reviews. */
START_TEST(test_review_job_waits_for_the_slow_phase)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_job j;

	finished_game(id);
	ck_assert_int_eq(store_job_claim_phase(st, T0, 60, 0, &j, &err),
	                 STORE_NOT_FOUND);
	ck_assert_int_eq(store_job_claim_phase(st, T0, 60, 1, &j, &err),
	                 STORE_OK);
	ck_assert_str_eq(j.kind, "review");
	ck_assert_int_eq(store_job_later(st, j.id, T0, &err), STORE_OK);
	ck_assert_int_eq(store_job_claim_phase(st, T0, 60, 1, &j, &err),
	                 STORE_OK);
	ck_assert_int_eq(j.attempts, 2);
}
END_TEST

/* A worker killed after some moves are in goes on from there. */
START_TEST(test_review_job_goes_on_where_it_stopped)
{
	static store_review_move rows[REVIEW_MAX_MOVES];
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_job j;
	int moves = finished_game(id), finished = 0, n = 0;

	ck_assert_int_eq(store_job_claim(st, T0, 60, &j, &err), STORE_OK);
	ck_assert_int_eq(review_job_step(st, b, ROLLOUTS, &j, &finished, &err),
	                 STORE_OK);
	ck_assert_int_eq(store_review_get(st, id, rows, REVIEW_MAX_MOVES, &n,
	                                  &err), STORE_OK);
	store_review_move first = rows[0];
	/* as if killed: the rows after the first are lost */
	char sql[128];
	snprintf(sql, sizeof sql, "DELETE FROM review_moves WHERE move > 0 "
	         "RETURNING 1");
	fixture_sql_value(path, sql);
	finished = 0;
	while (!finished)
		ck_assert_int_eq(review_job_step(st, b, ROLLOUTS, &j, &finished,
		                                 &err), STORE_OK);
	ck_assert_int_eq(store_review_get(st, id, rows, REVIEW_MAX_MOVES, &n,
	                                  &err), STORE_OK);
	ck_assert_int_eq(n, moves);
	ck_assert(rows[0].before == first.before);
}
END_TEST

/* Another process that writes to the database, a small transaction
 * every half millisecond, until killed: the mailer and the web do so. */
static pid_t busy_writer(void)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid > 0)
		return pid;
	db_conn *db;
	char why[256];
	if (db_open(path, &db, why, sizeof why) != DB_OK)
		_exit(1);
	db_set_busy_timeout(db, 5000);
	db_exec(db, "CREATE TABLE IF NOT EXISTS scratch (x INTEGER)");
	for (;;) {
		db_exec(db, "INSERT INTO scratch VALUES (1)");
		nanosleep(&(struct timespec){ 0, 500000 }, NULL);
	}
}

/* The review writes its figures outside the walk's read of the game's
 * lines: a figure written while that read is open fails at once (its
 * snapshot is stale: no waiting helps) whenever anyone else wrote since
 * the walk began, and under a busy mailer the review never finished. */
START_TEST(test_review_job_goes_on_while_others_write)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_job j;
	int moves = finished_game(id), finished = 0, steps = 0;

	ck_assert_int_eq(store_job_claim(st, T0, 60, &j, &err), STORE_OK);
	pid_t writer = busy_writer();
	nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
	while (!finished && steps++ <= moves) {
		store_rc rc = review_job_step(st, b, ROLLOUTS, &j, &finished,
		                              &err);
		if (rc != STORE_OK) {
			kill(writer, SIGKILL);
			waitpid(writer, NULL, 0);
			ck_abort_msg("step %d: %s", steps, err.why);
		}
	}
	kill(writer, SIGKILL);
	waitpid(writer, NULL, 0);
	ck_assert_int_eq(finished, 1);
	ck_assert_int_eq(fixture_sql_value(path, "SELECT count(*) FROM "
	                                   "review_moves"), moves);
}
END_TEST

START_TEST(test_review_job_of_a_game_in_play_is_stale)
{
	store_new_game ng = { .players = 2, .first = 1, .seed = "7" };
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_job j = { .kind = "review", .seq = 0, .seat = 1 };
	int finished = 1;

	ck_assert_int_eq(store_create(st, &ng, id, &err), STORE_OK);
	memcpy(j.game, id, sizeof j.game);
	ck_assert_int_eq(review_job_step(st, b, ROLLOUTS, &j, &finished, &err),
	                 STORE_CONFLICT);
	ck_assert_int_eq(finished, 0);
	memcpy(j.game, "AAAAAAAAAAAAAAAAAAAAAA", sizeof j.game);
	ck_assert_int_eq(review_job_step(st, b, ROLLOUTS, &j, &finished, &err),
	                 STORE_CONFLICT);
}
END_TEST

/* The store keeps only figures that make sense. */
START_TEST(test_review_rows_are_checked)
{
	char id[STORE_ID_LEN + 1];
	store_error err;
	store_review_move m = { .move = 0, .before = 0.5, .played = 0.25,
	                        .options = 3 };
	int n;

	finished_game(id);
	ck_assert_int_eq(store_review_put(st, id, &m, &err), STORE_OK);
	m.before = 1.5;
	ck_assert_int_eq(store_review_put(st, id, &m, &err), STORE_INVALID);
	m.before = 0.5;
	m.options = 0;
	ck_assert_int_eq(store_review_put(st, id, &m, &err), STORE_INVALID);
	m.options = 1;
	m.move = -1;
	ck_assert_int_eq(store_review_put(st, id, &m, &err), STORE_INVALID);
	/* a gap: moves after it are not ready */
	m.move = 2;
	ck_assert_int_eq(store_review_put(st, id, &m, &err), STORE_OK);
	store_review_move rows[4];
	ck_assert_int_eq(store_review_get(st, id, rows, 4, &n, &err), STORE_OK);
	ck_assert_int_eq(n, 1);
	ck_assert(rows[0].played == 0.25);
}
END_TEST

static Suite *review_job_suite(void)
{
	Suite *s = suite_create("review_job");
	TCase *tc = tcase_create("review_job");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_review_job_weighs_every_move_once);
	tcase_add_test(tc, test_review_job_goes_on_where_it_stopped);
	tcase_add_test(tc, test_review_job_goes_on_while_others_write);
	tcase_add_test(tc, test_review_job_waits_for_the_slow_phase);
	tcase_add_test(tc, test_review_job_of_a_game_in_play_is_stale);
	tcase_add_test(tc, test_review_rows_are_checked);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(review_job_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
