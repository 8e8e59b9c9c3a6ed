/*
 * round.c - the life of a round: its start (R4), the reprimand (R7), its
 * end (R8) and the passing of the turn with the STUCK rule (R6).
 */
#include <string.h>

#include "engine.h"

static void duty_set(bt_game *g, bt_card c)
{
	if (g->duty != BT_NO_CARD)
		g->target = (int16_t)(g->target - bt_card_get(g->duty)->target);
	g->duty = c;
	if (c != BT_NO_CARD)
		g->target = (int16_t)(g->target + bt_card_get(c)->target);
}

static void box_add(bt_game *g, bt_card c)
{
	g->box[c / 64] |= (uint64_t)1 << (c % 64);
}

/* R4.1: from the First Player clockwise, Side Projects up to two each. */
static void deal_side_projects(bt_game *g)
{
	int seat = g->first;

	for (int i = 0; i < g->players; i++) {
		int held = popcount64(g->hand[seat - 1] & BT_SIDE_MASK);
		for (; held < BT_SIDES_IN_HAND && g->side_deck.n; held++)
			hand_add(g, seat, pile_pop(&g->side_deck));
		seat = seat_left_of(g, seat);
	}
}

int round_start(bt_game *g, bt_error *err)
{
	deal_side_projects(g);
	duty_set(g, pile_pop(&g->assignment_deck));
	if (g->shift_deck.n)
		stack_push(g, shift_draw(g));
	g->turn = g->first;
	/* R8.3: a round that ends during its own start was ended by its
	 * First Player, whether by R4.3 or by STUCK. */
	if (g->officers >= BT_REPRIMAND_OFFICERS || !bt_has_legal(g))
		return round_reprimand(g, g->first, err);
	return 0;
}

int round_reprimand(bt_game *g, int ender, bt_error *err)
{
	box_add(g, g->duty);
	duty_set(g, BT_NO_CARD);
	if (g->side_play_n) {
		/* R7.2: the played ones join the deck, then all is shuffled. */
		for (int i = 0; i < g->side_play_n; i++)
			pile_push(&g->side_deck, g->side_play[i]);
		while (g->side_play_n)
			side_play_remove_at(g, g->side_play_n - 1);
		if (deck_shuffle(g, BT_DECK_SIDE, err))
			return BT_ERR_STACK;
	}
	int worst = bt_row_reprimand_index(g);
	if (worst >= 0) {
		box_add(g, g->row[worst]);
		row_remove_at(g, worst);
	}
	g->reprimands++;
	return round_end(g, ender, err);
}

int round_end(bt_game *g, int ender, bt_error *err)
{
	/* R8.1: the stack's shift cards join the deck in stack order, then
	 * all is shuffled; Overtimes go to the discard pile. */
	for (int i = 0; i < g->stack_n; i++) {
		bt_card c = g->stack[i];
		if (bt_card_type_of(c) == BT_TYPE_SHIFT)
			pile_push(&g->shift_deck, c);
		else
			pile_push(&g->ability_discard, c);
	}
	g->stack_n = 0;
	g->effort = 0;
	g->officers = 0;
	g->ender = (uint8_t)ender;
	if (deck_shuffle(g, BT_DECK_SHIFT, err))
		return BT_ERR_STACK;
	if (g->assignment_deck.n == 0) {
		g->status = BT_LOST;
		g->turn = 0;
		return 0;
	}
	g->first = (uint8_t)seat_left_of(g, ender);
	g->round++;
	return round_start(g, err);
}

int turn_pass(bt_game *g, bt_error *err)
{
	g->turn = (uint8_t)seat_left_of(g, g->turn);
	if (!bt_has_legal(g))
		return round_reprimand(g, g->turn, err);
	return 0;
}
