/*
 * check_hint_words.c - a practice table's hint in words (words/hint.c):
 * options the estimate cannot tell apart are "about equal", the best
 * one says why from the table's own figures, and a form with several
 * choices speaks of its best.
 */
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "game.h"
#include "hint.h"
#include "offer.h"

static store_hint hint(int verb, int card, double chance, int games)
{
	store_hint h;

	memset(&h, 0, sizeof h);
	snprintf(h.action, sizeof h.action, "1 x");
	h.verb = verb;
	h.card = card;
	h.chance = chance;
	h.games = games;
	return h;
}

static bt_game new_game(void)
{
	uint8_t key[BT_KEY_BYTES] = { 5 };
	bt_error err;
	bt_game g;

	ck_assert_int_eq(bt_game_new(&g, 3, 1, key, &err), 0);
	return g;
}

static void line_of(const bt_game *g, const store_hint *h, int n, int verb,
                    int card, char *buf)
{
	hint_line(g, g->turn, h, n, verb, card, buf, HINT_LINE_MAX);
}

/* 62% and 60% over 2,000 games each: twice the standard error of the
 * difference is 3.1 points, so neither is called the best. */
START_TEST(test_close_options_are_about_equal)
{
	bt_game g = new_game();
	store_hint h[2] = { hint(BT_WORK, BT_NO_CARD, 0.62, 2000),
	                    hint(BT_SIDE, 3, 0.60, 2000) };
	char line[HINT_LINE_MAX];

	ck_assert(!hint_differs(&h[0], &h[1]));
	line_of(&g, h, 2, BT_WORK, BT_NO_CARD, line);
	ck_assert_msg(strstr(line, "Chance of winning: 62%, about equal")
	              && !strstr(line, "the best option."), "%s", line);
	ck_assert_msg(strstr(line, " Why: "), "%s", line);
	line_of(&g, h, 2, BT_SIDE, 3, line);
	ck_assert_msg(strstr(line, "Chance of winning: 60%, about equal")
	              && !strstr(line, "Why"), "%s", line);
}
END_TEST

/* 62% against 40%: the best says so and why, with the risk the seat
 * knows and the chance after; the other is a plain figure. */
START_TEST(test_the_best_says_why)
{
	bt_game g = new_game();
	store_hint h[2] = { hint(BT_WORK, BT_NO_CARD, 0.62, 2000),
	                    hint(BT_SIDE, 3, 0.40, 2000) };
	char line[HINT_LINE_MAX], risk[96], want[200];
	int num, den;

	ck_assert(hint_differs(&h[0], &h[1]));
	line_of(&g, h, 2, BT_WORK, BT_NO_CARD, line);
	bt_risk(&g, g.turn, &num, &den);
	offer_risk(num, den, risk, sizeof risk);
	snprintf(want, sizeof want, "the risk of a reprimand on the next draw "
	         "is %s", risk);
	ck_assert_msg(strstr(line, "Chance of winning: 62%, the best option."),
	              "%s", line);
	ck_assert_msg(strstr(line, want), "'%s' lacks '%s'", line, want);
	ck_assert_msg(strstr(line, "after this move the crew wins about 62 "
	                     "games in 100."), "%s", line);
	/* at the start Effort is below Target: no log to speak of */
	ck_assert_msg(!strstr(line, "logging"), "%s", line);
	line_of(&g, h, 2, BT_SIDE, 3, line);
	ck_assert_str_eq(line, "Chance of winning: 40%.");
}
END_TEST

/* A form with several choices gives its best; a form without a hint
 * gets nothing; an unknown count of games is known exactly. */
START_TEST(test_forms_with_choices_and_without_hints)
{
	bt_game g = new_game();
	store_hint h[3] = { hint(BT_SPECIAL, 30, 0.30, 0),
	                    hint(BT_SPECIAL, 30, 0.55, 0),
	                    hint(BT_WORK, BT_NO_CARD, 0.54, 0) };
	char line[HINT_LINE_MAX];

	line_of(&g, h, 3, BT_SPECIAL, 30, line);
	ck_assert_msg(strstr(line, "Chance of winning: up to 55% with the "
	                     "best choice, the best option."), "%s", line);
	line_of(&g, h, 3, BT_LOG, BT_NO_CARD, line);
	ck_assert_str_eq(line, "");
	line_of(&g, h, 3, BT_WORK, BT_NO_CARD, line);
	ck_assert_str_eq(line, "Chance of winning: 54%.");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hint_words");
	TCase *tc = tcase_create("hint_words");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_close_options_are_about_equal);
	tcase_add_test(tc, test_the_best_says_why);
	tcase_add_test(tc, test_forms_with_choices_and_without_hints);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
