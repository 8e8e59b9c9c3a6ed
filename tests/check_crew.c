/*
 * check_crew.c - a rematch chain is a crew (store_crew), on a real SQLite
 * file: a game alone is a crew of one; three games chained by "play
 * again", each played to its end by the greedy crew, come back oldest
 * first from any of their ids, with their results; the cap holds; a
 * cycle made by hand in the rematch column ends; bot moves are told; a
 * game's place in its chain is counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "fixture.h"
#include "policy.h"
#include "store.h"

enum { T0 = 1700000000 };

static char dir[FIXTURE_PATH_MAX], path[FIXTURE_PATH_MAX];
static store *st;
static store_crew_game crew[STORE_CREW_MAX];

static void setup(void)
{
	fixture_scratch("crew", dir, path);
	st = fixture_open(path);
	fixture_clock(T0);
}

static void teardown(void)
{
	store_close(st);
	fixture_remove(dir);
	fixture_clock(0);
}

/* A 2-seat game of people (seed given), or with a bot in seat 2. */
static void create(const char *seed, int bot, char id[STORE_ID_LEN + 1])
{
	store_new_game ng = { .players = 2, .first = 1, .seed = seed };
	store_error err;

	ng.bots[1] = bot ? "search" : NULL;
	ck_assert_msg(store_create(st, &ng, id, &err) == STORE_OK, "%s",
	              err.why);
}

/* Plays game id to its end with the greedy crew; its final state into
 * *end. */
static void play_out(const char *id, bt_game *end)
{
	static store_game g;
	bt_action legal[BT_MAX_LEGAL];
	store_error err;
	uint64_t rng = 1;
	int moves = 0;

	while (store_load(st, id, &g, &err) == STORE_OK &&
	       g.state.status == BT_PLAYING) {
		int n = bt_legal(&g.state, legal, BT_MAX_LEGAL);
		ck_assert_int_gt(n, 0);
		ck_assert_int_eq(store_append(st, id, g.seq,
		                 &legal[policy_greedy(&g.state, legal, n, &rng)],
		                 NULL, NULL, NULL, &err), STORE_OK);
		ck_assert_int_lt(++moves, 2000);
	}
	*end = g.state;
}

/* "Play again" on finished game id: the new game's id into again. */
static void rematch(const char *id, char again[STORE_ID_LEN + 1])
{
	store_error err;
	int made = 0;

	ck_assert_msg(store_rematch(st, id, NULL, NULL, NULL, again, &made,
	                            &err) == STORE_OK, "%s", err.why);
	ck_assert_int_eq(made, 1);
}

static int crew_of(const char *id, int cap)
{
	store_error err;
	int n = -1;

	ck_assert_msg(store_crew(st, id, crew, cap, &n, &err) == STORE_OK,
	              "%s", err.why);
	return n;
}

START_TEST(test_crew_a_game_alone_is_a_crew_of_one)
{
	char id[STORE_ID_LEN + 1];
	bt_game end;

	create("42", 0, id);
	ck_assert_int_eq(crew_of(id, STORE_CREW_MAX), 1);
	ck_assert_str_eq(crew[0].id, id);
	ck_assert_int_eq(crew[0].status, BT_PLAYING);
	ck_assert_int_eq(crew[0].players, 2);
	ck_assert_int_eq(crew[0].goal, bt_goal_for(2));
	ck_assert_int_eq(crew[0].bot_moved, 0);
	ck_assert_int_eq(crew[0].practice, 0);
	play_out(id, &end);
	ck_assert_int_eq(crew_of(id, STORE_CREW_MAX), 1);
	ck_assert_int_eq(crew[0].status, end.status);
	ck_assert_int_eq(crew[0].leisure, end.leisure);
}
END_TEST

START_TEST(test_crew_a_chain_comes_back_in_order_from_any_game)
{
	char ids[3][STORE_ID_LEN + 1];
	bt_game end[3];
	store_error err;
	int n;

	create("42", 0, ids[0]);
	play_out(ids[0], &end[0]);
	fixture_clock(T0 + 100);
	rematch(ids[0], ids[1]);
	play_out(ids[1], &end[1]);
	fixture_clock(T0 + 200);
	rematch(ids[1], ids[2]);
	play_out(ids[2], &end[2]);
	for (int from = 0; from < 3; from++) {
		ck_assert_int_eq(crew_of(ids[from], STORE_CREW_MAX), 3);
		for (int i = 0; i < 3; i++) {
			ck_assert_str_eq(crew[i].id, ids[i]);
			ck_assert_int_eq(crew[i].status, end[i].status);
			ck_assert_int_ne(crew[i].status, BT_PLAYING);
			ck_assert_int_eq(crew[i].leisure, end[i].leisure);
			ck_assert_int_eq(crew[i].goal, bt_goal(&end[i]));
			ck_assert_int_eq(crew[i].created, T0 + 100 * i);
		}
	}
	/* a chain still in play: the new game counts, as it is now */
	fixture_clock(T0 + 300);
	char fourth[STORE_ID_LEN + 1];
	rematch(ids[2], fourth);
	ck_assert_int_eq(crew_of(ids[0], STORE_CREW_MAX), 4);
	ck_assert_str_eq(crew[3].id, fourth);
	ck_assert_int_eq(crew[3].status, BT_PLAYING);
	ck_assert_int_eq(crew[3].leisure, 0);
	/* no such game */
	ck_assert_int_eq(store_crew(st, "nosuchgamenosuchgame00", crew,
	                            STORE_CREW_MAX, &n, &err), STORE_NOT_FOUND);
	ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_crew_the_cap_is_kept)
{
	char ids[4][STORE_ID_LEN + 1];
	bt_game end;

	create("7", 0, ids[0]);
	for (int i = 1; i < 4; i++) {
		play_out(ids[i - 1], &end);
		fixture_clock(T0 + 10 * i);
		rematch(ids[i - 1], ids[i]);
	}
	/* from the oldest: it and the next ones */
	ck_assert_int_eq(crew_of(ids[0], 2), 2);
	ck_assert_str_eq(crew[0].id, ids[0]);
	ck_assert_str_eq(crew[1].id, ids[1]);
	/* from the newest: the ones before it, and it */
	ck_assert_int_eq(crew_of(ids[3], 2), 2);
	ck_assert_str_eq(crew[0].id, ids[2]);
	ck_assert_str_eq(crew[1].id, ids[3]);
	/* a cap of one: the game itself */
	ck_assert_int_eq(crew_of(ids[2], 1), 1);
	ck_assert_str_eq(crew[0].id, ids[2]);
	/* more than STORE_CREW_MAX asks for STORE_CREW_MAX */
	ck_assert_int_eq(crew_of(ids[1], STORE_CREW_MAX + 10), 4);
}
END_TEST

START_TEST(test_crew_a_cycle_in_the_data_ends)
{
	char ids[3][STORE_ID_LEN + 1], sql[256];
	bt_game end;

	create("42", 0, ids[0]);
	for (int i = 1; i < 3; i++) {
		play_out(ids[i - 1], &end);
		fixture_clock(T0 + 10 * i);
		rematch(ids[i - 1], ids[i]);
	}
	/* by hand: the newest "made" the oldest, and a game its own */
	snprintf(sql, sizeof sql, "UPDATE games SET rematch = '%s' WHERE id ="
	         " '%s' RETURNING 1", ids[0], ids[2]);
	ck_assert_int_eq(fixture_sql_value(path, sql), 1);
	for (int from = 0; from < 3; from++) {
		ck_assert_int_eq(crew_of(ids[from], STORE_CREW_MAX), 3);
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < i; j++)
				ck_assert_str_ne(crew[i].id, crew[j].id);
	}
	snprintf(sql, sizeof sql, "UPDATE games SET rematch = id WHERE id ="
	         " '%s' RETURNING 1", ids[1]);
	ck_assert_int_eq(fixture_sql_value(path, sql), 1);
	ck_assert_int_le(crew_of(ids[1], STORE_CREW_MAX), 3);
	ck_assert_int_ge(crew_of(ids[1], STORE_CREW_MAX), 1);
}
END_TEST

START_TEST(test_crew_bot_moves_and_hints_are_told)
{
	char bots[STORE_ID_LEN + 1], again[STORE_ID_LEN + 1];
	store_new_game ng = { .players = 2, .first = 1, .seed = "9",
	                      .practice = 1 };
	char practice[STORE_ID_LEN + 1];
	static store_game g;
	bt_action legal[BT_MAX_LEGAL];
	store_error err;
	bt_game end;

	create("42", 1, bots);         /* seat 2 is a bot's */
	ck_assert_int_eq(crew_of(bots, STORE_CREW_MAX), 1);
	ck_assert_int_eq(crew[0].bot_moved, 1);
	/* people's seats, but a line a stand-in made */
	ck_assert_int_eq(store_create(st, &ng, practice, &err), STORE_OK);
	ck_assert_int_eq(crew_of(practice, STORE_CREW_MAX), 1);
	ck_assert_int_eq(crew[0].practice, 1);
	ck_assert_int_eq(crew[0].bot_moved, 0);
	ck_assert_int_eq(store_load(st, practice, &g, &err), STORE_OK);
	ck_assert_int_gt(bt_legal(&g.state, legal, BT_MAX_LEGAL), 0);
	ck_assert_int_eq(store_append_as(st, practice, g.seq, &legal[0],
	                 "stand-in", NULL, NULL, NULL, &err), STORE_OK);
	ck_assert_int_eq(crew_of(practice, STORE_CREW_MAX), 1);
	ck_assert_int_eq(crew[0].bot_moved, 1);
	/* its rematch: a practice table too, no bot line yet */
	play_out(practice, &end);
	rematch(practice, again);
	ck_assert_int_eq(crew_of(again, STORE_CREW_MAX), 2);
	ck_assert_int_eq(crew[1].practice, 1);
	ck_assert_int_eq(crew[1].bot_moved, 0);
	ck_assert_int_eq(crew[0].bot_moved, 1);
}
END_TEST

/* store_crew_place: how many games came before, from the chain alone
 * (what names a rematch "rematch 2"); a cycle ends. */
START_TEST(test_crew_place_counts_the_games_before)
{
	char ids[3][STORE_ID_LEN + 1], sql[256];
	store_error err;
	bt_game end;
	int before = -1;

	create("42", 0, ids[0]);
	for (int i = 1; i < 3; i++) {
		play_out(ids[i - 1], &end);
		fixture_clock(T0 + 10 * i);
		rematch(ids[i - 1], ids[i]);
	}
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(store_crew_place(st, ids[i], &before, &err),
		                 STORE_OK);
		ck_assert_int_eq(before, i);
	}
	ck_assert_int_eq(store_crew_place(st, "nosuchgamenosuchgame00",
	                                  &before, &err), STORE_OK);
	ck_assert_int_eq(before, 0);
	snprintf(sql, sizeof sql, "UPDATE games SET rematch = '%s' WHERE id ="
	         " '%s' RETURNING 1", ids[0], ids[2]);
	ck_assert_int_eq(fixture_sql_value(path, sql), 1);
	ck_assert_int_eq(store_crew_place(st, ids[1], &before, &err),
	                 STORE_OK);
	ck_assert_int_eq(before, 2);
}
END_TEST

static Suite *crew_suite(void)
{
	Suite *s = suite_create("crew");
	TCase *tc = tcase_create("crew");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_crew_a_game_alone_is_a_crew_of_one);
	tcase_add_test(tc, test_crew_a_chain_comes_back_in_order_from_any_game);
	tcase_add_test(tc, test_crew_the_cap_is_kept);
	tcase_add_test(tc, test_crew_a_cycle_in_the_data_ends);
	tcase_add_test(tc, test_crew_bot_moves_and_hints_are_told);
	tcase_add_test(tc, test_crew_place_counts_the_games_before);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(crew_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
