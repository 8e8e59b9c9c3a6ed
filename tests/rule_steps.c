/*
 * rule_steps.c - what the rules' tests play with (rule_steps.h).
 */
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "rig.h"
#include "rule_steps.h"

bt_card C(const char *id)
{
	bt_card c = bt_card_parse(id, strlen(id));
	ck_assert_msg(c != BT_NO_CARD, "no card %s", id);
	return c;
}

/* Replays text, which must be legal to its end. */
bt_game play(const char *text)
{
	bt_game g;
	bt_error err;
	int line = 0;

	memset(&err, 0, sizeof err);
	if (rig_replay(text, &g, &err, &line))
		ck_abort_msg("line %d: rule R%d: %s", line, err.rule, err.why);
	char why[200];
	ck_assert_msg(bt_game_check(&g, why, sizeof why) == 0, "%s", why);
	return g;
}

/* Replays text, which must fail on line want_line citing want_rule. */
void play_fails(const char *text, int want_line, int want_rule)
{
	bt_game g;
	bt_error err;
	int line = 0;

	memset(&err, 0, sizeof err);
	ck_assert_msg(rig_replay(text, &g, &err, &line) != 0,
	              "replay succeeded; wanted an error on line %d",
	              want_line);
	ck_assert_msg(line == want_line && err.rule == want_rule,
	              "got line %d rule R%d (%s); wanted line %d rule R%d",
	              line, err.rule, err.why, want_line, want_rule);
	ck_assert_uint_gt(strlen(err.why), 5);
}

/* Applies one action to g; it must be legal. */
void act(bt_game *g, int seat, bt_verb verb, const char *card,
                const char *a0, const char *a1, const char *a2)
{
	bt_action a = { .seat = (uint8_t)seat, .verb = (uint8_t)verb,
	                .card = card ? C(card) : BT_NO_CARD };
	const char *args[3] = { a0, a1, a2 };
	bt_error err;

	for (int i = 0; i < 3 && args[i]; i++)
		a.arg[a.nargs++] = args[i][0] >= '0' && args[i][0] <= '9'
		                   ? (uint8_t)atoi(args[i]) : C(args[i]);
	if (bt_apply(g, &a, &err))
		ck_abort_msg("rule R%d: %s", err.rule, err.why);
}

/* bt_check of one action: the error code, and its rule in *rule. */
int try_act(const bt_game *g, int seat, bt_verb verb, const char *card,
                   const char *a0, const char *a1, int *rule)
{
	bt_action a = { .seat = (uint8_t)seat, .verb = (uint8_t)verb,
	                .card = card ? C(card) : BT_NO_CARD };
	const char *args[2] = { a0, a1 };
	bt_error err = { 0 };

	for (int i = 0; i < 2 && args[i]; i++)
		a.arg[a.nargs++] = args[i][0] >= '0' && args[i][0] <= '9'
		                   ? (uint8_t)atoi(args[i]) : C(args[i]);
	int rc = bt_check(g, &a, &err);
	*rule = err.rule;
	return rc;
}

int in_hand(const bt_game *g, int seat, const char *id)
{
	return hand_has(g, seat, C(id));
}

void assert_cards(const bt_card *a, int n, const char *want)
{
	char got[256] = "";
	for (int i = 0; i < n; i++) {
		strcat(got, i ? " " : "");
		strcat(got, bt_card_get(a[i])->id);
	}
	ck_assert_str_eq(got, want);
}

void assert_valid(const bt_game *g)
{
	char why[200];
	ck_assert_msg(bt_game_check(g, why, sizeof why) == 0, "%s", why);
}


bt_game fresh(int players, int first)
{
	static const uint8_t key[BT_KEY_BYTES] = { 7 };
	bt_game g;
	bt_error err;

	ck_assert_int_eq(bt_game_new(&g, players, first, key, &err), 0);
	return g;
}

void box_card(bt_game *g, bt_card c)
{
	g->box[c / 64] |= (uint64_t)1 << (c % 64);
}

/* Moves every card of pile p out of the game. */
void box_pile(bt_game *g, bt_pile *p)
{
	while (p->n)
		box_card(g, pile_pop(p));
}

void box_hand(bt_game *g, int seat)
{
	for (int c = 0; c < BT_HANDABLE_COUNT; c++)
		if (hand_has(g, seat, (bt_card)c))
			box_card(g, (bt_card)c);
	g->hand[seat - 1] = 0;
}

/* Moves c to the top of pile p (it must be in p). */
void to_top(bt_pile *p, bt_card c)
{
	int at = card_index(p->c, p->n, c);
	ck_assert_int_ge(at, 0);
	p->n = card_remove_at(p->c, p->n, at);
	pile_push(p, c);
}

/* Moves card id from its deck into seat's hand: a built state, since a
 * record's deal gives two Ability cards only. */
void give(bt_game *g, int seat, const char *id)
{
	bt_card c = C(id);
	bt_pile *p = bt_card_type_of(c) == BT_TYPE_SIDE ? &g->side_deck
	                                                 : &g->ability_deck;
	int at = card_index(p->c, p->n, c);

	ck_assert_msg(at >= 0, "%s is not in its deck", id);
	p->n = card_remove_at(p->c, p->n, at);
	hand_add(g, seat, c);
}

bt_game ability_table(void)
{
	bt_game g = play(ABILITY_TABLE);
	static const char *const extra[] = { "X07", "X09", "X11", "X13",
	                                     "X15", "X17", "X19" };
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
		give(&g, 1, extra[i]);
	assert_valid(&g);
	return g;
}
