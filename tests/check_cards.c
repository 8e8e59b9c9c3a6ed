/*
 * check_cards.c - the card tables (R2) against the counts and values of
 * RULES.md, the card ids, the Ability texts (R9) and the Leisure Goals
 * (R5) the web pages show.
 */
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "cards.h"
#include "game.h"

static int count_type(bt_card_type t)
{
	int n = 0;
	for (int c = 0; c < BT_CARD_COUNT; c++)
		n += bt_card_get((bt_card)c)->type == t;
	return n;
}

START_TEST(test_R2_component_counts)
{
	ck_assert_int_eq(count_type(BT_TYPE_ASSIGNMENT), 18);
	ck_assert_int_eq(count_type(BT_TYPE_SIDE), 26);
	ck_assert_int_eq(count_type(BT_TYPE_SHIFT), 28);
	ck_assert_int_eq(count_type(BT_TYPE_ABILITY), 20);
}
END_TEST

START_TEST(test_R2_shift_cards_22_effort_6_officers)
{
	int effort_cards = 0, officer_cards = 0, effort = 0, officers = 0;

	for (int c = BT_SHIFT_FIRST; c < BT_SHIFT_FIRST + BT_SHIFT_COUNT; c++) {
		const bt_card_info *ci = bt_card_get((bt_card)c);
		ck_assert_msg((ci->effort > 0) != (ci->officers > 0),
		              "%s shows exactly one kind of icon", ci->id);
		effort_cards += ci->effort > 0;
		officer_cards += ci->officers > 0;
		effort += ci->effort;
		officers += ci->officers;
		ck_assert_int_le(ci->officers, 3);
	}
	ck_assert_int_eq(effort_cards, 22);
	ck_assert_int_eq(officer_cards, 6);
	/* 7 x 1 + 9 x 2 + 6 x 3, and 3 + 3 + 2 + 2 + 1 + 1 */
	ck_assert_int_eq(effort, 43);
	ck_assert_int_eq(officers, 12);
}
END_TEST

/* Spot checks against RULES.md's tables, one row per card type. */
static const struct {
	const char *id, *name;
	int target, leisure, effort, officers;
	bt_kind kind;
} spot[] = {
	{ "A01", "Scrub the Plasma Conduits", 5, 0, 0, 0, BT_KIND_NONE },
	{ "A18", "Handle a First Contact", 12, 3, 0, 0, BT_KIND_NONE },
	{ "P25", "Throw a Surprise Party", 6, 5, 0, 0, BT_KIND_NONE },
	{ "P26", "Shore Leave Planning", 3, 3, 0, 0, BT_KIND_NONE },
	{ "S07", "Ensign on the Night Shift", 0, 0, 1, 0, BT_KIND_NONE },
	{ "S16", "Eager Ensign", 0, 0, 2, 0, BT_KIND_NONE },
	{ "S17", "Overachieving Ensign", 0, 0, 3, 0, BT_KIND_NONE },
	{ "S23", "Captain", 0, 0, 0, 3, BT_KIND_NONE },
	{ "S26", "Chief of Security", 0, 0, 0, 2, BT_KIND_NONE },
	{ "S28", "Ship's Counselor", 0, 0, 0, 1, BT_KIND_NONE },
	{ "X03", "Overtime", 0, 0, 2, 0, BT_OVERTIME },
	{ "X06", "Cover Story", 0, 0, 0, 0, BT_COVER_STORY },
	{ "X08", "Deflect", 0, 0, 0, 0, BT_DEFLECT },
	{ "X10", "Extra Duty", 0, 0, 0, 0, BT_EXTRA_DUTY },
	{ "X11", "Holodeck Reservation", 0, 2, 0, 0, BT_HOLODECK },
	{ "X14", "Sensor Sweep", 0, 0, 0, 0, BT_SENSOR_SWEEP },
	{ "X15", "Brainstorm", 0, 0, 0, 0, BT_BRAINSTORM },
	{ "X18", "Scale Back", 0, 0, 0, 0, BT_SCALE_BACK },
	{ "X19", "Hand Off", 0, 0, 0, 0, BT_HAND_OFF },
};

START_TEST(test_R2_card_values)
{
	bt_card c = bt_card_parse(spot[_i].id, 3);
	ck_assert_int_ne(c, BT_NO_CARD);
	const bt_card_info *ci = bt_card_get(c);
	ck_assert_str_eq(ci->id, spot[_i].id);
	ck_assert_str_eq(ci->name, spot[_i].name);
	ck_assert_int_eq(ci->target, spot[_i].target);
	ck_assert_int_eq(ci->leisure, spot[_i].leisure);
	ck_assert_int_eq(ci->effort, spot[_i].effort);
	ck_assert_int_eq(ci->officers, spot[_i].officers);
	ck_assert_int_eq(ci->kind, spot[_i].kind);
}
END_TEST

START_TEST(test_R9_nine_kinds_in_their_numbers)
{
	static const int per_kind[BT_KIND__MAX] = {
		[BT_OVERTIME] = 3, [BT_COVER_STORY] = 3, [BT_DEFLECT] = 2,
		[BT_EXTRA_DUTY] = 2, [BT_HOLODECK] = 2, [BT_SENSOR_SWEEP] = 2,
		[BT_BRAINSTORM] = 2, [BT_SCALE_BACK] = 2, [BT_HAND_OFF] = 2,
	};
	int seen[BT_KIND__MAX] = { 0 };

	for (int c = BT_ABILITY_FIRST; c < BT_ABILITY_FIRST + BT_ABILITY_COUNT; c++)
		seen[bt_card_get((bt_card)c)->kind]++;
	for (int k = 0; k < BT_KIND__MAX; k++)
		ck_assert_int_eq(seen[k], per_kind[k]);
}
END_TEST

START_TEST(test_R2_sum_of_leisure_and_target)
{
	int side_t = 0, side_l = 0, assign_t = 0, assign_l = 0;

	for (int c = 0; c < BT_CARD_COUNT; c++) {
		const bt_card_info *ci = bt_card_get((bt_card)c);
		if (ci->type == BT_TYPE_SIDE) {
			side_t += ci->target;
			side_l += ci->leisure;
		} else if (ci->type == BT_TYPE_ASSIGNMENT) {
			assign_t += ci->target;
			assign_l += ci->leisure;
		}
	}
	/* Column sums of RULES.md's two tables. */
	ck_assert_int_eq(side_t, 77);
	ck_assert_int_eq(side_l, 65);
	ck_assert_int_eq(assign_t, 143);
	ck_assert_int_eq(assign_l, 16);
}
END_TEST

START_TEST(test_R2_ids_parse_back)
{
	for (int c = 0; c < BT_CARD_COUNT; c++) {
		const char *id = bt_card_get((bt_card)c)->id;
		ck_assert_uint_eq(strlen(id), 3);
		ck_assert_int_eq(bt_card_parse(id, 3), c);
	}
}
END_TEST

static const char *const bad_ids[] = {
	"P00", "P27", "X21", "A19", "S29", "S00", "p01", "x01", "P1", "P001",
	"Q01", "", "P0a", " P01", "A-1",
};

START_TEST(test_R2_bad_ids_are_refused)
{
	const char *id = bad_ids[_i];
	ck_assert_int_eq(bt_card_parse(id, strlen(id)), BT_NO_CARD);
}
END_TEST

/* R9's table, column "text", as RULES.md prints it. */
static const char *const r9_text[BT_KIND__MAX] = {
	[BT_OVERTIME] = "Place this card in the Shift Stack. It shows Effort 2.",
	[BT_COVER_STORY] = "Choose an Officer card in the Shift Stack and put it on the bottom of the Shift Deck. Playable only with an Officer in the stack.",
	[BT_DEFLECT] = "Reveal the top Shift card. An Officer goes to the bottom of the Shift Deck; any other card goes onto the Shift Stack. Playable only if the Shift Deck is not empty; allowed whatever the totals.",
	[BT_EXTRA_DUTY] = "Put the top set-aside Assignment on the bottom of the Assignment Deck (one more round). Playable only while any are set aside.",
	[BT_HOLODECK] = "Place this card in the Scoring Row. It is worth 2 Leisure.",
	[BT_SENSOR_SWEEP] = "Look at the top three Shift cards (fewer if fewer remain) and put them back in any order you choose. Only you see them. Playable only if the Shift Deck is not empty.",
	[BT_BRAINSTORM] = "Draw two Side Projects (one if only one is left). Playable only if the Side Project Deck is not empty.",
	[BT_SCALE_BACK] = "Choose a Side Project in play and take it into your hand. Playable only with a Side Project in play.",
	[BT_HAND_OFF] = "Give one other card from your hand to another player of your choice. Playable only with another card in hand.",
};

START_TEST(test_R9_kind_text_word_for_word)
{
	bt_kind k = (bt_kind)_i;

	ck_assert_str_eq(bt_kind_text(k), r9_text[k]);
	/* the card's short text is there, and shorter */
	ck_assert_uint_gt(strlen(bt_kind_short(k)), 0);
	ck_assert_uint_lt(strlen(bt_kind_short(k)), strlen(bt_kind_text(k)));
}
END_TEST

START_TEST(test_R9_no_text_outside_the_kinds)
{
	ck_assert_str_eq(bt_kind_text(BT_KIND_NONE), "");
	ck_assert_str_eq(bt_kind_short(BT_KIND_NONE), "");
	ck_assert_str_eq(bt_kind_text(BT_KIND__MAX), "");
	ck_assert_str_eq(bt_kind_short((bt_kind)200), "");
	ck_assert_str_eq(bt_kind_name((bt_kind)200), "");
}
END_TEST

START_TEST(test_R5_goal_for_each_player_count)
{
	static const int goal[BT_MAX_PLAYERS + 1] = {
		[2] = 18, [3] = 20, [4] = 22, [5] = 24, [6] = 26
	};
	uint8_t key[BT_KEY_BYTES] = { 7 };
	bt_game g;
	bt_error err;

	for (int n = BT_MIN_PLAYERS; n <= BT_MAX_PLAYERS; n++) {
		ck_assert_int_eq(bt_goal_for(n), goal[n]);
		ck_assert_int_eq(bt_game_new(&g, n, 1, key, &err), 0);
		ck_assert_int_eq(bt_goal(&g), bt_goal_for(n));
	}
	ck_assert_int_eq(bt_goal_for(BT_MIN_PLAYERS - 1), 0);
	ck_assert_int_eq(bt_goal_for(BT_MAX_PLAYERS + 1), 0);
	ck_assert_int_eq(bt_goal_for(-1), 0);
}
END_TEST

static Suite *cards_suite(void)
{
	Suite *s = suite_create("cards");
	TCase *tc = tcase_create("tables");

	tcase_add_test(tc, test_R2_component_counts);
	tcase_add_test(tc, test_R2_shift_cards_22_effort_6_officers);
	tcase_add_loop_test(tc, test_R2_card_values, 0,
	                    (int)(sizeof spot / sizeof spot[0]));
	tcase_add_test(tc, test_R9_nine_kinds_in_their_numbers);
	tcase_add_test(tc, test_R2_sum_of_leisure_and_target);
	tcase_add_test(tc, test_R2_ids_parse_back);
	tcase_add_loop_test(tc, test_R2_bad_ids_are_refused, 0,
	                    (int)(sizeof bad_ids / sizeof bad_ids[0]));
	tcase_add_loop_test(tc, test_R9_kind_text_word_for_word, BT_OVERTIME,
	                    BT_KIND__MAX);
	tcase_add_test(tc, test_R9_no_text_outside_the_kinds);
	tcase_add_test(tc, test_R5_goal_for_each_player_count);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cards_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
