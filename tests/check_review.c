/*
 * check_review.c - the review of a recorded game (bots/review.c) and the
 * estimates it is made of (bot_estimate_options, bots/search.c):
 *
 *   - every move gets figures in 0..1; each move's after is the next
 *     one's before, the last one's the result; the turning points are
 *     the moves with the largest swings, largest first;
 *   - stack lines (a rigged record) are followed: the rigged loss is
 *     reviewed as lost, its last move taking the chance to 0;
 *   - the same record, budget and seed give the same review, and so
 *     does computing it a move at a time;
 *   - honesty: a world drawn from the mover's observation (other hands
 *     and deck orders changed) gives byte-identical estimates.
 *
 * Small budgets: the file runs in seconds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "game.h"
#include "observe.h"
#include "policy.h"
#include "record.h"
#include "review.h"
#include "search.h"

enum { ROLLOUTS = 150 };

static bot *b;
static review *rv, *again;
static bt_record rec;
static bt_replay rp;

static void setup(void)
{
	b = bot_new();
	rv = malloc(sizeof *rv);
	again = malloc(sizeof *again);
	ck_assert(b && rv && again);
}

static void teardown(void)
{
	bot_free(b);
	free(rv);
	free(again);
}

/* rec: a greedy game at players from a fixed key, as a record. */
static void greedy_record(int players, uint64_t s)
{
	static const char seed[] = "00112233445566778899aabbccddeeff";
	bt_action legal[BT_MAX_LEGAL];
	bt_error err;
	bt_game g;

	ck_assert_int_eq(bt_record_init(&rec, players, 1, seed,
	                                sizeof seed - 1, &err), 0);
	ck_assert_int_eq(bt_game_new(&g, players, 1, rec.key, &err), 0);
	while (g.status == BT_PLAYING) {
		int n = bt_legal(&g, legal, BT_MAX_LEGAL);
		const bt_action *a = &legal[policy_greedy(&g, legal, n, &s)];
		ck_assert_int_eq(bt_record_add_action(&rec, a, &err), 0);
		ck_assert_int_eq(bt_apply(&g, a, &err), 0);
	}
}

static double swing(const review_move *m)
{
	return fabs(m->after - m->before);
}

/* What every review must be, whatever the game. */
static void check_shape(const review *r, int moves, int won)
{
	ck_assert_int_eq(r->nmoves, moves);
	ck_assert_int_eq(r->won, won);
	for (int k = 0; k < r->nmoves; k++) {
		const review_move *m = &r->move[k];
		ck_assert(m->before >= 0 && m->before <= 1);
		ck_assert(m->played >= 0 && m->played <= 1);
		ck_assert_int_ge(m->options, 1);
		/* before is the best option's chance: none did better */
		ck_assert(m->before >= m->played);
		if (m->best_is_played)
			ck_assert(m->before == m->played);
		if (k + 1 < r->nmoves)
			ck_assert(m->after == r->move[k + 1].before);
	}
	ck_assert(r->move[r->nmoves - 1].after == (won ? 1.0 : 0.0));
	ck_assert_int_eq(r->nturning, moves < REVIEW_TURNING_POINTS
	                              ? moves : REVIEW_TURNING_POINTS);
	for (int t = 0; t < r->nturning; t++) {
		ck_assert_int_ge(r->turning[t], 0);
		ck_assert_int_lt(r->turning[t], r->nmoves);
		if (t > 0) {
			ck_assert_int_ne(r->turning[t], r->turning[t - 1]);
			ck_assert(swing(&r->move[r->turning[t]]) <=
			          swing(&r->move[r->turning[t - 1]]));
		}
	}
	/* no move left out swings more than the last one kept */
	double least = swing(&r->move[r->turning[r->nturning - 1]]);
	for (int k = 0; k < r->nmoves; k++) {
		int kept = 0;
		for (int t = 0; t < r->nturning; t++)
			kept |= r->turning[t] == k;
		if (!kept)
			ck_assert(swing(&r->move[k]) <= least);
	}
}

START_TEST(test_review_of_greedy_games)
{
	bt_error err;

	greedy_record(2 + _i, 40 + (uint64_t)_i);
	ck_assert_msg(review_record(b, &rec, ROLLOUTS, 7, rv, &err) == 0,
	              "%s", err.why);
	int moves = 0;
	for (int i = 0; i < rec.nitems; i++)
		moves += rec.items[i].type == BT_ITEM_ACTION;
	bt_game g;
	ck_assert_int_eq(review_set_up(&rec, &g, &err), 0);
	for (int i = 0; i < rec.nitems; i++)
		ck_assert_int_eq(bt_apply(&g, &rec.items[i].action, &err), 0);
	check_shape(rv, moves, g.status == BT_WON);
	ck_assert_int_eq(rv->players, 2 + _i);
	ck_assert_int_eq(rv->leisure, g.leisure);
	ck_assert_int_eq(rv->goal, bt_goal(&g));

	/* the same seed, the same review; another seed, other figures */
	ck_assert_int_eq(review_record(b, &rec, ROLLOUTS, 7, again, &err), 0);
	ck_assert(memcmp(rv, again, sizeof *rv) == 0);
	ck_assert_int_eq(review_record(b, &rec, ROLLOUTS, 8, again, &err), 0);
	int differ = 0;
	for (int k = 0; k < rv->nmoves; k++)
		differ += rv->move[k].before != again->move[k].before;
	ck_assert_int_gt(differ, 0);
}
END_TEST

/* A review computed a move at a time (as the worker does, between bot
 * moves) is the review computed at once. */
START_TEST(test_review_move_by_move_is_the_same)
{
	bt_error err;
	bt_game g;
	int k = 0;

	greedy_record(3, 77);
	ck_assert_int_eq(review_record(b, &rec, ROLLOUTS, 5, rv, &err), 0);
	memset(again, 0, sizeof *again);
	ck_assert_int_eq(review_set_up(&rec, &g, &err), 0);
	for (int i = 0; i < rec.nitems; i++, k++) {
		review_move *m = &again->move[k];
		ck_assert_int_eq(review_weigh_move(b, &g, &rec.items[i].action,
		                                   ROLLOUTS, 5, k, m), 0);
		/* before is the search's chance, calibrated */
		ck_assert(m->before ==
		          review_calibrated(g.players, m->search_before));
		ck_assert_int_eq(bt_apply(&g, &rec.items[i].action, &err), 0);
		m->leisure_after = g.leisure;
	}
	again->nmoves = k;
	review_finish(again, &g);
	ck_assert(memcmp(rv, again, sizeof *rv) == 0);
}
END_TEST

/* tests/data/loss.rec: stack lines make every round end in a reprimand
 * until the crew loses. */
START_TEST(test_review_follows_stack_lines)
{
	const char *dir = getenv("TESTDATA");
	char path[4096], text[4096];
	bt_error err;
	FILE *f;
	size_t n;

	ck_assert_ptr_nonnull(dir);
	snprintf(path, sizeof path, "%s/loss.rec", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	n = fread(text, 1, sizeof text, f);
	fclose(f);
	bt_replay_init(&rp);
	ck_assert_int_eq(bt_replay_text(&rp, text, n, &err), 0);
	ck_assert_msg(review_record(b, &rp.rec, ROLLOUTS, 1, rv, &err) == 0,
	              "%s", err.why);
	check_shape(rv, 6, 0);
	ck_assert_int_eq(rv->players, 3);
	ck_assert_int_eq(rv->move[0].action.seat, 2);
	ck_assert_int_eq(rv->move[5].round, 5);
	/* the last move lost the game: it took the chance to nothing */
	ck_assert(rv->move[5].after == 0.0);
	ck_assert(rv->move[5].before > 0.0);
}
END_TEST

START_TEST(test_review_refuses_a_bad_budget)
{
	bt_error err;

	greedy_record(3, 1);
	ck_assert_int_eq(review_record(b, &rec, 0, 1, rv, &err), -1);
	ck_assert_int_eq(review_record(b, &rec, BOT_MAX_ROLLOUTS + 1, 1, rv,
	                               &err), -1);
}
END_TEST

static unsigned test_draw(void *ctx, unsigned bound)
{
	return (unsigned)policy_rng_below(ctx, bound);
}

/* A world drawn from the mover's observation looks the same to the
 * mover, so every estimate must come out byte for byte the same. */
START_TEST(test_estimates_see_only_the_movers_knowledge)
{
	static bot_estimate e1, e2;
	bot_budget budget = { ROLLOUTS, 0, 0 };
	bt_action legal[BT_MAX_LEGAL];
	uint64_t s = 5, draw = 99;
	int checked = 0, hidden_changed = 0;
	bt_error err;
	bt_game g, w;
	bt_obs o;

	greedy_record(4, 3);
	ck_assert_int_eq(review_set_up(&rec, &g, &err), 0);
	for (int i = 0; i < rec.nitems && g.status == BT_PLAYING; i++) {
		if (i % 5 == 0) {
			int seat = g.turn;
			ck_assert_int_eq(bt_observe(&g, seat, &o), 0);
			ck_assert_int_eq(bt_obs_sample(&o, test_draw, &draw, &w), 0);
			hidden_changed += memcmp(w.hand, g.hand, sizeof g.hand) != 0;
			ck_assert_int_eq(bot_estimate_options(b, &g, seat, 0,
			                 &budget, s, &e1), 0);
			ck_assert_int_eq(bot_estimate_options(b, &w, seat, 0,
			                 &budget, s, &e2), 0);
			ck_assert(memcmp(&e1, &e2, sizeof e1) == 0);
			ck_assert_int_eq(e1.games > 0, 1);
			checked++;
		}
		int n = bt_legal(&g, legal, BT_MAX_LEGAL);
		ck_assert_int_gt(n, 0);
		ck_assert_int_eq(bt_apply(&g, &rec.items[i].action, &err), 0);
	}
	ck_assert_int_gt(checked, 3);
	ck_assert_int_gt(hidden_changed, 0);
}
END_TEST

/* The calibration keeps the order of chances and never says certain. */
START_TEST(test_calibration_is_increasing_and_open)
{
	for (int players = BT_MIN_PLAYERS; players <= BT_MAX_PLAYERS; players++) {
		double last = 0.0;
		for (int i = 0; i <= 1000; i++) {
			double c = review_calibrated(players, i / 1000.0);
			ck_assert_msg(c > 0.0 && c < 1.0, "%d players: %g -> %g",
			              players, i / 1000.0, c);
			ck_assert(c >= last);
			last = c;
		}
		ck_assert(review_calibrated(players, 0.9) >
		          review_calibrated(players, 0.1));
	}
	ck_assert(review_calibrated(1, 0.25) == 0.25);   /* no such game */
}
END_TEST

static Suite *review_suite(void)
{
	Suite *s = suite_create("review");
	TCase *tc = tcase_create("review");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_review_of_greedy_games, 0, 5);
	tcase_add_test(tc, test_review_move_by_move_is_the_same);
	tcase_add_test(tc, test_review_follows_stack_lines);
	tcase_add_test(tc, test_review_refuses_a_bad_budget);
	tcase_add_test(tc, test_estimates_see_only_the_movers_knowledge);
	tcase_add_test(tc, test_calibration_is_increasing_and_open);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (sodium_init() < 0)
		return EXIT_FAILURE;
	SRunner *sr = srunner_create(review_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
