/*
 * check_offer.c - the line under each offered action (words/offer.c)
 * tells the truth about the table after the move.
 *
 * Over many random whole games, in every state, every line the email's
 * menu shows (one per item) and every line the table's forms show (one
 * per card, over all its choices) is compared, figure by figure, with
 * what the move then did: each legal action is applied to a copy of the
 * game, and the figures the line must hold are read from that copy (the
 * Officers, Effort, Target, Leisure, decks and hands after), not worked
 * out again from the state before, which is how the old check let
 * "Officers now 1 of 4" through for a Cover Story that left 0.  The
 * line's numbers (card names taken out: "Plant Care on Deck 9") must be
 * exactly those, in order.  Moves whose outcome is drawn (work, Deflect)
 * are checked against the outcome where the line is certain of it, and
 * a reprimand against the cost the work line named.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <check.h>

#include "game.h"
#include "menu.h"
#include "offer.h"

enum { FIGURES_MAX = 16, GAMES_PER_RUN = 60, ACTIONS_MAX = 2000 };

typedef struct figures {
	int n;
	int v[FIGURES_MAX];
} figures;

/* How often each kind of line was checked, so the test can tell that
 * it saw every one. */
static long seen_kind[BT_HAND_OFF + 1], seen_side, seen_log, seen_work;
static long seen_many_choices, seen_stuck;

static void push(figures *f, int v)
{
	ck_assert_int_lt(f->n, FIGURES_MAX);
	f->v[f->n++] = v;
}

/* Blanks every card name in line, so the digits left are figures. */
static void blank_names(char *line)
{
	for (bt_card c = 0; c < BT_CARD_COUNT; c++) {
		const char *name = bt_card_get(c)->name;
		size_t len = strlen(name);
		char *p;
		if (len == 0)
			continue;
		while ((p = strstr(line, name)) != NULL)
			memset(p, '#', len);
	}
}

static figures figures_of(const char *text)
{
	char line[OFFER_MAX];
	figures f = { 0 };

	snprintf(line, sizeof line, "%s", text);
	blank_names(line);
	for (const char *p = line; *p;) {
		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		int v = 0;
		while (*p >= '0' && *p <= '9')
			v = v * 10 + (*p++ - '0');
		push(&f, v);
	}
	return f;
}

static void expect_figures(const char *line, const figures *want,
                           const char *what)
{
	figures got = figures_of(line);
	int same = got.n == want->n;

	for (int i = 0; same && i < got.n; i++)
		same = got.v[i] == want->v[i];
	if (same)
		return;
	char w[200] = "";
	for (int i = 0; i < want->n; i++) {
		size_t len = strlen(w);
		snprintf(w + len, sizeof w - len, " %d", want->v[i]);
	}
	ck_abort_msg("%s: '%s' should hold the figures%s", what, line, w);
}

/* The game after a: a copy with a applied. */
static bt_game after_of(const bt_game *g, const bt_action *a)
{
	bt_game after = *g;
	bt_error err;

	ck_assert_msg(bt_apply(&after, a, &err) == 0, "%s", err.why);
	return after;
}

/* 1 if the move ended the round by itself being followed by a seat with
 * no move at all (a reprimand the line does not describe: the house
 * rule of a stuck player), which the test counts and leaves out. */
static int stuck_after(const bt_game *g, const bt_game *after)
{
	return after->reprimands != g->reprimands;
}

/* A card line for one play whose choice is made. */
static void check_play(const bt_game *g, const bt_action *a,
                       const char *line)
{
	const bt_card_info *k = bt_card_get(a->card);
	bt_game after = after_of(g, a);
	figures want = { 0 };

	if (k->type == BT_TYPE_SIDE) {
		if (stuck_after(g, &after)) {
			seen_stuck++;
			return;
		}
		push(&want, k->target);
		push(&want, after.target);
		push(&want, k->leisure);
		expect_figures(line, &want, "side project");
		seen_side++;
		return;
	}
	seen_kind[k->kind]++;
	if (k->kind == BT_DEFLECT) {
		ck_assert_msg(after.reprimands == g->reprimands || after.round
		              != g->round, "Deflect brought a reprimand");
		expect_figures(line, &want, "deflect");
		return;
	}
	if (stuck_after(g, &after)) {
		seen_stuck++;
		return;
	}
	switch (k->kind) {
	case BT_OVERTIME:
		push(&want, after.effort - g->effort);
		push(&want, after.effort);
		push(&want, after.target);
		break;
	case BT_HOLODECK:
		push(&want, after.leisure - g->leisure);
		push(&want, after.leisure);
		push(&want, bt_goal(&after));
		break;
	case BT_COVER_STORY:
		push(&want, g->officers);
		push(&want, after.officers);
		push(&want, BT_REPRIMAND_OFFICERS);
		break;
	case BT_EXTRA_DUTY:
		push(&want, g->assignment_deck.n);
		push(&want, after.assignment_deck.n);
		break;
	case BT_SENSOR_SWEEP:
		push(&want, after.known_top[a->seat - 1]);
		break;
	case BT_BRAINSTORM:
		push(&want, g->side_deck.n - after.side_deck.n);
		break;
	case BT_SCALE_BACK:
		push(&want, g->target);
		push(&want, after.target);
		break;
	case BT_HAND_OFF:
		ck_assert_msg(after.hand[a->arg[1] - 1] &
		              ((uint64_t)1 << a->arg[0]), "Hand Off: the card "
		              "did not reach the seat chosen");
		break;
	default:
		break;
	}
	expect_figures(line, &want, k->name);
}

/* A form's line over all plays of one card: for a choice still to make,
 * the figure before, then each figure a choice leaves (once, if they
 * are all the same), then the Officers' bar for a Cover Story. */
static void check_form(const bt_game *g, const bt_action *plays, int n,
                       const char *line)
{
	const bt_card_info *k = bt_card_get(plays[0].card);
	figures want = { 0 }, each = { 0 };

	if (k->type != BT_TYPE_ABILITY || (k->kind != BT_COVER_STORY &&
	                                   k->kind != BT_SCALE_BACK) || n == 1) {
		check_play(g, &plays[0], line);
		return;
	}
	int before = k->kind == BT_COVER_STORY ? g->officers : g->target;
	push(&want, before);
	for (int i = 0; i < n; i++) {
		bt_game after = after_of(g, &plays[i]);
		if (stuck_after(g, &after)) {
			seen_stuck++;
			return;
		}
		push(&each, k->kind == BT_COVER_STORY ? after.officers
		                                      : after.target);
	}
	int same = 1;
	for (int i = 1; i < each.n; i++)
		same &= each.v[i] == each.v[0];
	for (int i = 0; i < (same ? 1 : each.n); i++)
		push(&want, each.v[i]);
	if (k->kind == BT_COVER_STORY)
		push(&want, BT_REPRIMAND_OFFICERS);
	expect_figures(line, &want, k->name);
	seen_many_choices += !same;
}

/* The log's line: cards and Leisure banked, the total after, the goal;
 * and the end it names is the one that came. */
static void check_log(const bt_game *g, const bt_action *a,
                      const char *line)
{
	bt_game after = after_of(g, a);
	figures want = { 0 };

	push(&want, after.row_n - g->row_n);
	push(&want, after.leisure - g->leisure);
	push(&want, after.leisure);
	push(&want, bt_goal(&after));
	expect_figures(line, &want, "log");
	ck_assert_int_eq(strstr(line, "the crew wins") != NULL,
	                 after.status == BT_WON);
	ck_assert_int_eq(strstr(line, "the game ends, lost") != NULL,
	                 after.status == BT_LOST);
	ck_assert_int_eq(strstr(line, "A new round begins") != NULL,
	                 after.status == BT_PLAYING);
	seen_log++;
}

/* The highest Leisure among the row cards g has and after lacks. */
static int leisure_lost(const bt_game *g, const bt_game *after)
{
	int best = -1;

	for (int i = 0; i < g->row_n; i++) {
		int kept = 0;
		for (int j = 0; j < after->row_n && !kept; j++)
			kept = after->row[j] == g->row[i];
		if (!kept && bt_card_get(g->row[i])->leisure > best)
			best = bt_card_get(g->row[i])->leisure;
	}
	return best;
}

/* The work line: a certain or impossible reprimand is what came, and a
 * reprimand that came cost what the line named. */
static void check_work(const bt_game *g, const bt_action *a,
                       const char *line)
{
	bt_game after = after_of(g, a);
	int num, den;
	int reprimanded = after.reprimands != g->reprimands;

	bt_risk(g, a->seat, &num, &den);
	if (den == 1)
		ck_assert_msg(reprimanded == (num == 1), "'%s', and then %s",
		              line, reprimanded ? "a reprimand" : "none");
	if (num == 0)
		ck_assert_msg(!reprimanded || after.shift_deck.n == 0 ||
		              after.round != g->round, "'%s', and then a "
		              "reprimand", line);
	seen_work++;
	if (!reprimanded || num == 0)
		return;
	ck_assert_int_eq(strstr(line, "the Duty Assignment") != NULL,
	                 g->duty != BT_NO_CARD);
	if (g->side_play_n) {
		char want[64];
		snprintf(want, sizeof want, "%d Side Project", g->side_play_n);
		ck_assert_msg(strstr(line, want), "'%s' lacks '%s'", line, want);
	}
	if (g->row_n) {
		char want[64];
		snprintf(want, sizeof want, "best card (Leisure %d)",
		         leisure_lost(g, &after));
		ck_assert_msg(strstr(line, want), "'%s' lacks '%s'", line, want);
	}
}

/* A menu item's action as it is played: a Sensor Sweep's order is
 * chosen after the look, so any legal one stands for it. */
static bt_action played(const bt_action *legal, int n, const bt_action *a)
{
	for (int i = 0; a->verb == BT_SPECIAL && a->nargs == 0 && i < n; i++)
		if (legal[i].card == a->card)
			return legal[i];
	return *a;
}

static void check_menu_lines(const bt_game *g, const bt_action *legal,
                             int n)
{
	static menu m;

	ck_assert_int_ge(menu_build(g, g->turn, NULL, &m), 1);
	for (int i = 0; i < m.n; i++) {
		bt_action a = played(legal, n, &m.item[i].a);
		if (a.verb == BT_WORK)
			check_work(g, &a, m.item[i].offer);
		else if (a.verb == BT_LOG)
			check_log(g, &a, m.item[i].offer);
		else
			check_play(g, &a, m.item[i].offer);
	}
}

/* The table's forms: one line per card over all its legal plays. */
static void check_form_lines(const bt_game *g, const bt_action *legal,
                             int n)
{
	static bt_action plays[BT_MAX_LEGAL];
	char line[OFFER_MAX];
	uint8_t done[BT_CARD_COUNT] = { 0 };

	for (int i = 0; i < n; i++) {
		bt_card c = legal[i].card;
		int k = 0;
		if (c >= BT_CARD_COUNT || done[c])
			continue;
		done[c] = 1;
		for (int j = i; j < n; j++)
			if (legal[j].card == c)
				plays[k++] = legal[j];
		offer_play(g, plays, k, line, sizeof line);
		check_form(g, plays, k, line);
	}
}

static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Whole games with random moves, every line of every state checked. */
START_TEST(test_offer_lines_state_the_table_after)
{
	static bt_action legal[BT_MAX_LEGAL];
	uint64_t rng = 1000 + (uint64_t)_i;
	bt_error err;
	bt_game g;

	for (int game = 0; game < GAMES_PER_RUN; game++) {
		uint8_t key[BT_KEY_BYTES];
		for (int b = 0; b < BT_KEY_BYTES; b++)
			key[b] = (uint8_t)next(&rng);
		int players = 2 + game % 5;
		ck_assert_int_eq(bt_game_new(&g, players, 1, key, &err), 0);
		while (g.status == BT_PLAYING && g.actions < ACTIONS_MAX) {
			int n = bt_legal(&g, legal, BT_MAX_LEGAL);
			check_menu_lines(&g, legal, n);
			check_form_lines(&g, legal, n);
			ck_assert_int_eq(bt_apply(&g, &legal[next(&rng) % (uint64_t)n],
			                          &err), 0);
		}
	}
}
END_TEST

/* What the runs above covered: every kind of line, and forms whose
 * choices leave different figures.  Run after them (CK_FORK=no keeps
 * the counts; with fork each run counts alone, so this runs them too). */
START_TEST(test_offer_lines_cover_every_kind)
{
	for (int i = 0; i < 4; i++)
		test_offer_lines_state_the_table_after_fn(i);
	for (int k = BT_OVERTIME; k <= BT_HAND_OFF; k++)
		ck_assert_msg(seen_kind[k] > 0, "no %s line was checked",
		              bt_kind_name((bt_kind)k));
	ck_assert_msg(seen_side > 0 && seen_log > 0 && seen_work > 0,
	              "side %ld, log %ld, work %ld", seen_side, seen_log,
	              seen_work);
	ck_assert_msg(seen_many_choices > 0, "no form whose choices differ");
	printf("offer lines checked: side %ld, log %ld, work %ld, "
	       "forms with differing choices %ld, left out after a stuck "
	       "seat %ld; by kind:", seen_side, seen_log, seen_work,
	       seen_many_choices, seen_stuck);
	for (int k = BT_OVERTIME; k <= BT_HAND_OFF; k++)
		printf(" %s %ld", bt_kind_name((bt_kind)k), seen_kind[k]);
	printf("\n");
}
END_TEST

/* The table: one Officer card in the Shift Stack, and Cover
 * Story's line must say the Officers fall to 0. */
START_TEST(test_cover_story_says_officers_after)
{
	static bt_action legal[BT_MAX_LEGAL];
	static menu m;
	uint64_t rng = 7;
	bt_error err;
	bt_game g;
	int found = 0;

	for (int game = 0; game < 400 && !found; game++) {
		uint8_t key[BT_KEY_BYTES];
		for (int b = 0; b < BT_KEY_BYTES; b++)
			key[b] = (uint8_t)next(&rng);
		ck_assert_int_eq(bt_game_new(&g, 2 + game % 5, 1, key, &err), 0);
		while (g.status == BT_PLAYING && !found) {
			int n = bt_legal(&g, legal, BT_MAX_LEGAL);
			menu_build(&g, g.turn, NULL, &m);
			for (int i = 0; i < m.n && !found; i++) {
				const bt_action *a = &m.item[i].a;
				if (a->verb != BT_SPECIAL || bt_card_get(a->card)->kind
				    != BT_COVER_STORY || g.officers != 1)
					continue;
				ck_assert_msg(strstr(m.item[i].offer, "from 1 to 0;"),
				              "'%s'", m.item[i].offer);
				found = 1;
			}
			ck_assert_int_eq(bt_apply(&g, &legal[next(&rng) % (uint64_t)n],
			                          &err), 0);
		}
	}
	ck_assert_msg(found, "no Cover Story with one Officer in the stack");
}
END_TEST

/* Two copies of a card in hand are one item of the menu. */
START_TEST(test_menu_has_no_twin_lines)
{
	static bt_action legal[BT_MAX_LEGAL];
	static menu m;
	uint64_t rng = 11;
	bt_error err;
	bt_game g;
	long twins_in_hand = 0;

	for (int game = 0; game < 100; game++) {
		uint8_t key[BT_KEY_BYTES];
		for (int b = 0; b < BT_KEY_BYTES; b++)
			key[b] = (uint8_t)next(&rng);
		ck_assert_int_eq(bt_game_new(&g, 2 + game % 5, 1, key, &err), 0);
		while (g.status == BT_PLAYING) {
			int n = bt_legal(&g, legal, BT_MAX_LEGAL);
			menu_build(&g, g.turn, NULL, &m);
			for (int i = 0; i < m.n; i++)
				for (int j = i + 1; j < m.n; j++)
					ck_assert_msg(strcmp(m.item[i].name,
					                     m.item[j].name) != 0,
					              "items %d and %d: '%s'", i + 1,
					              j + 1, m.item[i].name);
			for (int i = 1; i < n; i++)
				twins_in_hand += legal[i].verb == BT_SPECIAL &&
				                 legal[i - 1].verb == BT_SPECIAL &&
				                 legal[i].nargs == 0 &&
				                 legal[i].card != legal[i - 1].card &&
				                 bt_card_get(legal[i].card)->kind ==
				                 bt_card_get(legal[i - 1].card)->kind;
			ck_assert_int_eq(bt_apply(&g, &legal[next(&rng) % (uint64_t)n],
			                          &err), 0);
		}
	}
	ck_assert_msg(twins_in_hand > 0, "no state with two copies in hand");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("offer");
	TCase *tc = tcase_create("offer");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_offer_lines_state_the_table_after, 4, 8);
	tcase_add_test(tc, test_offer_lines_cover_every_kind);
	tcase_add_test(tc, test_cover_story_says_officers_after);
	tcase_add_test(tc, test_menu_has_no_twin_lines);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
