/*
 * check_hints.c - practice tables in the store and the worker, on a real
 * database: a practice game queues a hints job for every turn a
 * person has (made with the game, then with each move), none for a bot's
 * turn and none on a plain table; the worker's hints are each of the
 * seat's options with a chance in 0..1, the same for the same turn, and
 * a job for a turn gone by is stale; a rematch stays a practice table;
 * hints out of range are refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "hints_job.h"
#include "policy.h"
#include "store.h"

enum { T0 = 1700000000, ROLLOUTS = 80 };

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;
static bot *b;
static const bot_budget budget = { ROLLOUTS, 0, 0 };

static void setup(void)
{
	fixture_scratch("hints", dir, path);
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

static long long sql_value(const char *sql)
{
	return fixture_sql_value(path, sql);
}

/* A 3-seat game, seat 1 first; bots: a bit per seat; practice or not. */
static void create(unsigned bots, int practice, char id[STORE_ID_LEN + 1])
{
	store_new_game ng = { .players = 3, .first = 1, .seed = "42",
	                      .practice = practice };
	store_error err;

	for (int s = 0; s < 3; s++)
		ng.bots[s] = bots >> s & 1 ? "search" : NULL;
	ck_assert_msg(store_create(st, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
}

/* The greedy crew's move for the seat to move. */
static void play(const char *id)
{
	static store_game g;
	bt_action legal[BT_MAX_LEGAL];
	store_error err;
	uint64_t rng = 1;

	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	int n = bt_legal(&g.state, legal, BT_MAX_LEGAL);
	ck_assert_int_eq(store_append(st, id, g.seq,
	                              &legal[policy_greedy(&g.state, legal, n,
	                                                   &rng)],
	                              NULL, NULL, NULL, &err), STORE_OK);
}

START_TEST(test_hints_a_practice_game_queues_each_persons_turn)
{
	char id[STORE_ID_LEN + 1], plain[STORE_ID_LEN + 1];
	store_game g;
	store_error err;

	create(0, 1, id);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	ck_assert_int_eq(g.practice, 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs WHERE kind ="
	                           " 'hints' AND seq = 0 AND seat = 1"), 1);
	play(id);
	play(id);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs WHERE kind ="
	                           " 'hints'"), 3);
	ck_assert_int_eq(sql_value("SELECT count(DISTINCT seq) FROM jobs"
	                           " WHERE kind = 'hints'"), 3);
	/* a plain table: none */
	create(0, 0, plain);
	ck_assert_int_eq(store_load(st, plain, &g, &err), STORE_OK);
	ck_assert_int_eq(g.practice, 0);
	play(plain);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs WHERE kind ="
	                           " 'hints'"), 3);
}
END_TEST

START_TEST(test_hints_none_for_a_bots_turn)
{
	char id[STORE_ID_LEN + 1];

	create(1u << 1, 1, id);      /* seat 2 is a bot */
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs WHERE kind ="
	                           " 'hints'"), 1);
	play(id);                    /* seat 1 moves: seat 2, a bot, is next */
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs WHERE kind ="
	                           " 'hints'"), 1);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM jobs WHERE kind ="
	                           " 'move'"), 1);
}
END_TEST

START_TEST(test_hints_the_worker_weighs_every_option)
{
	static store_hint h[STORE_HINTS_MAX], again[STORE_HINTS_MAX];
	static store_game g;
	char id[STORE_ID_LEN + 1];
	bt_action legal[BT_MAX_LEGAL];
	store_error err;
	store_job j;
	int n, m;

	create(0, 1, id);
	ck_assert_int_eq(store_job_claim(st, T0, 60, &j, &err), STORE_OK);
	ck_assert_str_eq(j.kind, "hints");
	ck_assert_msg(hints_job_do(st, b, &budget, &j, &err) == STORE_OK, "%s",
	              err.why);
	ck_assert_int_eq(store_hints_get(st, id, 0, h, STORE_HINTS_MAX, &n,
	                                 &err), STORE_OK);
	ck_assert_int_eq(store_load(st, id, &g, &err), STORE_OK);
	int legal_n = bt_legal(&g.state, legal, BT_MAX_LEGAL);
	ck_assert_int_gt(n, 0);
	ck_assert_int_le(n, legal_n);
	for (int i = 0; i < n; i++) {
		ck_assert(h[i].chance >= 0.0 && h[i].chance <= 1.0);
		/* the drawn games behind it, for "about equal" */
		ck_assert_int_gt(h[i].games, 0);
		ck_assert(h[i].action[0] == '1');     /* seat 1's */
		int found = 0;
		for (int k = 0; k < legal_n; k++)
			found |= legal[k].verb == h[i].verb &&
			         legal[k].card == (bt_card)h[i].card;
		ck_assert_msg(found, "hint %s is no legal action", h[i].action);
	}
	/* work and log are always there to weigh */
	ck_assert_int_gt(sql_value("SELECT count(*) FROM hints WHERE action ="
	                           " '1 work'"), 0);
	/* done again: the same hints, not more */
	ck_assert_int_eq(hints_job_do(st, b, &budget, &j, &err), STORE_OK);
	ck_assert_int_eq(store_hints_get(st, id, 0, again, STORE_HINTS_MAX, &m,
	                                 &err), STORE_OK);
	ck_assert_int_eq(m, n);
	ck_assert(memcmp(h, again, (size_t)n * sizeof h[0]) == 0);
	/* the turn gone by: stale */
	play(id);
	ck_assert_int_eq(hints_job_do(st, b, &budget, &j, &err),
	                 STORE_CONFLICT);
}
END_TEST

START_TEST(test_hints_out_of_range_are_refused)
{
	char id[STORE_ID_LEN + 1];
	store_hint h = { "1 work", BT_WORK, BT_NO_CARD, 1.5, 2000 };
	store_error err;
	int n;

	create(0, 1, id);
	ck_assert_int_eq(store_hints_put(st, id, 0, &h, 1, &err), STORE_INVALID);
	h.chance = 0.5;
	h.games = -1;
	ck_assert_int_eq(store_hints_put(st, id, 0, &h, 1, &err), STORE_INVALID);
	h.games = 2000;
	h.action[0] = '\0';
	ck_assert_int_eq(store_hints_put(st, id, 0, &h, 1, &err), STORE_INVALID);
	ck_assert_int_eq(store_hints_put(st, id, 0, &h, STORE_HINTS_MAX + 1,
	                                 &err), STORE_INVALID);
	ck_assert_int_eq(store_hints_get(st, id, 0, &h, 1, &n, &err), STORE_OK);
	ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_hints_a_rematch_is_a_practice_table_too)
{
	char id[STORE_ID_LEN + 1], again[STORE_ID_LEN + 1];
	store_game g;
	store_error err;
	int made;

	create(0, 1, id);
	while (store_load(st, id, &g, &err) == STORE_OK &&
	       g.state.status == BT_PLAYING)
		play(id);
	ck_assert_int_eq(store_rematch(st, id, NULL, NULL, NULL, again, &made,
	                               &err), STORE_OK);
	ck_assert_int_eq(store_load(st, again, &g, &err), STORE_OK);
	ck_assert_int_eq(g.practice, 1);
}
END_TEST

static Suite *hints_suite(void)
{
	Suite *s = suite_create("hints");
	TCase *tc = tcase_create("hints");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hints_a_practice_game_queues_each_persons_turn);
	tcase_add_test(tc, test_hints_none_for_a_bots_turn);
	tcase_add_test(tc, test_hints_the_worker_weighs_every_option);
	tcase_add_test(tc, test_hints_out_of_range_are_refused);
	tcase_add_test(tc, test_hints_a_rematch_is_a_practice_table_too);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(hints_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
