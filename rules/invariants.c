/*
 * invariants.c - what must hold between any two moves: every card in
 * exactly one place (of a kind that may be there) and the kept totals
 * equal to their R5 definitions.  For tests and for checking stored games.
 */
#include <stdarg.h>
#include <stdio.h>

#include "engine.h"

static int broken(char *why, size_t cap, const char *fmt, ...)
	BT_PRINTF(3, 4);

static int broken(char *why, size_t cap, const char *fmt, ...)
{
	va_list ap;

	if (why && cap) {
		va_start(ap, fmt);
		vsnprintf(why, cap, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A place the cards may be, and which types may lie there. */
struct place {
	const char *name;
	const bt_card *cards;
	int n, cap;
	unsigned types;   /* bit per bt_card_type */
};

#define TYPE(t) (1u << (t))

static int count_place(const struct place *p, uint8_t *seen, char *why,
                       size_t cap)
{
	if (p->n > p->cap)
		return broken(why, cap, "%s holds %d cards, over %d", p->name,
		              p->n, p->cap);
	for (int i = 0; i < p->n; i++) {
		bt_card c = p->cards[i];
		if (c >= BT_CARD_COUNT)
			return broken(why, cap, "%s holds no card (%d)",
			              p->name, c);
		if (!(p->types & TYPE(bt_card_type_of(c))))
			return broken(why, cap, "%s holds %s", p->name,
			              bt_card_get(c)->id);
		seen[c]++;
	}
	return 0;
}

static int count_piles(const bt_game *g, uint8_t *seen, char *why,
                       size_t cap)
{
	const struct place places[] = {
		{ "assignment deck", g->assignment_deck.c, g->assignment_deck.n,
		  BT_ASSIGN_COUNT, TYPE(BT_TYPE_ASSIGNMENT) },
		{ "set-aside pile", g->set_aside.c, g->set_aside.n,
		  BT_ASSIGN_COUNT, TYPE(BT_TYPE_ASSIGNMENT) },
		{ "side deck", g->side_deck.c, g->side_deck.n, BT_SIDE_COUNT,
		  TYPE(BT_TYPE_SIDE) },
		{ "shift deck", g->shift_deck.c, g->shift_deck.n,
		  BT_SHIFT_COUNT, TYPE(BT_TYPE_SHIFT) },
		{ "ability deck", g->ability_deck.c, g->ability_deck.n,
		  BT_ABILITY_COUNT, TYPE(BT_TYPE_ABILITY) },
		{ "ability discard", g->ability_discard.c, g->ability_discard.n,
		  BT_ABILITY_COUNT, TYPE(BT_TYPE_ABILITY) },
		{ "side projects in play", g->side_play, g->side_play_n,
		  BT_SIDE_COUNT, TYPE(BT_TYPE_SIDE) },
		{ "shift stack", g->stack, g->stack_n, BT_STACK_MAX,
		  TYPE(BT_TYPE_SHIFT) | TYPE(BT_TYPE_ABILITY) },
		{ "scoring row", g->row, g->row_n, BT_ROW_MAX,
		  TYPE(BT_TYPE_ASSIGNMENT) | TYPE(BT_TYPE_SIDE) |
		  TYPE(BT_TYPE_ABILITY) },
		{ "duty", &g->duty, g->duty != BT_NO_CARD, 1,
		  TYPE(BT_TYPE_ASSIGNMENT) },
	};

	for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
		if (count_place(&places[i], seen, why, cap))
			return -1;
	return 0;
}

static int count_hands_and_box(const bt_game *g, uint8_t *seen, char *why,
                               size_t cap)
{
	for (int s = 0; s < BT_MAX_PLAYERS; s++) {
		if (s >= g->players && g->hand[s])
			return broken(why, cap, "seat %d holds cards", s + 1);
		if (g->hand[s] >> BT_HANDABLE_COUNT)
			return broken(why, cap, "seat %d holds a card that no "
			              "hand may hold", s + 1);
		for (int c = 0; c < BT_HANDABLE_COUNT; c++)
			seen[c] = (uint8_t)(seen[c] + ((g->hand[s] >> c) & 1));
	}
	for (int c = 0; c < BT_CARD_COUNT; c++)
		seen[c] = (uint8_t)(seen[c] + ((g->box[c / 64] >> (c % 64)) & 1));
	return 0;
}

static int check_totals(const bt_game *g, char *why, size_t cap)
{
	int effort = 0, officers = 0, target = 0, leisure = 0;

	for (int i = 0; i < g->stack_n; i++) {
		effort += bt_card_get(g->stack[i])->effort;
		officers += bt_card_get(g->stack[i])->officers;
		if (bt_card_type_of(g->stack[i]) == BT_TYPE_ABILITY &&
		    bt_card_get(g->stack[i])->kind != BT_OVERTIME)
			return broken(why, cap, "the shift stack holds %s",
			              bt_card_get(g->stack[i])->id);
	}
	if (g->duty != BT_NO_CARD)
		target += bt_card_get(g->duty)->target;
	for (int i = 0; i < g->side_play_n; i++)
		target += bt_card_get(g->side_play[i])->target;
	for (int i = 0; i < g->row_n; i++)
		leisure += bt_card_get(g->row[i])->leisure;
	if (effort != g->effort || officers != g->officers ||
	    target != g->target || leisure != g->leisure)
		return broken(why, cap, "totals kept effort %d target %d "
		              "officers %d leisure %d, but the table says "
		              "%d %d %d %d", g->effort, g->target, g->officers,
		              g->leisure, effort, target, officers, leisure);
	return 0;
}

static int check_progress(const bt_game *g, char *why, size_t cap)
{
	if (g->players < BT_MIN_PLAYERS || g->players > BT_MAX_PLAYERS)
		return broken(why, cap, "%d players", g->players);
	if (g->first < 1 || g->first > g->players)
		return broken(why, cap, "first seat %d", g->first);
	if (g->status == BT_PLAYING && g->round &&
	    (g->turn < 1 || g->turn > g->players))
		return broken(why, cap, "seat %d to move", g->turn);
	if (g->status != BT_PLAYING && g->turn)
		return broken(why, cap, "a turn after the end");
	int any = 0;
	for (int s = 0; s < BT_MAX_PLAYERS; s++) {
		if (g->known_top[s] > g->shift_deck.n ||
		    g->known_top[s] > BT_SWEEP_CARDS)
			return broken(why, cap, "seat %d knows %d top cards",
			              s + 1, g->known_top[s]);
		any |= g->known_top[s];
	}
	if ((any != 0) != g->known_any || g->known_bottom > g->shift_deck.n)
		return broken(why, cap, "what seats know of the Shift Deck "
		              "is out of step");
	if (g->status == BT_PLAYING && g->round &&
	    g->officers >= BT_REPRIMAND_OFFICERS)
		return broken(why, cap, "%d officers and no reprimand",
		              g->officers);
	return 0;
}

int bt_game_check(const bt_game *g, char *why, size_t cap)
{
	uint8_t seen[BT_CARD_COUNT] = { 0 };

	if (check_progress(g, why, cap) || count_piles(g, seen, why, cap) ||
	    count_hands_and_box(g, seen, why, cap) ||
	    check_totals(g, why, cap))
		return -1;
	for (int c = 0; c < BT_CARD_COUNT; c++)
		if (seen[c] != 1)
			return broken(why, cap, "%s is in %d places",
			              bt_card_get((bt_card)c)->id, seen[c]);
	return 0;
}
