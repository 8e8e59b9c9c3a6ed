/*
 * check_rules.c - one test (or a few) per rule of RULES.md, named after
 * it; the abilities' (R9) are in check_abilities.c.  Scenarios are rigged records (stack lines) so every card is known;
 * the three rules the standard card set never reaches (R4.3, STUCK, the
 * Ability reshuffle at LOG) are tested on states built directly.
 */
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "engine.h"
#include "rig.h"
#include "rule_steps.h"
#include "view.h"


/* ---- R1 players, seats, order ---------------------------------------- */

START_TEST(test_R1_two_to_six_players)
{
	uint8_t key[BT_KEY_BYTES] = { 0 };
	bt_game g;
	bt_error err;

	for (int p = 0; p <= 8; p++) {
		int rc = bt_game_new(&g, p, 1, key, &err);
		if (p >= 2 && p <= 6)
			ck_assert_int_eq(rc, 0);
		else {
			ck_assert_int_eq(rc, BT_ERR_SETUP);
			ck_assert_int_eq(err.rule, 1);
		}
	}
	ck_assert_int_eq(bt_game_new(&g, 3, 0, key, &err), BT_ERR_SETUP);
	ck_assert_int_eq(bt_game_new(&g, 3, 4, key, &err), BT_ERR_SETUP);
	ck_assert_int_eq(err.rule, 1);
	play_fails(HEADER(7, 1) "1 work\n", 2, 11);
}
END_TEST

START_TEST(test_R1_turns_go_clockwise_and_wrap)
{
	bt_game g = play(HEADER(3, 3)
		"stack assignment A18\n"
		"stack shift S01 S02 S03 S04\n"
		"3 work\n1 work\n2 work\n");
	ck_assert_int_eq(g.turn, 3);
	play_fails(HEADER(3, 3) "stack assignment A18\n"
	           "stack shift S01 S02 S03 S04\n3 work\n2 work\n", 8, 6);
}
END_TEST

/* ---- R3 setup --------------------------------------------------------- */

START_TEST(test_R3_setup_deals_from_the_first_player)
{
	bt_game g = play(HEADER(3, 2)
		"stack assignment A01 A02 A03 A04 A05 A06 A07\n"
		"stack ability X01 X02 X03 X04 X05 X06\n"
		"stack side P01 P02 P03 P04 P05 P06\n"
		"stack shift S05\n");
	ck_assert(in_hand(&g, 2, "X01") && in_hand(&g, 2, "X02"));
	ck_assert(in_hand(&g, 3, "X03") && in_hand(&g, 3, "X04"));
	ck_assert(in_hand(&g, 1, "X05") && in_hand(&g, 1, "X06"));
	ck_assert(in_hand(&g, 2, "P01") && in_hand(&g, 2, "P02"));
	ck_assert(in_hand(&g, 3, "P03") && in_hand(&g, 3, "P04"));
	ck_assert(in_hand(&g, 1, "P05") && in_hand(&g, 1, "P06"));
	for (int s = 1; s <= 3; s++)
		ck_assert_int_eq(bt_hand_size(&g, s), 4);
	ck_assert_int_eq(g.duty, C("A01"));
	ck_assert_int_eq(g.assignment_deck.n, 4);
	ck_assert_int_eq(pile_top(&g.assignment_deck), C("A02"));
	/* the other 13, in the shuffle's order: A06 is next for Extra Duty */
	ck_assert_int_eq(g.set_aside.n, 13);
	ck_assert_int_eq(pile_top(&g.set_aside), C("A06"));
	ck_assert_int_eq(g.set_aside.c[11], C("A07"));
	ck_assert_int_eq(g.ability_deck.n, 14);
	ck_assert_int_eq(g.side_deck.n, 20);
	ck_assert_int_eq(g.shift_deck.n, 27);
	assert_cards(g.stack, g.stack_n, "S05");
	ck_assert_int_eq(g.round, 1);
	ck_assert_int_eq(g.turn, 2);
}
END_TEST

/* ---- R4 starting a round ---------------------------------------------- */

START_TEST(test_R4_round_start_refills_side_projects_to_two)
{
	/* Seat 1 plays P01 and logs nothing; seat 2 Brainstorms to 4 sides.
	 * At the next round seat 1 draws one, seat 2 keeps 4. */
	bt_game g = play(HEADER(2, 1)
		"stack assignment A01 A02\n"
		"stack ability X01 X02 X15 X16\n"
		"stack side P01 P02 P03 P04 P05 P06 P07\n"
		"stack shift S17 S18\n"
		"1 side P01\n"       /* target 5 + 1 */
		"2 special X15\n"
		"1 work\n"           /* effort 3 + 3 */
		"2 log\n");
	ck_assert_int_eq(g.round, 2);
	ck_assert(in_hand(&g, 2, "P05") && in_hand(&g, 2, "P06"));
	ck_assert_int_eq(popcount64(g.hand[1] & BT_SIDE_MASK), 4);
	ck_assert_int_eq(popcount64(g.hand[0] & BT_SIDE_MASK), 2);
	ck_assert(in_hand(&g, 1, "P02"));
	ck_assert(in_hand(&g, 1, "P07"));
}
END_TEST

START_TEST(test_R4_first_player_takes_first_turn_of_each_round)
{
	bt_game g = play(HEADER(3, 1)
		"stack assignment A01 A02\n"
		"stack shift S17 S18\n"
		"1 work\n"
		"2 log\n");
	ck_assert_int_eq(g.round, 2);
	ck_assert_int_eq(g.first, 3);
	ck_assert_int_eq(g.turn, 3);
	ck_assert_int_eq(g.duty, C("A02"));
	ck_assert_int_eq(g.stack_n, 1);
}
END_TEST

START_TEST(test_R4_reprimand_during_round_start)
{
	/* No card shows 4 Officer icons, so only a stack that is not empty
	 * at the start (a built state) can reach this rule. */
	bt_game g = fresh(3, 1);
	bt_error err;

	box_card(&g, g.duty);
	g.target = (int16_t)(g.target - bt_card_get(g.duty)->target);
	g.duty = BT_NO_CARD;
	while (g.stack_n) {
		pile_push_bottom(&g.shift_deck, g.stack[g.stack_n - 1]);
		stack_remove_at(&g, g.stack_n - 1);
	}
	bt_card captain = C("S23");
	g.shift_deck.n = card_remove_at(g.shift_deck.c, g.shift_deck.n,
		card_index(g.shift_deck.c, g.shift_deck.n, captain));
	stack_push(&g, captain);
	to_top(&g.shift_deck, C("S27"));
	int deck_before = g.assignment_deck.n;

	ck_assert_int_eq(round_start(&g, &err), 0);
	ck_assert_int_eq(g.reprimands, 1);
	ck_assert_int_eq(g.round, 2);
	ck_assert_int_eq(g.first, 2);   /* ended by its First Player, 1 */
	ck_assert_int_eq(g.turn, 2);
	ck_assert_int_eq(g.assignment_deck.n, deck_before - 2);
	assert_valid(&g);
}
END_TEST

/* ---- R5 totals -------------------------------------------------------- */

START_TEST(test_R5_goal_for_every_player_count)
{
	static const int goal[7] = { 0, 0, 18, 20, 22, 24, 26 };
	for (int p = 2; p <= 6; p++) {
		bt_game g = fresh(p, 1);
		ck_assert_int_eq(bt_goal(&g), goal[p]);
	}
}
END_TEST

START_TEST(test_R5_totals_follow_the_table)
{
	bt_game g = play(HEADER(2, 1)
		"stack assignment A05\n"
		"stack ability X01 X11 X17 X19\n"
		"stack side P25 P01 P07 P08\n"
		"stack shift S26 S17\n"
		"1 side P25\n"       /* target 6 + 6 */
		"2 side P07\n"       /* target 14 */
		"1 special X01\n"    /* Overtime: effort 2 */
		"2 work\n"           /* S17: effort 5 */
		"1 special X11\n");  /* Holodeck: leisure 2 */
	ck_assert_int_eq(g.target, 14);
	ck_assert_int_eq(g.effort, 5);
	ck_assert_int_eq(g.officers, 2);
	ck_assert_int_eq(g.leisure, 2);
	assert_cards(g.stack, g.stack_n, "S26 X01 S17");
	assert_cards(g.row, g.row_n, "X11");
	assert_cards(g.side_play, g.side_play_n, "P25 P07");
}
END_TEST

/* ---- R6 a turn --------------------------------------------------------- */

START_TEST(test_R6_work_draws_the_top_shift_card)
{
	bt_game g = play(HEADER(3, 1)
		"stack assignment A01\n"
		"stack shift S01 S08 S17\n"
		"1 work\n");
	assert_cards(g.stack, g.stack_n, "S01 S08");
	ck_assert_int_eq(g.effort, 3);
	ck_assert_int_eq(g.turn, 2);
	ck_assert_int_eq(g.shift_deck.n, 26);
}
END_TEST

START_TEST(test_R6_work_only_below_target)
{
	/* A01 targets 5: 1 + 2 + 3 reaches it, so a fourth work is illegal */
	play_fails(HEADER(3, 1)
		"stack assignment A01\n"
		"stack shift S01 S08 S17\n"
		"1 work\n2 work\n3 work\n", 9, 6);
}
END_TEST

START_TEST(test_R6_work_needs_a_shift_card)
{
	bt_game g = fresh(3, 1);
	int rule;

	box_pile(&g, &g.shift_deck);
	ck_assert_int_lt(g.effort, g.target);
	ck_assert_int_eq(try_act(&g, 1, BT_WORK, NULL, NULL, NULL, &rule),
	                 BT_ERR_ILLEGAL);
	ck_assert_int_eq(rule, 6);
}
END_TEST

START_TEST(test_R6_log_only_when_effort_reaches_target)
{
	play_fails(HEADER(3, 1)
		"stack assignment A01\n"
		"stack shift S01 S08\n"
		"1 work\n2 log\n", 8, 6);
}
END_TEST

START_TEST(test_R6_log_scores_duty_then_sides_in_play_order)
{
	bt_game g = play(HEADER(3, 1)
		"stack assignment A05 A01\n"
		"stack ability X01 X02 X03 X04 X05 X06 X13\n"
		"stack side P07 P01 P08 P02 P09 P03\n"
		"stack shift S17 S18 S19 S20\n"
		"1 side P07\n"
		"2 side P08\n"
		"3 work\n"
		"stack shift S01\n"
		"1 work\n"
		"2 work\n"
		"3 log\n");
	assert_cards(g.row, g.row_n, "A05 P07 P08");
	ck_assert_int_eq(g.leisure, 5);
	ck_assert(in_hand(&g, 3, "X13"));       /* LOG step 1 */
	ck_assert_int_eq(bt_hand_size(&g, 3), 5);
	ck_assert_int_eq(g.round, 2);
	ck_assert_int_eq(g.first, 1);
	ck_assert_int_eq(g.duty, C("A01"));
	assert_cards(g.stack, g.stack_n, "S01");
	ck_assert_int_eq(g.side_play_n, 0);
	ck_assert_int_eq(g.target, 5);
}
END_TEST

/* 2 players, goal 18: four quick rounds score 9, the fifth adds 11. */
#define FIVE_ROUNDS_TO_THE_LAST \
	HEADER(2, 1) \
	"stack assignment A18 A17 A15 A13 A11\n" \
	"stack side P25 P21\n" \
	"stack shift S17 S18 S19 S20\n" \
	"1 work\nstack shift S17 S18 S19 S20\n2 work\n1 work\n2 log\n" \
	"1 work\nstack shift S17 S18 S19 S20\n2 work\n1 work\n2 log\n" \
	"1 work\nstack shift S17 S18 S19 S20\n2 work\n1 work\n2 log\n" \
	"1 work\nstack shift S17 S18 S19 S20 S21 S22\n2 work\n1 log\n"

START_TEST(test_R6_win_on_the_last_log)
{
	bt_game g = play(FIVE_ROUNDS_TO_THE_LAST
		"2 work\n1 side P25\n2 work\n1 side P21\n"
		"2 work\n1 work\n2 work\n1 log\n");
	ck_assert_int_eq(g.status, BT_WON);
	ck_assert_int_eq(g.round, 5);
	ck_assert_int_eq(g.turn, 0);
	ck_assert_int_eq(g.leisure, 20);
	assert_cards(g.row, g.row_n, "A18 A17 A15 A13 A11 P25 P21");
	/* the table stays as the win left it: stack in place, no duty */
	ck_assert_int_eq(g.target, 0);
	ck_assert_int_eq(g.effort, 18);
	ck_assert_int_eq(g.stack_n, 6);
	play_fails(FIVE_ROUNDS_TO_THE_LAST
		"2 work\n1 side P25\n2 work\n1 side P21\n"
		"2 work\n1 work\n2 work\n1 log\n2 work\n", 35, 6);
}
END_TEST

START_TEST(test_R6_win_is_checked_at_every_log)
{
	/* 2 players: 20 Leisure in round 1 wins at once */
	bt_game g = play(HEADER(2, 1)
		"stack assignment A18\n"
		"stack side P25 P23 P24 P22\n"
		"stack shift S17 S18 S19 S20 S21 S22 S08 S09 S10 S11 S12 S13 S14\n"
		"1 side P25\n2 side P24\n1 side P23\n2 side P22\n"
		"1 work\n2 work\n1 work\n2 work\n1 work\n2 work\n"
		"1 work\n2 work\n1 work\n2 work\n1 work\n2 work\n"
		"1 log\n");
	ck_assert_int_eq(g.status, BT_WON);
	ck_assert_int_eq(g.round, 1);
	ck_assert_int_eq(g.leisure, 20);
}
END_TEST

START_TEST(test_R6_side_project_from_own_hand_only)
{
	bt_game g = play(HEADER(3, 1)
		"stack side P01 P02 P03 P04 P05 P06\n");
	int rule;
	ck_assert_int_eq(try_act(&g, 1, BT_SIDE, "P03", NULL, NULL, &rule),
	                 BT_ERR_ILLEGAL);
	ck_assert_int_eq(rule, 6);
	ck_assert_int_eq(try_act(&g, 2, BT_SIDE, "P03", NULL, NULL, &rule),
	                 BT_ERR_NOT_YOUR_TURN);
	ck_assert_int_eq(rule, 6);
	act(&g, 1, BT_SIDE, "P01", NULL, NULL, NULL);
	assert_cards(g.side_play, g.side_play_n, "P01");
	ck_assert(!in_hand(&g, 1, "P01"));
}
END_TEST

START_TEST(test_R6_stuck_player_is_reprimanded)
{
	/* Effort below target, an empty Shift Deck and an empty hand. */
	bt_game g = fresh(3, 1);

	box_pile(&g, &g.shift_deck);
	box_hand(&g, 2);
	ck_assert_int_lt(g.effort, g.target);
	bt_card side = (bt_card)__builtin_ctzll(g.hand[0] & BT_SIDE_MASK);
	act(&g, 1, BT_SIDE, bt_card_get(side)->id, NULL, NULL, NULL);
	ck_assert_int_eq(g.reprimands, 1);
	ck_assert_int_eq(g.round, 2);
	ck_assert_int_eq(g.first, 3);    /* left of the stuck seat 2 */
	ck_assert_int_eq(g.turn, 3);
	assert_valid(&g);
}
END_TEST

START_TEST(test_R6_stuck_at_round_start_reprimands_again)
{
	/* A crew with no Shift cards at all: every round start is STUCK for
	 * a First Player without cards, until the Assignment Deck is out. */
	bt_game g = fresh(2, 1);
	bt_error err;

	box_pile(&g, &g.shift_deck);
	while (g.stack_n) {
		box_card(&g, g.stack[g.stack_n - 1]);
		stack_remove_at(&g, g.stack_n - 1);
	}
	box_hand(&g, 1);
	box_hand(&g, 2);
	box_pile(&g, &g.side_deck);
	box_pile(&g, &g.ability_deck);
	ck_assert_int_eq(round_reprimand(&g, 1, &err), 0);
	ck_assert_int_eq(g.status, BT_LOST);
	ck_assert_int_eq(g.reprimands, 5);
	ck_assert_int_eq(g.round, 5);
	assert_valid(&g);
}
END_TEST

/* ---- R7 reprimand ------------------------------------------------------ */

#define ROUND_ONE_SCORES_A05_P07_P08 \
	HEADER(3, 1) \
	"stack assignment A05 A01\n" \
	"stack side P07 P01 P08 P02 P09 P03\n" \
	"stack shift S17 S18 S19 S20\n" \
	"1 side P07\n2 side P08\n3 work\n" \
	"stack shift S23 S27\n" \
	"1 work\n2 work\n3 log\n"

START_TEST(test_R7_reprimand_removes_highest_leisure_latest_of_ties)
{
	bt_game g = play(ROUND_ONE_SCORES_A05_P07_P08
		"1 side P01\n"
		"2 work\n");
	ck_assert_int_eq(g.reprimands, 1);
	assert_cards(g.row, g.row_n, "A05 P07");     /* P08: same 2, later */
	ck_assert_int_eq(g.leisure, 3);
	ck_assert_int_eq(g.round, 3);
	ck_assert_int_eq(g.first, 3);                /* left of seat 2 */
	ck_assert(g.box[C("A01") / 64] >> (C("A01") % 64) & 1);
	ck_assert(g.box[C("P08") / 64] >> (C("P08") % 64) & 1);
	ck_assert_int_ge(card_index(g.side_deck.c, g.side_deck.n, C("P01")),
	                 0);
	ck_assert_int_eq(g.side_play_n, 0);
	ck_assert_int_eq(g.effort + g.officers > 0, 1);
}
END_TEST

START_TEST(test_R7_reprimand_removes_highest_even_if_oldest)
{
	bt_game g = fresh(3, 1);
	bt_error err;

	row_push(&g, C("A18"));   /* 3 */
	row_push(&g, C("P07"));   /* 2 */
	row_push(&g, C("X11"));   /* 2; the cards' old places don't matter */
	ck_assert_int_eq(round_reprimand(&g, 1, &err), 0);
	assert_cards(g.row, g.row_n, "P07 X11");
	ck_assert_int_eq(g.leisure, 4);
}
END_TEST

START_TEST(test_R7_empty_row_and_no_sides_in_play)
{
	/* Nothing to remove and nothing to shuffle: the Side Project Deck
	 * keeps its order and the waiting stack side line keeps waiting. */
	bt_game before = play(HEADER(3, 1)
		"stack assignment A01 A02\n"
		"stack shift S23 S27\n");
	bt_game g = play(HEADER(3, 1)
		"stack assignment A01 A02\n"
		"stack ability X01 X02\n"
		"stack shift S23 S27\n"
		"1 special X01\n"
		"stack side P10\n"
		"2 work\n");
	ck_assert_int_eq(g.reprimands, 1);
	ck_assert_int_eq(g.row_n, 0);
	ck_assert_int_eq(g.rig_n[BT_DECK_SIDE], 1);
	ck_assert_int_eq(g.side_deck.n, before.side_deck.n);
	ck_assert_mem_eq(g.side_deck.c, before.side_deck.c, g.side_deck.n);
	ck_assert_int_eq(g.duty, C("A02"));
	ck_assert_int_eq(g.first, 3);
}
END_TEST

/* ---- R8 end of a round ------------------------------------------------- */

START_TEST(test_R8_defeat_after_the_fifth_round)
{
	bt_game g = play(FIVE_ROUNDS_TO_THE_LAST
		"2 work\n1 work\n2 log\n");
	ck_assert_int_eq(g.status, BT_LOST);
	ck_assert_int_eq(g.round, 5);
	ck_assert_int_eq(g.turn, 0);
	ck_assert_int_eq(g.leisure, 11);
	/* the end of round ran: the stack is back in the deck */
	ck_assert_int_eq(g.stack_n, 0);
	ck_assert_int_eq(g.shift_deck.n, 28);
	ck_assert_int_eq(g.effort, 0);
	ck_assert_int_eq(g.duty, BT_NO_CARD);
	play_fails(FIVE_ROUNDS_TO_THE_LAST "2 work\n1 work\n2 log\n1 work\n",
	           30, 6);
}
END_TEST

START_TEST(test_R8_overtime_goes_to_discard_and_stack_to_deck)
{
	bt_game g = play(HEADER(2, 1)
		"stack assignment A01 A02\n"
		"stack ability X01 X02 X03 X04\n"
		"stack shift S17\n"
		"1 special X01\n"   /* effort 5 = target 5 */
		"2 log\n");
	ck_assert_int_eq(g.round, 2);
	assert_cards(g.ability_discard.c, g.ability_discard.n, "X01");
	ck_assert_int_eq(g.shift_deck.n, 27);
	ck_assert_int_eq(g.stack_n, 1);
	ck_assert_int_eq(g.first, 1);
}
END_TEST

/* ---- R10 hidden information ------------------------------------------- */

START_TEST(test_R10_seat_view_hides_other_hands)
{
	bt_game g = play(HEADER(2, 1)
		"stack ability X01 X02 X03 X04\n"
		"stack side P01 P02 P03 P04\n");
	char all[4096], mine[4096];

	bt_view_json(&g, 0, all, sizeof all);
	bt_view_json(&g, 1, mine, sizeof mine);
	ck_assert_ptr_nonnull(strstr(all, "\"2\": [\"P03\", \"P04\", \"X03\", \"X04\"]"));
	ck_assert_ptr_nonnull(strstr(mine, "\"1\": [\"P01\", \"P02\", \"X01\", \"X02\"]"));
	ck_assert_ptr_nonnull(strstr(mine, "\"2\": 4"));
	ck_assert_ptr_null(strstr(mine, "P03"));
	ck_assert_ptr_null(strstr(mine, "X04"));
}
END_TEST

START_TEST(test_R10_risk_counts_only_what_the_seat_may_know)
{
	bt_game g = ability_table();
	int num, den;

	/* stack S01: no officer yet, and no card shows four */
	bt_risk(&g, 2, &num, &den);
	ck_assert_int_eq(num, 0);
	ck_assert_int_eq(den, 27);
	act(&g, 1, BT_SPECIAL, "X07", NULL, NULL, NULL);  /* S23 to bottom */
	act(&g, 2, BT_WORK, NULL, NULL, NULL, NULL);      /* S08 */
	act(&g, 1, BT_WORK, NULL, NULL, NULL, NULL);      /* S27: 1 officer */
	/* S24 would bring 4; S23 too, but all saw it go to the bottom */
	bt_risk(&g, 2, &num, &den);
	ck_assert_int_eq(num, 1);
	ck_assert_int_eq(den, 24);
}
END_TEST

/* ---- R11 randomness and records --------------------------------------- */

START_TEST(test_R11_same_seed_same_game)
{
	uint8_t k1[BT_KEY_BYTES] = { 1 }, k2[BT_KEY_BYTES] = { 2 };
	bt_game a, b, c;
	bt_error err;

	ck_assert_int_eq(bt_game_new(&a, 4, 2, k1, &err), 0);
	ck_assert_int_eq(bt_game_new(&b, 4, 2, k1, &err), 0);
	ck_assert_int_eq(bt_game_new(&c, 4, 2, k2, &err), 0);
	ck_assert_mem_eq(&a, &b, sizeof a);
	ck_assert(memcmp(&a.shift_deck, &c.shift_deck, sizeof a.shift_deck));
}
END_TEST

START_TEST(test_R11_stack_line_must_fit_its_shuffle)
{
	/* P02 is in seat 1's hand at the reprimand's shuffle: the error
	 * names the stack line, not the action that shuffled */
	play_fails(HEADER(3, 1)
		"stack assignment A01 A02\n"
		"stack side P01 P02 P03 P04 P05 P06\n"
		"stack shift S23 S27\n"
		"1 side P01\n"
		"stack side P02\n"
		"2 work\n", 9, 11);
}
END_TEST

static Suite *rules_suite(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, test_R1_two_to_six_players);
	tcase_add_test(tc, test_R1_turns_go_clockwise_and_wrap);
	tcase_add_test(tc, test_R3_setup_deals_from_the_first_player);
	tcase_add_test(tc, test_R4_round_start_refills_side_projects_to_two);
	tcase_add_test(tc, test_R4_first_player_takes_first_turn_of_each_round);
	tcase_add_test(tc, test_R4_reprimand_during_round_start);
	tcase_add_test(tc, test_R5_goal_for_every_player_count);
	tcase_add_test(tc, test_R5_totals_follow_the_table);
	tcase_add_test(tc, test_R6_work_draws_the_top_shift_card);
	tcase_add_test(tc, test_R6_work_only_below_target);
	tcase_add_test(tc, test_R6_work_needs_a_shift_card);
	tcase_add_test(tc, test_R6_log_only_when_effort_reaches_target);
	tcase_add_test(tc, test_R6_log_scores_duty_then_sides_in_play_order);
	tcase_add_test(tc, test_R6_win_on_the_last_log);
	tcase_add_test(tc, test_R6_win_is_checked_at_every_log);
	tcase_add_test(tc, test_R6_side_project_from_own_hand_only);
	tcase_add_test(tc, test_R6_stuck_player_is_reprimanded);
	tcase_add_test(tc, test_R6_stuck_at_round_start_reprimands_again);
	tcase_add_test(tc, test_R7_reprimand_removes_highest_leisure_latest_of_ties);
	tcase_add_test(tc, test_R7_reprimand_removes_highest_even_if_oldest);
	tcase_add_test(tc, test_R7_empty_row_and_no_sides_in_play);
	tcase_add_test(tc, test_R8_defeat_after_the_fifth_round);
	tcase_add_test(tc, test_R8_overtime_goes_to_discard_and_stack_to_deck);
	tcase_add_test(tc, test_R10_seat_view_hides_other_hands);
	tcase_add_test(tc, test_R10_risk_counts_only_what_the_seat_may_know);
	tcase_add_test(tc, test_R11_same_seed_same_game);
	tcase_add_test(tc, test_R11_stack_line_must_fit_its_shuffle);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (sodium_init() < 0)
		return EXIT_FAILURE;
	SRunner *sr = srunner_create(rules_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
