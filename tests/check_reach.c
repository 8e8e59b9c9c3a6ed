/*
 * check_reach.c - whether the crew can still win (rules/reach.c): the
 * ceiling is never below the Leisure of a later win check, over whole
 * games played by the random and the greedy crews, so "the crew can no
 * longer win" is never said of a game that could be won; and it is said
 * of some lost games before their end (it would be no use otherwise).
 */
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "game.h"
#include "policy.h"

enum { GAMES = 400, STATES_MAX = 2000 };

static long said, said_lost_games, lost_games, moves_warned;

/* One game by policy p from key: each state's ceiling against the
 * Leisure of every later win check (after each log). */
static void play_one(policy_fn p, const uint8_t key[BT_KEY_BYTES],
                     int players, uint64_t rng)
{
	static bt_action legal[BT_MAX_LEGAL];
	static int ceiling[STATES_MAX], checked[STATES_MAX];
	static bt_game state[STATES_MAX];
	bt_error err;
	bt_game g;
	int n = 0, first_out = -1;

	ck_assert_int_eq(bt_game_new(&g, players, 1, key, &err), 0);
	while (g.status == BT_PLAYING) {
		ck_assert_int_lt(n, STATES_MAX);
		state[n] = g;
		ceiling[n] = bt_leisure_ceiling(&g);
		ck_assert_int_ge(ceiling[n], g.leisure);
		if (bt_out_of_reach(&g) && first_out < 0)
			first_out = n;
		int k = bt_legal(&g, legal, BT_MAX_LEGAL);
		bt_action a = legal[p(&g, legal, k, &rng)];
		ck_assert_int_eq(bt_apply(&g, &a, &err), 0);
		checked[n] = a.verb == BT_LOG ? g.leisure : -1;
		n++;
	}
	ck_assert_int_eq(bt_leisure_ceiling(&g), g.leisure);
	ck_assert_int_eq(bt_out_of_reach(&g), 0);
	/* every state's ceiling holds for every later win check */
	int later = -1;
	for (int i = n - 1; i >= 0; i--) {
		if (checked[i] > later)
			later = checked[i];
		ck_assert_msg(ceiling[i] >= later, "state %d of %d (round %d, "
		              "Leisure %d): ceiling %d, but a later log reached "
		              "%d", i, n, state[i].round, state[i].leisure,
		              ceiling[i], later);
	}
	if (first_out >= 0) {
		ck_assert_msg(g.status == BT_LOST, "out of reach at move %d, "
		              "and then won", first_out);
		said++;
		said_lost_games++;
		moves_warned += n - first_out;
	}
	lost_games += g.status == BT_LOST;
}

static void play_many(policy_fn p, uint64_t seed)
{
	uint64_t rng = seed;

	for (int i = 0; i < GAMES; i++) {
		uint8_t key[BT_KEY_BYTES];
		for (int b = 0; b < BT_KEY_BYTES; b++)
			key[b] = (uint8_t)policy_rng_next(&rng);
		play_one(p, key, 2 + i % 5, policy_rng_next(&rng));
	}
}

START_TEST(test_ceiling_holds_for_the_random_crew)
{
	play_many(policy_random, 1);
}
END_TEST

START_TEST(test_ceiling_holds_for_the_greedy_crew)
{
	play_many(policy_greedy, 2);
}
END_TEST

/* Both crews together, so the counts are of one process: some lost
 * games are told so before their end. */
START_TEST(test_some_lost_games_are_told_early)
{
	said = said_lost_games = lost_games = moves_warned = 0;
	play_many(policy_random, 3);
	play_many(policy_greedy, 4);
	printf("out of reach before the end in %ld of %ld lost games, "
	       "%.1f moves before it on average\n", said_lost_games,
	       lost_games, said ? (double)moves_warned / (double)said : 0.0);
	ck_assert_msg(said_lost_games > 0, "never said, in %ld lost games",
	              lost_games);
}
END_TEST

/* A game that is over has no ceiling but its Leisure. */
START_TEST(test_ceiling_of_a_new_game_is_not_out_of_reach)
{
	uint8_t key[BT_KEY_BYTES] = { 9 };
	bt_error err;
	bt_game g;

	for (int players = 2; players <= 6; players++) {
		ck_assert_int_eq(bt_game_new(&g, players, 1, key, &err), 0);
		ck_assert_int_ge(bt_leisure_ceiling(&g), bt_goal(&g));
		ck_assert_int_eq(bt_out_of_reach(&g), 0);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("reach");
	TCase *tc = tcase_create("reach");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_ceiling_holds_for_the_random_crew);
	tcase_add_test(tc, test_ceiling_holds_for_the_greedy_crew);
	tcase_add_test(tc, test_some_lost_games_are_told_early);
	tcase_add_test(tc, test_ceiling_of_a_new_game_is_not_out_of_reach);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
