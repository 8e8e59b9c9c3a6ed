/*
 * check_menu.c - a seat's legal actions as a numbered menu
 * (words/menu.h), over positions of greedy games at 2..6 players: every
 * legal action is one item (a Sensor Sweep card one item, whatever its
 * order), numbers and names pick their items back, the words a player
 * would write pick the right item, and the same state gives the same
 * menu.
 */
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "describe.h"
#include "game.h"
#include "menu.h"
#include "offer.h"
#include "policy.h"

enum {
	POSITIONS = 400,      /* positions taken from greedy games */
	EVERY = 5             /* one position every EVERY actions */
};

static bt_game positions[POSITIONS];
static int npositions;
static menu m, again;
static bt_action legal[BT_MAX_LEGAL];

static const char *const NAMES[BT_MAX_PLAYERS] = {
	"Ann", "Tendi", "Rutherford", NULL, "", "Mariner"
};

/* Positions of greedy games at 2..6 players, from a fixed stream. */
static void collect_positions(void)
{
	uint64_t s = 29;
	bt_error err;

	npositions = 0;
	for (int i = 0; npositions < POSITIONS; i++) {
		uint8_t key[BT_KEY_BYTES];
		bt_game g;
		int players = BT_MIN_PLAYERS + i % 5;
		for (int b = 0; b < BT_KEY_BYTES; b++)
			key[b] = (uint8_t)policy_rng_next(&s);
		ck_assert_int_eq(bt_game_new(&g, players, 1 + i % players, key,
		                             &err), 0);
		while (g.status == BT_PLAYING && npositions < POSITIONS) {
			int n = bt_legal(&g, legal, BT_MAX_LEGAL);
			if (g.actions % EVERY == (unsigned)i % EVERY)
				positions[npositions++] = g;
			ck_assert_int_eq(bt_apply(&g, &legal[policy_greedy(&g,
			                 legal, n, &s)], &err), 0);
		}
	}
}

static int is_sweep(const bt_action *a)
{
	return a->verb == BT_SPECIAL &&
	       bt_card_get(a->card)->kind == BT_SENSOR_SWEEP;
}

/* 1 if a and b make the same move: two copies of a card played alike
 * (the menu lists one of them). */
static int same_move(const bt_action *a, const bt_action *b)
{
	char x[DESCRIBE_MAX], y[DESCRIBE_MAX];

	if (a->verb != b->verb || a->card >= BT_CARD_COUNT ||
	    b->card >= BT_CARD_COUNT || strcmp(bt_card_get(a->card)->name,
	                                       bt_card_get(b->card)->name))
		return a->verb == b->verb && a->card == b->card;
	if (is_sweep(a))
		return 1;
	if (a->nargs != b->nargs)
		return 0;
	if (a->nargs == 0)
		return 1;
	describe_card(a->arg[0], x, sizeof x);
	describe_card(b->arg[0], y, sizeof y);
	return !strcmp(x, y) && (a->nargs < 2 || a->arg[1] == b->arg[1]);
}

/* The items of m that make the same move as a, a itself or a copy. */
static int count_move(const menu *mm, const bt_action *a)
{
	int k = 0;

	for (int i = 0; i < mm->n; i++)
		k += same_move(a, &mm->item[i].a);
	return k;
}

/* The first item named as item i. */
static int first_named(const menu *mm, int i)
{
	for (int k = 0; k < mm->n; k++)
		if (strcmp(mm->item[k].name, mm->item[i].name) == 0)
			return k;
	return -1;
}

/* name with its words reversed and in capitals: order and case do not
 * matter. */
static void shuffled(const char *name, char *out, size_t cap)
{
	char copy[MENU_NAME_MAX], *w[40], *save = NULL;
	int n = 0;
	size_t o = 0;

	snprintf(copy, sizeof copy, "%s", name);
	for (char *t = strtok_r(copy, " ", &save); t && n < 40;
	     t = strtok_r(NULL, " ", &save))
		w[n++] = t;
	out[0] = '\0';
	for (int i = n - 1; i >= 0; i--)
		o += (size_t)snprintf(out + o, cap - o, "%s%s", w[i],
		                      i ? "  " : "!");
	for (char *p = out; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
}

START_TEST(test_every_action_once)
{
	int built = 0, overflow = 0, sweeps = 0, hand_offs = 0;

	collect_positions();
	for (int p = 0; p < npositions; p++) {
		const bt_game *g = &positions[p];
		int n = bt_legal(g, legal, BT_MAX_LEGAL), want = 0;
		int got = menu_build(g, g->turn, NAMES, &m);
		for (int i = 0; i < n; i++) {
			int first = 1;
			for (int k = 0; k < i && first; k++)
				first = !same_move(&legal[k], &legal[i]);
			want += first;
		}
		if (want > MENU_MAX) {
			ck_assert_int_eq(got, -1);
			ck_assert_int_eq(m.n, 0);
			overflow++;
			continue;
		}
		ck_assert_int_eq(got, want);
		ck_assert_int_eq(m.n, want);
		built++;
		for (int i = 0; i < n; i++)
			ck_assert_int_eq(count_move(&m, &legal[i]), 1);
		for (int i = 0; i < m.n; i++) {
			const bt_action *a = &m.item[i].a;
			bt_error err;
			ck_assert_uint_gt(strlen(m.item[i].name), 0);
			if (is_sweep(a)) {
				ck_assert_int_eq(a->nargs, 0);
				ck_assert_ptr_nonnull(strstr(m.item[i].name,
				                      "Play Sensor Sweep: look at"));
				sweeps++;
			} else {
				ck_assert_int_eq(bt_check(g, a, &err), 0);
			}
			if (a->verb == BT_SPECIAL &&
			    bt_card_get(a->card)->kind == BT_HAND_OFF)
				hand_offs++;
		}
	}
	/* the positions cover what the test is about */
	ck_assert_int_gt(built, POSITIONS * 9 / 10);
	ck_assert_int_gt(sweeps, 0);
	ck_assert_int_gt(hand_offs, 0);
	ck_assert_int_le(overflow, POSITIONS / 20);
}
END_TEST

START_TEST(test_picks)
{
	char words[2 * MENU_NAME_MAX];
	int picked = 0;

	collect_positions();
	for (int p = 0; p < npositions; p++) {
		const bt_game *g = &positions[p];
		if (menu_build(g, g->turn, NAMES, &m) <= 0)
			continue;
		ck_assert_int_eq(menu_pick(&m, 0, ""), -1);
		ck_assert_int_eq(menu_pick(&m, m.n + 1, NULL), -1);
		ck_assert_int_eq(menu_pick(&m, 0, "dance the tango"), -1);
		for (int i = 0; i < m.n; i++) {
			int first = first_named(&m, i);
			ck_assert_int_eq(menu_pick(&m, i + 1, NULL), i);
			ck_assert_int_eq(menu_pick(&m, 0, m.item[i].name), first);
			shuffled(m.item[i].name, words, sizeof words);
			ck_assert_int_eq(menu_pick(&m, 0, words), first);
			/* two copies of a card are one item */
			ck_assert_int_eq(first, i);
			picked++;
		}
	}
	ck_assert_int_gt(picked, 100);
}
END_TEST

static int find_named(const menu *mm, const char *name)
{
	for (int i = 0; i < mm->n; i++)
		if (strcmp(mm->item[i].name, name) == 0)
			return i;
	return -1;
}

/* The words a player would write pick the item they mean. */
START_TEST(test_players_words)
{
	int works = 0, logs = 0, overtimes = 0, sweeps = 0, gives = 0;

	collect_positions();
	for (int p = 0; p < npositions; p++) {
		const bt_game *g = &positions[p];
		int i;
		if (menu_build(g, g->turn, NAMES, &m) <= 0)
			continue;
		if ((i = find_named(&m, "Get to work")) >= 0) {
			ck_assert_int_eq(menu_pick(&m, 0, "work"), i);
			ck_assert_int_eq(menu_pick(&m, 0, "get to work"), i);
			ck_assert_int_eq(menu_pick(&m, 0, "Get to WORK."), i);
			works++;
		}
		if ((i = find_named(&m, "Log the completed assignment")) >= 0) {
			ck_assert_int_eq(menu_pick(&m, 0, "log"), i);
			logs++;
		}
		if ((i = find_named(&m, "Play Overtime")) >= 0) {
			ck_assert_int_eq(menu_pick(&m, 0, "overtime"), i);
			overtimes++;
		}
		for (i = 0; i < m.n; i++) {
			const bt_action *a = &m.item[i].a;
			if (is_sweep(a)) {
				int k = menu_pick(&m, 0, "sweep");
				ck_assert_int_ge(k, 0);
				ck_assert(is_sweep(&m.item[k].a));
				ck_assert_int_eq(menu_pick(&m, 0, "sensor sweep"),
				                 k);
				sweeps++;
				break;
			}
		}
		for (i = 0; i < m.n; i++) {
			const bt_action *a = &m.item[i].a;
			if (a->verb != BT_SPECIAL ||
			    bt_card_get(a->card)->kind != BT_HAND_OFF ||
			    a->arg[1] != 2 ||
			    bt_card_get(a->arg[0])->kind != BT_OVERTIME)
				continue;
			ck_assert_int_eq(menu_pick(&m, 0, "hand off overtime to "
			                           "tendi"), first_named(&m, i));
			gives++;
			break;
		}
	}
	ck_assert_int_gt(works, 0);
	ck_assert_int_gt(logs, 0);
	ck_assert_int_gt(sweeps, 0);
	/* not every stream gives Overtimes: the others are enough */
	(void)overtimes;
	(void)gives;
}
END_TEST

/* Words that fit two different names equally are ambiguous; names
 * that are all the reply says win over longer ones. */
START_TEST(test_ambiguous)
{
	static menu t;

	t.n = 4;
	snprintf(t.item[0].name, MENU_NAME_MAX, "Play Hand Off: give Overtime "
	         "to Ann");
	snprintf(t.item[1].name, MENU_NAME_MAX, "Play Hand Off: give Overtime "
	         "to Tendi");
	snprintf(t.item[2].name, MENU_NAME_MAX, "Play Overtime");
	snprintf(t.item[3].name, MENU_NAME_MAX, "Start this Side Project: "
	         "Trivia Night (Target 2, Leisure 2)");
	ck_assert_int_eq(menu_pick(&t, 0, "hand off overtime"), -2);
	ck_assert_int_eq(menu_pick(&t, 0, "hand off overtime to tendi"), 1);
	ck_assert_int_eq(menu_pick(&t, 0, "give overtime to ann"), 0);
	ck_assert_int_eq(menu_pick(&t, 0, "overtime"), 2);
	ck_assert_int_eq(menu_pick(&t, 0, "side trivia night"), 3);
	ck_assert_int_eq(menu_pick(&t, 0, "trivia night"), 3);
	ck_assert_int_eq(menu_pick(&t, 0, "overtime to bob"), -1);
	ck_assert_int_eq(menu_pick(&t, 4, NULL), 3);
	ck_assert_int_eq(menu_pick(&t, 5, NULL), -1);
}
END_TEST

/* The same state, the same menu; and the table's words. */
START_TEST(test_deterministic)
{
	char label[80];

	collect_positions();
	for (int p = 0; p < npositions; p += 3) {
		const bt_game *g = &positions[p];
		memset(&m, 0x55, sizeof m);
		memset(&again, 0xaa, sizeof again);
		int a = menu_build(g, g->turn, NAMES, &m);
		int b = menu_build(g, g->turn, NAMES, &again);
		ck_assert_int_eq(a, b);
		for (int i = 0; i < m.n; i++) {
			ck_assert(memcmp(&m.item[i].a, &again.item[i].a,
			                 sizeof m.item[i].a) == 0);
			ck_assert_str_eq(m.item[i].name, again.item[i].name);
			ck_assert_str_eq(m.item[i].offer, again.item[i].offer);
		}
		/* a seat not to move has no menu */
		ck_assert_int_eq(menu_build(g, g->turn % g->players + 1, NAMES,
		                            &m), -1);
	}
	ck_assert_str_eq(words_action_name(BT_WORK, BT_NO_CARD, label,
	                 sizeof label), "Get to work");
	ck_assert_str_eq(words_action_name(BT_LOG, BT_NO_CARD, label,
	                 sizeof label), "Log the completed assignment");
}
END_TEST

/* Each item's line is offer.c's for its very action: offer_work,
 * offer_log, offer_play of the one play (the table's form speaks of all
 * the card's choices; tests/check_offer.c checks both against the
 * table after the move). */
START_TEST(test_offers)
{
	char want[OFFER_MAX];
	int seen = 0;

	collect_positions();
	for (int p = 0; p < npositions; p += 2) {
		const bt_game *g = &positions[p];
		if (menu_build(g, g->turn, NAMES, &m) <= 0)
			continue;
		for (int i = 0; i < m.n; i++) {
			const bt_action *a = &m.item[i].a;
			if (a->verb == BT_WORK)
				offer_work(g, g->turn, want, sizeof want);
			else if (a->verb == BT_LOG)
				offer_log(g, want, sizeof want);
			else
				offer_play(g, a, 1, want, sizeof want);
			ck_assert_str_eq(m.item[i].offer, want);
			seen++;
		}
	}
	ck_assert_int_gt(seen, 100);
}
END_TEST

static Suite *menu_suite(void)
{
	Suite *s = suite_create("menu");
	TCase *tc = tcase_create("menu");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_every_action_once);
	tcase_add_test(tc, test_picks);
	tcase_add_test(tc, test_players_words);
	tcase_add_test(tc, test_ambiguous);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_offers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(menu_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
