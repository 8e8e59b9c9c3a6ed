/*
 * check_abilities.c - the tests of rule R9 of RULES.md, the Ability
 * cards, one (or a few) per card, named after the rule; the other rules'
 * are in check_rules.c.  Scenarios are rigged records (stack lines) so
 * every card is known, or states built directly where a record cannot
 * reach.
 */
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "engine.h"
#include "rig.h"
#include "rule_steps.h"
#include "view.h"

/* ---- R9 abilities ------------------------------------------------------ */

START_TEST(test_R9_overtime_adds_effort_2_whatever_the_totals)
{
	bt_game g = ability_table();
	int rule;

	act(&g, 1, BT_SPECIAL, "X01", NULL, NULL, NULL);
	assert_cards(g.stack, g.stack_n, "S01 X01");
	ck_assert_int_eq(g.effort, 3);
	ck_assert_int_eq(try_act(&g, 2, BT_SPECIAL, "X02", "S01", NULL, &rule),
	                 BT_ERR_BAD_ACTION);
	ck_assert_int_eq(rule, 9);
}
END_TEST

START_TEST(test_R9_cover_story_needs_an_officer_in_the_stack)
{
	bt_game g = ability_table();
	int rule;

	ck_assert_int_eq(try_act(&g, 1, BT_SPECIAL, "X04", "S01", NULL, &rule),
	                 BT_ERR_ILLEGAL);
	ck_assert_int_eq(rule, 9);
	act(&g, 1, BT_WORK, NULL, NULL, NULL, NULL);      /* S23 */
	ck_assert_int_eq(g.officers, 3);
	ck_assert_int_eq(try_act(&g, 2, BT_SPECIAL, "X05", "S01", NULL, &rule),
	                 BT_ERR_ILLEGAL);
	ck_assert_int_eq(rule, 9);
	ck_assert_int_eq(try_act(&g, 2, BT_SPECIAL, "X05", "S24", NULL, &rule),
	                 BT_ERR_ILLEGAL);
	act(&g, 2, BT_SPECIAL, "X05", "S23", NULL, NULL);
	ck_assert_int_eq(g.officers, 0);
	ck_assert_int_eq(g.shift_deck.c[0], C("S23"));
	assert_cards(g.stack, g.stack_n, "S01");
	assert_cards(g.ability_discard.c, g.ability_discard.n, "X05");
}
END_TEST

START_TEST(test_R9_deflect_sends_officers_to_the_bottom)
{
	bt_game g = play(HEADER(2, 1)
		"stack assignment A01\n"
		"stack ability X07 X08 X01 X02\n"
		"stack shift S17 S18 S23\n"
		"1 special X07\n"     /* S18 onto the stack: effort 6 >= 5 */
		"2 special X01\n"     /* effort 8 */
		"1 special X08\n");   /* allowed past the target: S23 down */
	assert_cards(g.stack, g.stack_n, "S17 S18 X01");
	ck_assert_int_eq(g.effort, 8);
	ck_assert_int_eq(g.officers, 0);
	ck_assert_int_eq(g.shift_deck.c[0], C("S23"));
	ck_assert_int_eq(g.shift_deck.n, 26);
	ck_assert_int_eq(g.known_bottom, 1);
}
END_TEST

START_TEST(test_R9_deflect_needs_a_shift_card)
{
	bt_game g = ability_table();
	int rule;

	box_pile(&g, &g.shift_deck);
	ck_assert_int_eq(try_act(&g, 1, BT_SPECIAL, "X07", NULL, NULL, &rule),
	                 BT_ERR_ILLEGAL);
	ck_assert_int_eq(rule, 9);
	ck_assert_int_eq(try_act(&g, 1, BT_SPECIAL, "X13", "S08", NULL, &rule),
	                 BT_ERR_ILLEGAL);
	ck_assert_int_eq(rule, 9);
}
END_TEST

START_TEST(test_R9_extra_duty_takes_the_top_set_aside)
{
	bt_game g = ability_table();
	int rule;
	bt_card next = pile_top(&g.set_aside);

	act(&g, 1, BT_SPECIAL, "X09", NULL, NULL, NULL);
	ck_assert_int_eq(g.assignment_deck.n, 5);
	ck_assert_int_eq(g.assignment_deck.c[0], next);
	ck_assert_int_eq(g.set_aside.n, 12);
	box_pile(&g, &g.set_aside);
	give(&g, 2, "X10");
	ck_assert_int_eq(try_act(&g, 2, BT_SPECIAL, "X10", NULL, NULL, &rule),
	                 BT_ERR_ILLEGAL);
	ck_assert_int_eq(rule, 9);
}
END_TEST

START_TEST(test_R9_holodeck_scores_2_and_never_ends_the_game)
{
	bt_game g = ability_table();

	/* as if the row held more: only the total matters here */
	g.leisure = (int16_t)(bt_goal(&g) - 1);
	act(&g, 1, BT_SPECIAL, "X11", NULL, NULL, NULL);
	ck_assert_int_eq(g.leisure, bt_goal(&g) + 1);
	ck_assert_int_eq(g.status, BT_PLAYING);
	ck_assert_int_eq(g.row[g.row_n - 1], C("X11"));
}
END_TEST

START_TEST(test_R9_sensor_sweep_reorders_the_top_three)
{
	bt_game g = ability_table();
	int rule;
	int num, den;

	/* deck top: S23 S08 S27 */
	ck_assert_int_eq(try_act(&g, 1, BT_SPECIAL, "X13", "S08", NULL, &rule),
	                 BT_ERR_BAD_ACTION);
	ck_assert_int_eq(rule, 9);
	act(&g, 1, BT_SPECIAL, "X13", "S08", "S27", "S23");
	const bt_pile *d = &g.shift_deck;
	ck_assert_int_eq(d->c[d->n - 1], C("S08"));
	ck_assert_int_eq(d->c[d->n - 2], C("S27"));
	ck_assert_int_eq(d->c[d->n - 3], C("S23"));
	ck_assert_int_eq(g.known_top[0], 3);
	ck_assert_int_eq(g.known_top[1], 0);
	bt_risk(&g, 1, &num, &den);
	ck_assert_int_eq(num, 0);
	ck_assert_int_eq(den, 1);
	act(&g, 2, BT_WORK, NULL, NULL, NULL, NULL);   /* S08 */
	ck_assert_int_eq(g.known_top[0], 2);
}
END_TEST

START_TEST(test_R9_sensor_sweep_wrong_cards_are_refused)
{
	bt_game g = ability_table();
	bt_action a = { .seat = 1, .verb = BT_SPECIAL, .card = C("X13"),
	                .nargs = 3 };
	bt_error err;
	static const char *const orders[][3] = {
		{ "S08", "S27", "S28" },   /* S28 is not in the top three */
		{ "S08", "S08", "S23" },   /* twice */
		{ "S01", "S08", "S23" },   /* S01 is in the stack */
	};

	for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
		for (int i = 0; i < 3; i++)
			a.arg[i] = C(orders[o][i]);
		ck_assert_int_eq(bt_check(&g, &a, &err), BT_ERR_ILLEGAL);
		ck_assert_int_eq(err.rule, 9);
	}
	/* with two cards left, it takes two */
	while (g.shift_deck.n > 2)
		box_card(&g, pile_pop(&g.shift_deck));
	a.nargs = 2;
	a.arg[0] = g.shift_deck.c[0];
	a.arg[1] = g.shift_deck.c[1];
	ck_assert_int_eq(bt_check(&g, &a, &err), 0);
}
END_TEST

START_TEST(test_R9_brainstorm_draws_two_or_what_is_left)
{
	bt_game g = ability_table();
	int rule;

	act(&g, 1, BT_SPECIAL, "X15", NULL, NULL, NULL);
	ck_assert(in_hand(&g, 1, "P05") && in_hand(&g, 1, "P06"));
	while (g.side_deck.n > 1)
		box_card(&g, pile_pop(&g.side_deck));
	bt_card last = g.side_deck.c[0];
	give(&g, 2, "X16");
	act(&g, 2, BT_SPECIAL, "X16", NULL, NULL, NULL);
	ck_assert(hand_has(&g, 2, last));
	ck_assert_int_eq(g.side_deck.n, 0);

	bt_game empty = ability_table();
	box_pile(&empty, &empty.side_deck);
	ck_assert_int_eq(try_act(&empty, 1, BT_SPECIAL, "X15", NULL, NULL,
	                         &rule), BT_ERR_ILLEGAL);
	ck_assert_int_eq(rule, 9);
}
END_TEST

START_TEST(test_R9_scale_back_takes_a_side_project_in_play)
{
	bt_game g = ability_table();
	int rule;

	ck_assert_int_eq(try_act(&g, 1, BT_SPECIAL, "X17", "P01", NULL, &rule),
	                 BT_ERR_ILLEGAL);
	ck_assert_int_eq(rule, 9);
	act(&g, 1, BT_SIDE, "P01", NULL, NULL, NULL);
	ck_assert_int_eq(g.target, 13);
	act(&g, 2, BT_SIDE, "P03", NULL, NULL, NULL);
	ck_assert_int_eq(try_act(&g, 1, BT_SPECIAL, "X17", "P02", NULL, &rule),
	                 BT_ERR_ILLEGAL);
	act(&g, 1, BT_SPECIAL, "X17", "P03", NULL, NULL);
	ck_assert(in_hand(&g, 1, "P03"));
	assert_cards(g.side_play, g.side_play_n, "P01");
	ck_assert_int_eq(g.target, 13);
}
END_TEST

START_TEST(test_R9_hand_off_gives_another_card_to_another_player)
{
	bt_game g = ability_table();
	int rule;

	static const struct { const char *card, *seat; int code; } bad[] = {
		{ "X19", "2", BT_ERR_ILLEGAL },   /* the Hand Off itself */
		{ "P03", "2", BT_ERR_ILLEGAL },   /* not in the hand */
		{ "P01", "1", BT_ERR_ILLEGAL },   /* to oneself */
		{ "P01", "3", BT_ERR_ILLEGAL },   /* no seat 3 */
		{ "P01", "0", BT_ERR_ILLEGAL },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(try_act(&g, 1, BT_SPECIAL, "X19", bad[i].card,
		                         bad[i].seat, &rule), bad[i].code);
		ck_assert_int_eq(rule, 9);
	}
	act(&g, 1, BT_SPECIAL, "X19", "P01", "2", NULL);
	ck_assert(in_hand(&g, 2, "P01"));
	ck_assert(!in_hand(&g, 1, "P01"));
	/* alone in the hand, it has no use */
	box_hand(&g, 2);
	give(&g, 2, "X20");
	ck_assert_int_eq(try_act(&g, 2, BT_SPECIAL, "X20", "P01", "1", &rule),
	                 BT_ERR_ILLEGAL);
	ck_assert_int_eq(rule, 9);
}
END_TEST

START_TEST(test_R9_legal_list_holds_each_choice_once)
{
	bt_game g = ability_table();
	bt_action legal[BT_MAX_LEGAL];
	int kinds[BT_KIND__MAX] = { 0 };
	int n = bt_legal(&g, legal, BT_MAX_LEGAL);

	for (int i = 0; i < n; i++) {
		bt_error err;
		ck_assert_int_eq(bt_check(&g, &legal[i], &err), 0);
		if (legal[i].verb == BT_SPECIAL)
			kinds[bt_card_get(legal[i].card)->kind]++;
		for (int j = 0; j < i; j++)
			ck_assert(memcmp(&legal[i], &legal[j], sizeof legal[i]));
	}
	ck_assert_int_eq(kinds[BT_OVERTIME], 1);
	ck_assert_int_eq(kinds[BT_COVER_STORY], 0);     /* no officer */
	ck_assert_int_eq(kinds[BT_SENSOR_SWEEP], 6);    /* 3! orders */
	ck_assert_int_eq(kinds[BT_SCALE_BACK], 0);      /* none in play */
	/* 10 other cards, one other seat */
	ck_assert_int_eq(kinds[BT_HAND_OFF], bt_hand_size(&g, 1) - 1);
	ck_assert_int_eq(legal[0].verb, BT_WORK);
}
END_TEST

static Suite *abilities_suite(void)
{
	Suite *s = suite_create("abilities");
	TCase *tc = tcase_create("R9");

	tcase_add_test(tc, test_R9_overtime_adds_effort_2_whatever_the_totals);
	tcase_add_test(tc, test_R9_cover_story_needs_an_officer_in_the_stack);
	tcase_add_test(tc, test_R9_deflect_sends_officers_to_the_bottom);
	tcase_add_test(tc, test_R9_deflect_needs_a_shift_card);
	tcase_add_test(tc, test_R9_extra_duty_takes_the_top_set_aside);
	tcase_add_test(tc, test_R9_holodeck_scores_2_and_never_ends_the_game);
	tcase_add_test(tc, test_R9_sensor_sweep_reorders_the_top_three);
	tcase_add_test(tc, test_R9_sensor_sweep_wrong_cards_are_refused);
	tcase_add_test(tc, test_R9_brainstorm_draws_two_or_what_is_left);
	tcase_add_test(tc, test_R9_scale_back_takes_a_side_project_in_play);
	tcase_add_test(tc, test_R9_hand_off_gives_another_card_to_another_player);
	tcase_add_test(tc, test_R9_legal_list_holds_each_choice_once);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (sodium_init() < 0)
		return EXIT_FAILURE;
	SRunner *sr = srunner_create(abilities_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
